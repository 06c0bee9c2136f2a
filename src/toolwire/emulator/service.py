"""The emulator's request handling without HTTP: a body in, an error or a response out.

The shell loads the record a Responses ``previous_response_id`` names
(:meth:`Emulator.previous_id`, :mod:`toolwire.store.responses`); :class:`Emulator` resolves the
request against it, decodes the body with the format's codec (after the validator, when one is
installed), checks the reasoning state (and, with ``rules="provider"``, the replay rules of
:mod:`toolwire.emulator.rules`), asks the scripted model, renders its answer in the format and,
unless ``store`` is false, returns the record that keeps a Responses answer
(:attr:`Success.record`). The ASGI layer (:mod:`toolwire.emulator.app`) moves bytes and performs
the store's reads and writes.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from toolwire._json import loads
from toolwire.emulator.compact import FIELDS as COMPACT_FIELDS
from toolwire.emulator.compact import check_compactions, compacted
from toolwire.emulator.complete import complete_response
from toolwire.emulator.config import EmulatorConfig
from toolwire.emulator.model import ScriptedModel
from toolwire.emulator.reasoning import check_reasoning
from toolwire.emulator.render import input_tokens, render_response
from toolwire.emulator.rules import check_replay
from toolwire.emulator.signature import is_kept_id
from toolwire.emulator.wording import error_body, reasoning_error
from toolwire.errors import ToolwireError
from toolwire.ir import Format, Notes, Request, Response
from toolwire.store import ResponseRecord
from toolwire.store.responses import history, input_items, response_record
from toolwire.translate import format_module

__all__ = ["Emulator", "Failure", "Success"]

_BAD_JSON: dict[str, str] = {
    "openai-chat": "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
    "using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not "
    "valid JSON.)",
    "anthropic": "There was an issue with your request body: invalid JSON",
    "gemini": "Invalid JSON payload received.",
    "bedrock-converse": "Malformed input request, please reformat your input and try again.",
}


@dataclass(frozen=True, slots=True)
class Failure:
    """An error answer: HTTP status, provider error body, extra headers."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Success:
    """A model answer: the decoded request, the canonical response and its wire payload.

    ``body`` is the request's wire payload (the streamed answer echoes it, see
    :mod:`toolwire.emulator.complete`); ``record`` is what the store keeps of a Responses answer
    (``None``: nothing to keep).
    """

    request: Request
    response: Response
    payload: dict[str, Any]
    stream: bool
    body: dict[str, Any] = field(default_factory=dict)
    record: ResponseRecord | None = None


_RESP: Format = "openai-responses"


def _problem_path(path: str | None) -> str | None:
    if not path or path == "$":
        return None
    return path.removeprefix("$.").removeprefix("$")


