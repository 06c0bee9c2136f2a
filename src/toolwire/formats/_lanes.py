"""What the encoders' fast lanes ask of an IR value before writing it themselves (issue 18).

A lane (``openai_chat/_encode_fast.py``, ``openai_responses/_encode_fast.py``,
``anthropic/_encode_fast.py``) writes a message only when the general encoder would write it with
no note; these are the checks more than one lane makes.
"""

from __future__ import annotations

from toolwire.ir.base import Extra
from toolwire.ir.content import Part, ToolCall

__all__ = ["lossless", "unnoted_call"]


def lossless(extra: Extra) -> bool:
    """Whether :func:`~toolwire.formats._wire.emit_extra` for another format notes nothing of
    ``extra``: it holds only hints (``~...``) and ``null`` fields."""
    for key, value in extra.items():  # noqa: SIM110 -- a loop: twice as fast as all() of a generator
        if key[:1] != "~" and value is not None:
            return False
    return True


def unnoted_call(part: Part) -> ToolCall | None:
    """``part`` when it is a function call with an id that another format sends as is (no
    thought signature, namespace, Responses item id or extra field to note), else ``None``."""
    if type(part) is not ToolCall or part.kind != "function" or part.id is None:
        return None
    if part.thought_signature is not None or part.namespace is not None or part.item_id is not None:
        return None
    if part.extra and not lossless(part.extra):
        return None
    return part
