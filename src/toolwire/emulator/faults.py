"""Fault injection: what can go wrong on purpose, from a short spec string.

A spec is a comma-separated list of items, given per request in the ``x-toolwire-fault``
header or for every request in :class:`~toolwire.emulator.EmulatorConfig` ``faults``:

==================  ==============================================================
item                effect
==================  ==============================================================
``latency=0.5``     wait that many seconds before answering
``429[=2]``         rate-limit error with ``Retry-After: 2`` (default 1)
``500`` ``503``     server error / overloaded (also ``529`` and ``401``)
``401``             authentication error
``disconnect``      cut the connection mid-body (stream: after a few events)
``drop-terminal``   stream ends without its terminal event (streams only)
``malformed``       one stream event (or the whole JSON body) is invalid JSON
==================  ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from toolwire.errors import PayloadError

__all__ = ["FAULT_HEADER", "Faults", "parse_faults"]

FAULT_HEADER = "x-toolwire-fault"
"""Request header naming the faults to inject into that request."""

_STATUSES = frozenset({401, 429, 500, 503, 529})
_FLAGS = {"disconnect": "disconnect", "drop-terminal": "drop_terminal", "malformed": "malformed"}


@dataclass(frozen=True, slots=True)
class Faults:
    """The faults to inject into one request.

    Attributes:
        latency: seconds to wait before answering.
        status: an HTTP error status to answer with instead of a model response.
        retry_after: seconds for the ``Retry-After`` header (429).
        disconnect: cut the connection in the middle of the body.
        drop_terminal: leave out the stream's terminal event.
        malformed: send one stream event with invalid JSON.
    """

    latency: float = 0.0
    status: int | None = None
    retry_after: float | None = None
    disconnect: bool = False
    drop_terminal: bool = False
    malformed: bool = False

    def merged(self, other: Faults) -> Faults:
        """These faults with ``other``'s set values on top."""
        return Faults(
            latency=other.latency or self.latency,
            status=other.status if other.status is not None else self.status,
            retry_after=other.retry_after if other.retry_after is not None else self.retry_after,
            disconnect=self.disconnect or other.disconnect,
            drop_terminal=self.drop_terminal or other.drop_terminal,
            malformed=self.malformed or other.malformed,
        )


MAX_SECONDS = 3600.0
"""The longest latency or ``Retry-After`` a fault may ask for."""


def _number(value: str, item: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise PayloadError(f"fault {item!r}: expected a number") from None
    if not 0 <= number <= MAX_SECONDS:  # also refuses nan; inf would park the request forever
        raise PayloadError(f"fault {item!r}: expected a number of seconds from 0 to {MAX_SECONDS:g}")
    return number


def _apply(faults: Faults, item: str) -> Faults:
    name, _, value = item.partition("=")
    name = name.strip().lower()
    value = value.strip()
    if name == "latency":
        return replace(faults, latency=_number(value or "0", item))
    if name in _FLAGS:
        return replace(faults, **{_FLAGS[name]: True})
    if name.isdigit() and int(name) in _STATUSES:
        status = int(name)
        retry = _number(value, item) if value else (1.0 if status == 429 else None)
        return replace(faults, status=status, retry_after=retry)
    known = ", ".join(["latency=S", *map(str, sorted(_STATUSES)), *_FLAGS])
    raise PayloadError(f"unknown fault {item!r}; expected one of {known}")


def parse_faults(spec: str | None) -> Faults:
    """Parse a fault spec such as ``"latency=0.2, 429=3"``; bad items raise PayloadError."""
    faults = Faults()
    for item in (spec or "").split(","):
        if item.strip():
            faults = _apply(faults, item)
    return faults