class Emulator:
    """Answers decoded provider requests deterministically (see :class:`ScriptedModel`)."""

    def __init__(self, config: EmulatorConfig | None = None) -> None:
        self.config = config or EmulatorConfig()
        self.model = ScriptedModel(self.config.script, max_parallel=self.config.max_parallel)

    def _kept(self, item: str) -> bool:
        """Whether ``item`` names a reasoning item of a response the emulator kept (its id says so,
        see :func:`~toolwire.emulator.signature.kept_id`)."""
        return is_kept_id(self.config.secret, item)

    def previous_id(self, fmt: Format, body: bytes) -> str | None:
        """The ``previous_response_id`` of a Responses request body: the record the shell
        loads from the store and passes to :meth:`handle` (``None``: nothing to load)."""
        if fmt != "openai-responses":
            return None
        payload = self.parse(fmt, body)
        key = payload.get("previous_response_id") if isinstance(payload, dict) else None
        return key if isinstance(key, str) else None

    def resolve(
        self, fmt: Format, payload: dict[str, Any], previous: ResponseRecord | None = None
    ) -> dict[str, Any] | Failure:
        """A Responses payload with the history of ``previous`` (the record its
        ``previous_response_id`` names, if kept) put before its input (see
        :mod:`toolwire.store.responses`); other formats unchanged."""
        key = payload.get("previous_response_id") if fmt == "openai-responses" else None
        if key is None:
            return payload
        if previous is None or previous.id != key:
            message = f"Previous response with id '{key}' not found."
            code = "previous_response_not_found"  # a 400, as real answers show (store docstring)
            kind = "invalid_request_error"
            return Failure(*error_body(fmt, 400, message, type=kind, param="previous_response_id", code=code))
        resolved = {k: v for k, v in payload.items() if k != "previous_response_id"}
        resolved["input"] = [*history(previous), *input_items(payload.get("input"))]
        return resolved

    def parse(self, fmt: Format, body: bytes) -> dict[str, Any] | Failure:
        """The JSON object of a request body, or the provider's 400."""
        try:
            payload = loads(body) if body else None
        except ToolwireError:
            payload = None
        if not isinstance(payload, dict):
            message = _BAD_JSON.get(fmt, _BAD_JSON["openai-chat"])
            return Failure(*error_body(fmt, 400, message))
        return payload

    def decode(
        self, fmt: Format, payload: dict[str, Any], *, model: str | None = None, beta: bool = False
    ) -> Request | Failure:
        """Validate and decode a request payload, or the provider's 400 (``beta``: Anthropic beta)."""
        problem = self._validate(fmt, payload, beta)
        if problem is not None:
            return problem
        try:
            request: Request = format_module(fmt).decode_request(payload, Notes("drop"), model=model)
        except ToolwireError as exc:
            return Failure(*error_body(fmt, 400, exc.message, param=_problem_path(exc.path)))
        lost = check_reasoning(request, fmt, self.config.secret, self._kept)
        if lost is not None:
            return Failure(*reasoning_error(fmt, lost))
        foreign = (
            check_compactions(input_items(payload.get("input")), self.config.secret) if fmt == _RESP else None
        )
        if foreign is not None:
            return Failure(
                *error_body(fmt, 400, foreign[0], param=foreign[1], code="invalid_encrypted_content")
            )
        if self.config.rules == "provider":
            broken = check_replay(fmt, payload, request, secret=self.config.secret, model=model, beta=beta)
            if broken is not None:
                return Failure(*error_body(fmt, 400, broken.message, param=broken.param))
        return request

    def _validate(self, fmt: Format, payload: dict[str, Any], beta: bool) -> Failure | None:
        if not self.config.validate:
            return None
        try:
            from toolwire.validate import validate  # type: ignore[attr-defined,unused-ignore]
        except ImportError:
            return None
        try:
            problems = validate(payload, format=fmt, kind="request", beta=beta)
        except ValueError:  # a validator that does not cover this format
            return None
        if not problems:
            return None
        first = problems[0]
        status = getattr(first, "status", None) or 400
        param = getattr(first, "param", None) or _problem_path(getattr(first, "path", None))
        return Failure(*error_body(fmt, status, str(first.message), param=param))

    def respond(
        self,
        fmt: Format,
        request: Request,
        *,
        seed: bytes,
        model: str | None = None,
        body: dict[str, Any] | None = None,
    ) -> Success:
        """The scripted model's answer to a decoded request, encoded in ``fmt`` (``body``: the
        request's wire payload, echoed where the format's answer echoes it)."""
        plan = self.model.plan(request)
        digest = hashlib.sha256(seed).digest()
        response = render_response(plan, request, fmt, secret=self.config.secret, seed=digest, model=model)
        payload: dict[str, Any] = format_module(fmt).encode_response(response, Notes("drop"))
        wire = body if body is not None else {}
        payload = complete_response(fmt, payload, wire)
        return Success(request, response, payload, bool(request.stream), wire)

    def handle(
        self,
        fmt: Format,
        body: bytes,
        *,
        model: str | None = None,
        beta: bool = False,
        previous: ResponseRecord | None = None,
    ) -> Success | Failure:
        """Parse, decode, check and answer one request body (``previous``: the kept record its
        ``previous_response_id`` names, see :meth:`previous_id`)."""
        payload = self.parse(fmt, body)
        if isinstance(payload, Failure):
            return payload
        resolved = self.resolve(fmt, payload, previous)
        if isinstance(resolved, Failure):
            return resolved
        request = self.decode(fmt, resolved, model=model, beta=beta)
        if isinstance(request, Failure):
            return request
        success = self.respond(fmt, request, seed=body, model=model, body=payload)
        if fmt == "openai-responses" and payload.get("store") is not False:
            record = response_record(success.payload, payload, previous)
            return replace(success, record=record)
        return success

    def compact(self, body: bytes, previous: ResponseRecord | None = None) -> dict[str, Any] | Failure:
        """``POST /v1/responses/compact``: the compacted window of a conversation, or the API's 400
        (see :mod:`toolwire.emulator.compact`; ``previous``: the kept record its
        ``previous_response_id`` names, see :meth:`previous_id`)."""
        payload = self.parse("openai-responses", body)
        if isinstance(payload, Failure):
            return payload
        unknown = sorted(set(payload) - COMPACT_FIELDS)
        if unknown:
            message = f"Unknown parameter: '{unknown[0]}'."
            return Failure(
                *error_body("openai-responses", 400, message, param=unknown[0], code="unknown_parameter")
            )
        resolved = self.resolve("openai-responses", payload, previous)
        if isinstance(resolved, Failure):
            return resolved
        request = self.decode("openai-responses", resolved)
        if isinstance(request, Failure):
            return request
        items = input_items(resolved.get("input"))
        key = "resp_" + hashlib.sha256(body).hexdigest()[:48]
        return compacted(items, key=key, created_at=int(time.time()), secret=self.config.secret)

    def count_tokens(
        self,
        fmt: Format,
        body: bytes,
        *,
        model: str | None = None,
        beta: bool = False,
        previous: ResponseRecord | None = None,
    ) -> int | Failure:
        """Input tokens of a request body (Responses ``input_tokens``, Anthropic ``count_tokens``,
        Gemini ``countTokens``): :func:`~toolwire.emulator.render.input_tokens` of the request a
        generation would decode, so the count equals that generation's reported input tokens."""
        payload = self.parse(fmt, body)
        if isinstance(payload, Failure):
            return payload
        payload = _COUNTED[fmt](payload) if fmt in _COUNTED else payload
        resolved = self.resolve(fmt, payload, previous)
        if isinstance(resolved, Failure):
            return resolved
        request = self.decode(fmt, resolved, model=model, beta=beta)
        if isinstance(request, Failure):
            return request
        return input_tokens(request)


def _gemini_counted(payload: dict[str, Any]) -> dict[str, Any]:
    inner = payload.get("generateContentRequest")
    return inner if isinstance(inner, dict) else payload


_COUNTED: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "anthropic": lambda payload: {"max_tokens": 1, **payload},
    "openai-responses": lambda payload: {**payload, "model": payload.get("model") or "toolwire-emulator"},
    "gemini": _gemini_counted,
}
"""A count request -> the generation request it counts (fields a generation requires and a count
does not: Anthropic ``max_tokens``, the Responses ``model``; Gemini's ``generateContentRequest``)."""
