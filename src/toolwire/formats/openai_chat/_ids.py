"""Tool call ids: Mistral-style 9-character ids and deterministic synthesized ids.

Mistral (and Chat dialects modelled on it) only accept call ids of exactly nine
characters from ``[a-zA-Z0-9]``. :func:`mistral_call_id` derives one from any id
deterministically, so a stateless gateway maps the same conversation the same way on
every request, and the calls and their results stay paired.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["mistral_call_id", "synthesized_call_id", "synthesized_completion_id"]

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")
_LENGTH = 9


def mistral_call_id(original_id: str) -> str:
    """A 9-character alphanumeric call id for ``original_id`` (unchanged when already valid).

    The id is the base-62 spelling of a BLAKE2b hash of the original id, so it is
    stable across processes and runs.
    """
    if _MISTRAL_ID.fullmatch(original_id):
        return original_id
    number = int.from_bytes(
        hashlib.blake2b(original_id.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big"
    )
    chars = []
    for _ in range(_LENGTH):
        number, digit = divmod(number, 62)
        chars.append(_ALPHABET[digit])
    return "".join(chars)


def synthesized_call_id(message_index: int, call_index: int) -> str:
    """The call id made up for the ``call_index``-th id-less call of message ``message_index``."""
    return f"call_{message_index}_{call_index}"


def synthesized_completion_id(seed: str) -> str:
    """``chatcmpl-<32 hex digits>`` derived from ``seed`` (a response's content), for a response
    of another format that has no id (the Chat schema requires one)."""
    return "chatcmpl-" + hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()[:32]
