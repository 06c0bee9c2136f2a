"""Price tables and usage sums (toolwire.usage), with hand-computed numbers."""

from __future__ import annotations

from decimal import Decimal

import pytest

from toolwire.ir import Usage
from toolwire.usage import Price, Prices, total_usage


def test_cost_splits_input_by_cache() -> None:
    # 10_000 input tokens of which 6_000 cache reads and 1_000 cache writes: 3_000 uncached
    price = Price(input="3", cached_input="0.30", cache_write="3.75", output="15")
    usage = Usage(input_tokens=10_000, cached_tokens=6_000, cache_creation_tokens=1_000, output_tokens=2_000)
    # 3000*3 + 6000*0.30 + 1000*3.75 + 2000*15 = 9000 + 1800 + 3750 + 30000 = 44550 per million
    assert price.cost(usage) == Decimal("0.04455")


def test_cache_prices_default_to_input_and_reasoning_is_not_added_twice() -> None:
    price = Price(input=2, output=8)
    usage = Usage(input_tokens=1_000, cached_tokens=400, output_tokens=500, reasoning_tokens=300)
    assert price.cost(usage) == Decimal("0.006")  # 1000*2 + 500*8 = 6000 per million


def test_missing_counts_are_zero() -> None:
    assert Price(input=1, output=1).cost(Usage()) == 0
    assert Price(input=1, output=1).cost(Usage(output_tokens=1_000_000)) == 1


def test_price_amounts_are_exact() -> None:
    assert Price(input="0.1", output=0).input == Decimal("0.1")
    with pytest.raises(TypeError, match=r"Price\.input must be a Decimal, int or decimal string"):
        Price(input=0.1, output=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"Price\.output must be a finite amount >= 0"):
        Price(input=1, output="-1")
    with pytest.raises(ValueError):
        Price(input="NaN", output=1)


def test_prices_match_exact_then_longest_prefix() -> None:
    prices = Prices(
        {
            "claude-sonnet-4": Price(input=3, output=15),
            "claude-sonnet-4-5": Price(input=4, output=16),
            "gpt-5": Price(input="1.25", output=10),
            "gpt-5-mini": Price(input="0.25", output=2),
        }
    )
    assert prices.price_of("claude-sonnet-4-5-20250929").input == 4
    assert prices.price_of("claude-sonnet-4-20250514").input == 3
    assert prices.price_of("gpt-5-mini").output == 2
    assert prices.price_of("gpt-5-2025-08-07").output == 10
    assert len(prices) == 4 and set(prices) >= {"gpt-5"} and prices["gpt-5"].output == 10
    with pytest.raises(KeyError, match=r"no price for model 'gemini-2\.5-pro'"):
        prices.price_of("gemini-2.5-pro")
    with pytest.raises(KeyError):
        prices.cost(Usage(input_tokens=1), None)
    assert prices.cost(None, "gpt-5") == 0
    with pytest.raises(TypeError, match="the price of 'x' must be a Price"):
        Prices({"x": (1, 2)})  # type: ignore[dict-item]


def test_total_usage_adds_reported_counts() -> None:
    total = total_usage(
        [
            Usage(input_tokens=10, output_tokens=5, cached_tokens=4),
            None,
            Usage(input_tokens=20, output_tokens=7, reasoning_tokens=3, total_tokens=27),
        ]
    )
    assert total == Usage(
        input_tokens=30, output_tokens=12, cached_tokens=4, reasoning_tokens=3, total_tokens=27
    )
    assert total.cache_creation_tokens is None  # reported by no one
    assert total_usage([]) == Usage()
