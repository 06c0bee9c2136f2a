"""Tool call ids across hops: a reversible sanitizing map, and ids unique across turns.

Anthropic ``tool_use`` ids must match ``^[a-zA-Z0-9_-]+$``. Replacing the other characters by
``_`` would merge ``a.b`` and ``a:b`` into one id, so :func:`sanitize_call_id` escapes instead:

=========================================  ============================================
the id                                     sent as
=========================================  ============================================
valid                                      unchanged (so a same-format hop and a
                                           re-encoding keep it byte for byte)
anything else                              ``<escaped>--<hash>``: each UTF-8 byte of a
                                           character outside ``[a-zA-Z0-9_]`` written
                                           ``-hh`` (so ``-`` is ``-2d``); ``<hash>``: 16 hex
                                           digits of BLAKE2s of the original id
=========================================  ============================================

:func:`restore_call_id` decodes a string of that shape whose hash matches, and returns anything
else unchanged. The escape is injective and never equals an invalid id, so two ids share a wire
id only if one of them is a valid id crafted as the other's escape, a 64-bit hash preimage. The
map needs no state: two stateless gateways agree.

Synthesized ids (:func:`synthesized_call_id`), for upstream calls without one (Gemini), are
derived from the response id (or a hash of the response when it has none) and the call's
position, so they differ from turn to turn and are the same for the same response.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["ID_PREFIXES", "restore_call_id", "sanitize_call_id", "synthesized_call_id"]

_VALID = re.compile(r"[a-zA-Z0-9_-]+")
_PLAIN = re.compile(r"[a-zA-Z0-9_]")
_ESCAPED = re.compile(r"((?:[a-zA-Z0-9_]|-[0-9a-f]{2})*)--([0-9a-f]{16})")
_TOKEN = re.compile(r"-([0-9a-f]{2})|([a-zA-Z0-9_]+)")

ID_PREFIXES: dict[str, str] = {
    "openai-chat": "call_",
    "openai-responses": "call_",
    "anthropic": "toolu_",
    "gemini": "call_",
    "bedrock-converse": "tooluse_",
}
"""Client format -> the prefix of the call ids synthesized for it (its providers' own style)."""


def _hash(text: str) -> str:
    return hashlib.blake2s(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def _escape(call_id: str) -> str:
    out: list[str] = []
    for char in call_id:
        if _PLAIN.fullmatch(char):
            out.append(char)
        else:
            out.extend(f"-{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
    return "".join(out)


def _unescape(escaped: str) -> str | None:
    data = bytearray()
    for match in _TOKEN.finditer(escaped):
        hexa, plain = match.groups()
        data.extend(bytes.fromhex(hexa) if hexa is not None else plain.encode())
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None


def restore_call_id(wire_id: str) -> str:
    """The original of a wire id made by :func:`sanitize_call_id` (other ids unchanged).

    Example:
        >>> restore_call_id(sanitize_call_id("call.1:a"))
        'call.1:a'
        >>> restore_call_id("toolu_01A")
        'toolu_01A'
    """
    if "--" not in wire_id:  # what every escaped id holds: most ids are not escaped
        return wire_id
    match = _ESCAPED.fullmatch(wire_id)
    if match is None:
        return wire_id
    original = _unescape(match.group(1))
    if original is None or _hash(original) != match.group(2):
        return wire_id
    return original


def sanitize_call_id(call_id: str) -> str:
    """A wire id matching ``^[a-zA-Z0-9_-]+$`` for ``call_id``; different ids stay different.

    Example:
        >>> sanitize_call_id("toolu_01A")
        'toolu_01A'
        >>> sanitize_call_id("a.b") != sanitize_call_id("a_b") != sanitize_call_id("a:b")
        True
    """
    if _VALID.fullmatch(call_id):
        return call_id
    return f"{_escape(call_id)}--{_hash(call_id)}"


def synthesized_call_id(prefix: str, seed: str, index: int) -> str:
    """A call id for the call at ``index`` of the response identified by ``seed``.

    ``seed`` is the response id, or a digest of the response when it has none.

    Example:
        >>> synthesized_call_id("call_", "resp-1", 0) != synthesized_call_id("call_", "resp-2", 0)
        True
    """
    digest = hashlib.blake2s(seed.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    return f"{prefix}{digest}_{index}"
