"""Token usage totals and cost estimates from a price table the caller supplies.

toolwire ships no prices and fetches none: they change often and differ by contract. A
:class:`Prices` table maps a model name to a :class:`Price` in currency units per million tokens.

Usage follows the IR convention (:class:`~toolwire.ir.Usage`): ``input_tokens`` counts every
input token, cache reads and cache writes included; ``output_tokens`` counts every output token,
reasoning included. So the cost of one response is:

======================= ======================================= =========================
tokens                  count                                   price
======================= ======================================= =========================
uncached input          ``input - cached - cache_creation``     ``input``
cache reads             ``cached_tokens``                       ``cached_input``
cache writes            ``cache_creation_tokens``               ``cache_write``
output                  ``output_tokens`` (reasoning included)  ``output``
======================= ======================================= =========================

``reasoning_tokens`` is never added again: it is part of ``output_tokens`` in every format's
decoder. A count the response does not report counts as zero. Money is :class:`~decimal.Decimal`:
prices are written as decimal strings (``"0.15"``) and sums of many small costs stay exact.

Example:
    >>> from toolwire.ir import Usage
    >>> prices = Prices({"gpt-5": Price(input="1.25", cached_input="0.125", output="10")})
    >>> prices.cost(Usage(input_tokens=1000, cached_tokens=800, output_tokens=100), "gpt-5-2025-08-07")
    Decimal('0.00135')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal

from toolwire.ir.response import Usage

__all__ = ["Price", "Prices", "total_usage"]

_MILLION = Decimal(1_000_000)

Amount = Decimal | int | str
"""A price as given: a ``Decimal``, an ``int`` or a decimal string (floats are refused: inexact)."""


def _amount(value: Amount | None, name: str) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (Decimal, int, str)):
        raise TypeError(f"Price.{name} must be a Decimal, int or decimal string, got {type(value).__name__}")
    amount = Decimal(value)
    if not amount.is_finite() or amount < 0:
        raise ValueError(f"Price.{name} must be a finite amount >= 0, got {value!r}")
    return amount


@dataclass(frozen=True, slots=True, init=False)
class Price:
    """What one model costs, in currency units per million tokens.

    Attributes:
        input: uncached input tokens.
        output: output tokens (reasoning included).
        cached_input: input tokens read from a cache (default: ``input``).
        cache_write: input tokens written to a cache (default: ``input``).

    Raises:
        TypeError: an amount is a float or another type (write ``"0.15"``, not ``0.15``).
        ValueError: an amount is negative or not finite.
    """

    input: Decimal
    output: Decimal
    cached_input: Decimal | None = None
    cache_write: Decimal | None = None

    def __init__(
        self,
        *,
        input: Amount,
        output: Amount,
        cached_input: Amount | None = None,
        cache_write: Amount | None = None,
    ) -> None:
        given = {"input": input, "output": output, "cached_input": cached_input, "cache_write": cache_write}
        for name, value in given.items():
            object.__setattr__(self, name, _amount(value, name))

    def cost(self, usage: Usage) -> Decimal:
        """The cost of ``usage`` at this price."""
        cached = usage.cached_tokens or 0
        written = usage.cache_creation_tokens or 0
        uncached = max((usage.input_tokens or 0) - cached - written, 0)
        total = (
            uncached * self.input
            + cached * (self.input if self.cached_input is None else self.cached_input)
            + written * (self.input if self.cache_write is None else self.cache_write)
            + (usage.output_tokens or 0) * self.output
        )
        return total / _MILLION


class Prices(Mapping[str, Price]):
    """A price table: model name -> :class:`Price`.

    A model is looked up by its exact name, else by the longest key it starts with, so
    ``"claude-sonnet-4-5"`` prices ``"claude-sonnet-4-5-20250929"``.

    Args:
        table: the prices by model name.
    """

    __slots__ = ("_table",)

    def __init__(self, table: Mapping[str, Price]) -> None:
        for model, price in table.items():
            if not isinstance(price, Price):
                raise TypeError(f"the price of {model!r} must be a Price, got {type(price).__name__}")
        self._table = dict(table)

    def __getitem__(self, model: str) -> Price:
        return self._table[model]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def price_of(self, model: str | None) -> Price:
        """The price of ``model``: exact name, else the longest key that is a prefix of it.

        Raises:
            KeyError: no key matches ``model``.
        """
        if model is not None:
            if model in self._table:
                return self._table[model]
            matches = [key for key in self._table if model.startswith(key)]
            if matches:
                return self._table[max(matches, key=len)]
        raise KeyError(f"no price for model {model!r}; known: {sorted(self._table)}")

    def cost(self, usage: Usage | None, model: str | None) -> Decimal:
        """The cost of one response's ``usage`` for ``model`` (zero without usage).

        Raises:
            KeyError: ``model`` has no price.
        """
        price = self.price_of(model)
        return Decimal(0) if usage is None else price.cost(usage)


def total_usage(usages: Iterable[Usage | None]) -> Usage:
    """The sum of ``usages``, count by count.

    A count no usage reports stays ``None``; otherwise the reported values are added (a missing
    one counts as zero, as formats omit zero counts). ``extra`` is not summed.
    """
    reported = [u for u in usages if u is not None]

    def total(name: str) -> int | None:
        values = [v for v in (getattr(u, name) for u in reported) if v is not None]
        return sum(values) if values else None

    return Usage(
        input_tokens=total("input_tokens"),
        output_tokens=total("output_tokens"),
        total_tokens=total("total_tokens"),
        cached_tokens=total("cached_tokens"),
        cache_creation_tokens=total("cache_creation_tokens"),
        reasoning_tokens=total("reasoning_tokens"),
    )
