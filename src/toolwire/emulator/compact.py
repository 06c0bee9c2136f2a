"""``POST /v1/responses/compact``: a conversation folded into one opaque ``compaction`` item.

The body is the spec's ``CompactResponseMethodPublicBody`` (:data:`FIELDS`; ``model`` required,
any other field is the API's ``Unknown parameter`` 400); ``previous_response_id`` continues a
stored response as ``POST /v1/responses`` does. The answer is the spec's ``CompactResource``,
shaped as the real API answers (recorded in
tests/data/fixtures/pydantic-ai/openai-responses/test_openai_responses_compact_messages_direct.yaml):

======================  ========================================================================
``object``              ``response.compaction``
``output``              the user messages of the conversation, as given (ids, ``status``,
                        ``input_text`` parts), then one ``{"type": "compaction", "id": "cmp_…",
                        "encrypted_content"}`` standing for everything else
``usage``               the Responses usage object (input: the conversation's estimate;
                        output: the compacted items' estimate)
======================  ========================================================================

The ``encrypted_content`` is a signed token (:mod:`toolwire.emulator.signature`) over the
folded items, so a later request that passes the output back as input (how the API documents
continuing from a compaction) can be checked: :func:`check_compactions` answers a tampered or
foreign one with the 400 the API gives an undecryptable item.
"""

from __future__ import annotations

import hashlib
from typing import Any

from toolwire._json import dumps
from toolwire.emulator.render import estimate_tokens
from toolwire.emulator.signature import sign, verify
from toolwire.store.responses import listed_item

__all__ = ["FIELDS", "check_compactions", "compact_output", "compacted"]

FIELDS: frozenset[str] = frozenset(
    {
        "input",
        "instructions",
        "model",
        "previous_response_id",
        "prompt_cache_key",
        "prompt_cache_options",
        "prompt_cache_retention",
        "service_tier",
    }
)
"""The request fields ``CompactResponseMethodPublicBody`` defines."""


def _is_user_message(item: Any) -> bool:
    return isinstance(item, dict) and item.get("type", "message") == "message" and item.get("role") == "user"


def compact_output(items: list[Any], *, key: str, secret: bytes) -> list[dict[str, Any]]:
    """The compacted window of the conversation ``items`` for the compaction ``key``: its user
    messages, then one ``compaction`` item whose ``encrypted_content`` binds every other item
    under ``secret``."""
    kept = [listed_item(item, key, i) for i, item in enumerate(items) if _is_user_message(item)]
    folded = [item for item in items if not _is_user_message(item)]
    digest = hashlib.sha256(f"{key}:compaction".encode()).hexdigest()[:48]
    token = sign(secret, dumps(folded).decode())
    return [*kept, {"id": f"cmp_{digest}", "type": "compaction", "encrypted_content": token}]


def compacted(items: list[Any], *, key: str, created_at: int, secret: bytes) -> dict[str, Any]:
    """The ``CompactResource`` answering a compaction of the conversation ``items``."""
    output = compact_output(items, key=key, secret=secret)
    spent = estimate_tokens(dumps(items).decode())
    made = estimate_tokens(dumps(output).decode())
    return {
        "id": key,
        "object": "response.compaction",
        "created_at": created_at,
        "output": output,
        "usage": {
            "input_tokens": spent,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": made,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": spent + made,
        },
    }


def check_compactions(items: list[Any], secret: bytes) -> tuple[str, str] | None:
    """``(message, param)`` of the first ``compaction`` input item whose ``encrypted_content``
    this emulator did not issue, or ``None``."""
    for index, item in enumerate(items):
        if not (isinstance(item, dict) and item.get("type") == "compaction"):
            continue
        token = item.get("encrypted_content")
        if not verify(secret, token if isinstance(token, str) else None):
            name = item.get("id") if isinstance(item.get("id"), str) else f"input[{index}]"
            return (
                f"The encrypted content for item {name} could not be verified.",
                f"input[{index}].encrypted_content",
            )
    return None
