"""Bedrock ``Converse`` response bodies <-> IR :class:`~toolwire.ir.Response`.

Wire shape: ``{"output": {"message": {"role": "assistant", "content": [...]}}, "stopReason",
"usage", "metrics": {"latencyMs"}, "additionalModelResponseFields"?, "trace"?,
"performanceConfig"?, "serviceTier"?}``. A Bedrock response body has no id (the request id is the
``x-amzn-RequestId`` header), model or creation time: the decoder derives an id from the body
(``bedrock_`` + a hash, the same for the same body) so that clients of formats that require one
get a stable id, and another format's id, model and time are dropped (info notes).
``metrics.latencyMs`` is kept for Bedrock only (a measurement, not content: other formats have no
field and lose nothing); for another format's response it is made up as 0 (info).
``stopReason`` and ``usage`` are mapped by the tables in ``_keys``; the raw stop reason returns
unchanged to Bedrock.
"""

from __future__ import annotations

import hashlib
from typing import Any

from toolwire._json import dumps_sorted
from toolwire.formats._wire import as_dict, child, emit_extra, fail, split_extra
from toolwire.formats.bedrock_converse._decode_blocks import OPAQUE, decode_blocks
from toolwire.formats.bedrock_converse._encode_blocks import Ctx, with_opaque
from toolwire.formats.bedrock_converse._keys import (
    FORMAT,
    decode_stop,
    decode_usage,
    encode_stop,
    encode_usage,
)
from toolwire.formats.bedrock_converse._messages import encode_content
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response

__all__ = ["body_id", "decode_response", "encode_response"]

_KNOWN = frozenset({"output", "stopReason", "usage", "metrics"})


def body_id(body: Any) -> str:
    """The id a response ``body`` is given (it has none): ``bedrock_`` and a BLAKE2s of its JSON
    with sorted keys (``dumps_sorted``), the same for the same JSON object whatever its key order
    or spacing: the decoder's, the response lane reader's of the dict, and of the bytes API's
    Structs, which encode as the dict they were decoded from
    (``toolwire._plain._response_wire.BedrockResponse``)."""
    data = dumps_sorted(body, path="$")
    return "bedrock_" + hashlib.blake2s(data, digest_size=16).hexdigest()


def decode_response(payload: Any, notes: Notes) -> Response:
    """Decode a ``Converse`` response body."""
    body = as_dict(payload, "$")
    extra: Extra = split_extra(body, _KNOWN)
    output = as_dict(body.get("output"), "$.output")
    extra["~output"] = split_extra(output, frozenset({"message"}))
    message = as_dict(output.get("message"), "$.output.message")
    extra["~message"] = split_extra(message, frozenset({"content"}))
    if "content" not in message:
        fail("$.output.message.content", "required field is missing")
    block_extra: Extra = {}
    parts = decode_blocks(message["content"], "$.output.message.content", block_extra)
    if OPAQUE in block_extra:
        extra[OPAQUE] = block_extra[OPAQUE]
    stop = body.get("stopReason")
    if stop is not None and type(stop) is not str:
        fail("$.stopReason", "expected a string")
    if "stopReason" not in body:
        extra["~no_stop"] = True
    if "metrics" in body:
        extra["~metrics"] = body["metrics"]
    usage = body.get("usage")
    return Response(
        id=body_id(body),
        parts=parts,
        stop_reason=decode_stop(stop),
        raw_stop_reason=stop,
        usage=None if usage is None else decode_usage(usage),
        origin=FORMAT,
        extra=extra,
    )


def _dropped_metadata(resp: Response, notes: Notes) -> None:
    for name in ("id", "model", "created", "status"):
        value = getattr(resp, name)
        if value is not None:
            notes.info(f"$.{name}", "dropped", f"response {name} {value!r} (a Bedrock response has none)")
    if resp.error is not None:
        notes.add(
            "$.error",
            "dropped",
            f"response error {resp.error.message!r} (a Bedrock response has no error field)",
        )


def encode_response(resp: Response, notes: Notes) -> dict[str, Any]:
    """Encode an IR response as a ``Converse`` response body."""
    same = resp.origin == FORMAT
    extra = resp.extra if same else {}
    ctx = Ctx(notes, same)
    content = encode_content(resp.parts, ctx, "$.parts")
    if same:
        content = with_opaque(content, extra.get(OPAQUE))
    message: dict[str, Any] = {"role": "assistant", "content": content}
    message.update(extra.get("~message", {}))
    output: dict[str, Any] = {"message": message, **extra.get("~output", {})}
    out: dict[str, Any] = {"output": output}
    if not extra.get("~no_stop"):
        out["stopReason"] = encode_stop(resp.stop_reason, resp.raw_stop_reason, same, notes, "$.stopReason")
    if resp.usage is not None or not same:
        out["usage"] = encode_usage(resp.usage, same, notes, child("$", "usage"))
    if same:
        if "~metrics" in extra:
            out["metrics"] = extra["~metrics"]
        emit_extra(out, {k: v for k, v in extra.items() if k != OPAQUE}, True, notes, "$")
    else:
        _dropped_metadata(resp, notes)
        out["metrics"] = {"latencyMs": 0}
        notes.info("$.metrics", "synthesized", "metrics.latencyMs is 0 (the source reports no latency)")
        emit_extra(out, resp.extra, False, notes, "$")
    return out
