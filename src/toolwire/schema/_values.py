"""Iterative helpers for JSON *values* inside schemas (``enum``, ``const``, ``default``...).

Values are not subschemas, so the walker's limits do not cover them; these helpers never recurse,
so a value nested 100,000 levels deep cannot exhaust the Python stack.
"""

from __future__ import annotations

from typing import Any

__all__ = ["json_equal", "value_depth"]


def value_depth(value: Any, stop: int) -> int:
    """How deeply ``value`` nests arrays and objects (a scalar is 0); counting stops past ``stop``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if type(item) is dict:
            children: Any = item.values()
        elif type(item) is list:
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > stop:
            return deepest
        stack.extend((child, depth) for child in children)
    return deepest


def _scalar_equal(a: Any, b: Any) -> bool:
    numbers = (int, float)
    if type(a) in numbers and type(b) in numbers:
        return bool(a == b)
    return type(a) is type(b) and a == b


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` differs from ``1``, ``1`` equals ``1.0``, objects ignore key order."""
    stack = [(a, b)]
    while stack:
        left, right = stack.pop()
        if left is right:
            continue
        if type(left) is dict and type(right) is dict:
            if left.keys() != right.keys():
                return False
            stack.extend((left[key], right[key]) for key in left)
        elif type(left) is list and type(right) is list:
            if len(left) != len(right):
                return False
            stack.extend(zip(left, right, strict=True))
        elif type(left) in (dict, list) or type(right) in (dict, list) or not _scalar_equal(left, right):
            return False
    return True
