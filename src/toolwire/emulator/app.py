"""The emulator's ASGI app: each provider's HTTP API in front of the scripted model.

=========================================================  ==================
route                                                      format
=========================================================  ==================
``POST /v1/chat/completions``                              ``openai-chat``
``POST /v1/responses``                                     ``openai-responses``
``POST /v1/responses/input_tokens``                        ``openai-responses``
``POST /v1/responses/compact``                             ``openai-responses``
                                                           (:mod:`toolwire.emulator.compact`)
``GET``/``DELETE /v1/responses/{id}``,                     ``openai-responses`` (the store,
``GET /v1/responses/{id}/input_items``,                    :mod:`toolwire.store.responses`;
``POST /v1/responses/{id}/cancel``                         background responses:
                                                           :mod:`toolwire.emulator.background`)
``/v1/conversations``, ``/v1/conversations/{id}``,         ``openai-responses`` (the store,
``.../{id}/items``, ``.../{id}/items/{item_id}``           the gateway's own code,
                                                           :mod:`toolwire.hop._conversations`)
``POST /v1/messages`` (also ``?beta=true``)                ``anthropic``
``POST /v1/messages/count_tokens``                         ``anthropic``
``POST /v1beta/models/{model}:generateContent``            ``gemini``
``POST /v1beta/models/{model}:streamGenerateContent``      ``gemini`` (``alt=sse`` for SSE)
``POST /v1beta/models/{model}:countTokens``                ``gemini``
``POST /model/{modelId}/converse``                         ``bedrock-converse``
``POST /model/{modelId}/converse-stream``                  ``bedrock-converse`` (AWS event-stream
                                                           binary, ``application/vnd.amazon.eventstream``)
``GET /v1/models``, ``GET /v1beta/models``                 model lists
=========================================================  ==================

Vertex AI's paths (both publishers) and Azure OpenAI's deployment and v1 paths answer too, with
each service's auth and extra fields (:mod:`toolwire.emulator.profiles`).

Bedrock errors carry their type in the ``x-amzn-ErrorType`` header, as AWS sends it (the SDKs
read it); API keys are the access key ids of SigV4 ``Authorization`` headers (the signature is
not checked: the emulator holds no secret keys).

Gemini routes also answer under ``/v1/``. The token counts (:data:`COUNT_BODIES`) use the
estimate of the usage a generation of the same request reports
(:func:`~toolwire.emulator.render.input_tokens`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request as HTTPRequest
from starlette.responses import Response as HTTPResponse
from starlette.responses import StreamingResponse

from toolwire._json import dumps
from toolwire.emulator._http import JSON_MEDIA, SSE_HEADERS
from toolwire.emulator._http import json_response as _json
from toolwire.emulator.auth import api_key
from toolwire.emulator.background import Background
from toolwire.emulator.config import EmulatorConfig
from toolwire.emulator.faults import FAULT_HEADER, Faults, parse_faults
from toolwire.emulator.profiles import profile_auth_error, profile_key, vertex_decorate
from toolwire.emulator.routes import RequestIds, routes
from toolwire.emulator.service import Emulator, Failure, Success
from toolwire.emulator.streaming import (
    MALFORMED,
    StreamCut,
    stream_chunks,
    streamed_response,
)
from toolwire.emulator.wording import auth_error, error_body, fault_error, not_found
from toolwire.errors import PayloadError, ToolwireError
from toolwire.formats._stream import BINARY_FORMATS, WireEvent
from toolwire.formats.bedrock_converse._stream_frames import CONTENT_TYPE as EVENT_STREAM
from toolwire.hop._models import COUNT_BODIES
from toolwire.ir import Format
from toolwire.store import (
    MemoryStore,
    ResponseRecord,
    Store,
    StoreError,
    list_page,
    open_store,
    page_query,
)
from toolwire.store.background import STORE_REQUIRED, is_background, stream_query

__all__ = ["COUNT_BODIES", "create_app"]


class _CutResponse(HTTPResponse):
    """Announces the full body length, sends half of it, then drops the connection."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        await send(
            {"type": "http.response.body", "body": self.body[: len(self.body) // 2], "more_body": True}
        )
        raise StreamCut("disconnect fault")


class _Handler:
    """Per-app request handling: auth, faults, the emulator core, transport."""

    def __init__(self, config: EmulatorConfig) -> None:
        self.config = config
        self.core = Emulator(config)
        self.base_faults = parse_faults(config.faults)
        self._store: Store | None = None
        self._opening = asyncio.Lock()
        self.background = Background()

    async def store(self) -> Store:
        """The Responses store, opened on first use (see :mod:`toolwire.store.responses`)."""
        async with self._opening:
            if self._store is None:
                memory = self.config.store.strip().lower() == "memory://"
                bounded = MemoryStore(max_responses=self.config.store_size) if memory else None
                self._store = bounded or await open_store(self.config.store)
        return self._store

    async def close(self) -> None:
        """Stop background jobs, close the store (the app's lifespan ends)."""
        await self.background.aclose()
        if self._store is not None:
            await self._store.aclose()
            self._store = None

    async def previous(self, fmt: Format, body: bytes) -> ResponseRecord | None:
        """The kept record a Responses body's ``previous_response_id`` names, or ``None``."""
        key = self.core.previous_id(fmt, body)
        return await (await self.store()).get_response(key) if key is not None else None

    def faults(self, req: HTTPRequest) -> Faults:
        spec = req.headers.get(FAULT_HEADER)
        return self.base_faults.merged(parse_faults(spec)) if spec else self.base_faults

    async def gate(
        self, fmt: Format, req: HTTPRequest, *, wait: bool = True, profile: str | None = None
    ) -> tuple[Faults, HTTPResponse | None]:
        """Latency (unless ``wait`` is false: a background job waits it), auth (in ``profile``'s
        style when given, see :mod:`toolwire.emulator.profiles`) and injected error statuses: a
        response to send now, or None."""
        try:
            faults = self.faults(req)
        except ToolwireError as exc:
            return Faults(), _json(*error_body(fmt, 400, f"{FAULT_HEADER}: {exc.message}"))
        if faults.latency and wait:
            await asyncio.sleep(faults.latency)
        keys = self.config.api_keys
        if keys:
            given = profile_key(profile, req) if profile else api_key(fmt, req)
            if given not in keys:
                refusal = profile_auth_error(profile, fmt) if profile else auth_error(fmt, given or None)
                return faults, _json(*refusal)
        if faults.status is not None:
            headers = {"retry-after": f"{faults.retry_after:g}"} if faults.retry_after is not None else None
            return faults, _json(*fault_error(fmt, faults.status), headers=headers)
        return faults, None

    async def model_call(
        self,
        fmt: Format,
        req: HTTPRequest,
        *,
        model: str | None = None,
        stream: bool | None = None,
        sse: bool = True,
        profile: str | None = None,
        body: bytes | None = None,
    ) -> HTTPResponse:
        """Answer one model request in ``fmt`` (``profile``: the service's auth and extra fields;
        ``body``: the request body as ``fmt``'s own API takes it, when the route changed it)."""
        body = await req.body() if body is None else body
        if fmt == "openai-responses" and b'"background"' in body:
            wanted = self.core.parse(fmt, body)
            if isinstance(wanted, dict) and is_background(wanted):
                return await self._background(req, body, wanted)
        faults, early = await self.gate(fmt, req, profile=profile)
        if early is not None:
            return early
        beta = req.query_params.get("beta") == "true"
        try:
            previous = await self.previous(fmt, body)
            outcome = self.core.handle(fmt, body, model=model, beta=beta, previous=previous)
            if isinstance(outcome, Success) and outcome.record is not None:
                await (await self.store()).put_response(outcome.record)
        except StoreError as exc:
            return _json(*error_body(fmt, 500, f"The store failed: {exc.message}"))
        if isinstance(outcome, Failure):
            return _json(outcome.status, outcome.body, outcome.headers)
        streaming = outcome.stream if stream is None else stream
        decorate = _decorator(fmt, profile, outcome)
        if not streaming:
            payload = decorate(outcome.payload) if decorate is not None else outcome.payload
            if faults.disconnect:
                return _CutResponse(dumps(payload), media_type=JSON_MEDIA)
            if faults.malformed:
                return HTTPResponse(MALFORMED, media_type=JSON_MEDIA)
            return _json(200, payload)
        return self._stream(fmt, outcome, faults, sse=sse, decorate=decorate)

    async def _background(self, req: HTTPRequest, body: bytes, wanted: dict[str, Any]) -> HTTPResponse:
        """A ``background: true`` Responses request (:mod:`toolwire.emulator.background`)."""
        fmt: Format = "openai-responses"
        faults, early = await self.gate(fmt, req, wait=False)
        if early is not None:
            return early
        if wanted.get("store") is False:
            return _json(*error_body(fmt, 400, STORE_REQUIRED, param="background"))
        try:
            store = await self.store()
            outcome = self.core.handle(fmt, body, previous=await self.previous(fmt, body))
            if isinstance(outcome, Failure):
                return _json(outcome.status, outcome.body, outcome.headers)
            assert outcome.record is not None  # kept: store is not false
            chunks = None
            if outcome.stream:
                response = streamed_response(fmt, outcome.request, outcome.response)
                size = self.config.chunk_size
                chunks = list(stream_chunks(fmt, response, Faults(), chunk_size=size, request=outcome.body))
            queued = await self.background.create(store, outcome.record, chunks, faults.latency)
        except StoreError as exc:
            return _json(*error_body(fmt, 500, f"The store failed: {exc.message}"))
        if chunks is None:
            return _json(200, queued)
        follower = self.background.follow(store, outcome.record.id, None)
        return StreamingResponse(follower, media_type="text/event-stream", headers=SSE_HEADERS)

    async def cancel(self, req: HTTPRequest) -> HTTPResponse:
        """``POST /v1/responses/{id}/cancel``: a background response cancelled."""
        _, early = await self.gate("openai-responses", req)
        if early is not None:
            return early
        key = req.path_params["response_id"]
        try:
            store = await self.store()
            record = await store.get_response(key)
            if record is None:
                return _json(*not_found(f"Response with id '{key}' not found."))
            refused = self.background.refusal(record, stream=False)
            if refused is not None:
                return _json(*error_body("openai-responses", 400, refused))
            return _json(200, await self.background.cancel(store, record))
        except StoreError as exc:
            return _json(*error_body("openai-responses", 500, f"The store failed: {exc.message}"))

    async def count(
        self,
        fmt: Format,
        req: HTTPRequest,
        *,
        model: str | None = None,
        profile: str | None = None,
        body: bytes | None = None,
    ) -> HTTPResponse:
        """Answer a token-count request in ``fmt``'s shape (``profile``, ``body``: as for
        :meth:`model_call`)."""
        _, early = await self.gate(fmt, req, profile=profile)
        if early is not None:
            return early
        beta = req.query_params.get("beta") == "true"
        body = await req.body() if body is None else body
        try:
            previous = await self.previous(fmt, body)
        except StoreError as exc:
            return _json(*error_body(fmt, 500, f"The store failed: {exc.message}"))
        result = self.core.count_tokens(fmt, body, model=model, beta=beta, previous=previous)
        if isinstance(result, Failure):
            return _json(result.status, result.body)
        return _json(200, COUNT_BODIES[fmt](result, beta))

    async def compact(self, req: HTTPRequest) -> HTTPResponse:
        """``POST /v1/responses/compact``."""
        _, early = await self.gate("openai-responses", req)
        if early is not None:
            return early
        body = await req.body()
        result = self.core.compact(body, await self.previous("openai-responses", body))
        if isinstance(result, Failure):
            return _json(result.status, result.body)
        return _json(200, result)

    async def stored(self, req: HTTPRequest) -> HTTPResponse:
        """``GET``/``DELETE /v1/responses/{id}`` and ``GET /v1/responses/{id}/input_items``."""
        _, early = await self.gate("openai-responses", req)
        if early is not None:
            return early
        try:
            return await self._stored(req)
        except StoreError as exc:
            return _json(*error_body("openai-responses", 500, f"The store failed: {exc.message}"))

    async def _stored(self, req: HTTPRequest) -> HTTPResponse:
        key, listing = req.path_params["response_id"], req.url.path.endswith("/input_items")
        store = await self.store()
        record = await store.get_response(key)
        if record is None:
            return _json(*not_found(f"Response with id '{key}' not found."))
        if listing:
            try:
                query = page_query(req.query_params)
            except PayloadError as exc:
                return _json(*error_body("openai-responses", 400, exc.message, param=exc.path))
            page = list_page(record.input_items, after=query.after, limit=query.limit, order=query.order)
            return _json(200, page)
        if req.method == "GET" and req.query_params.get("stream", "").lower() == "true":
            return self._replay(store, record, req)
        if req.method == "DELETE" and not await self.background.delete(store, record):
            return _json(*not_found(f"Response with id '{key}' not found."))
        if req.method == "DELETE":
            return _json(200, {"id": key, "object": "response.deleted", "deleted": True})
        return _json(200, record.response)

    async def conversations(self, req: HTTPRequest) -> HTTPResponse:
        """The Conversations API, answered by the gateway's operations on the store."""
        from toolwire.hop._call import InboundRequest
        from toolwire.hop._conversations import drive_conversation
        from toolwire.hop._routes import match_inbound

        _, early = await self.gate("openai-responses", req)
        if early is not None:
            return early
        inbound = InboundRequest(req.method, req.url.path, req.url.query, dict(req.headers), await req.body())
        endpoint = match_inbound(inbound.method, inbound.path, inbound.headers)
        assert endpoint is not None  # the routes below are the inbound routes' conversation paths
        store = await self.store()

        async def call(step: Any) -> Any:
            return await getattr(store, step.method)(*step.args, **step.kwargs)

        reply = await drive_conversation(endpoint.operation, endpoint, inbound, call, time.time)
        return HTTPResponse(reply.body, status_code=reply.status, headers=reply.headers)

    def _replay(self, store: Store, record: ResponseRecord, req: HTTPRequest) -> HTTPResponse:
        """``GET /v1/responses/{id}?stream=true&starting_after=N``: a background stream's events."""
        try:
            _, after = stream_query(dict(req.query_params))
        except PayloadError as exc:
            return _json(*error_body("openai-responses", 400, exc.message, param=exc.path))
        refused = self.background.refusal(record, stream=True)
        if refused is not None:
            return _json(*error_body("openai-responses", 400, refused, param="stream"))
        follower = self.background.follow(store, record.id, after)
        return StreamingResponse(follower, media_type="text/event-stream", headers=SSE_HEADERS)

    def _stream(
        self, fmt: Format, outcome: Success, faults: Faults, *, sse: bool, decorate: Decorate | None = None
    ) -> HTTPResponse:
        response = streamed_response(fmt, outcome.request, outcome.response)
        chunks = stream_chunks(
            fmt,
            response,
            faults,
            chunk_size=self.config.chunk_size,
            sse=sse,
            request=outcome.body,
            decorate=decorate,
        )

        async def body() -> AsyncIterator[bytes]:
            for chunk in chunks:
                yield chunk

        if fmt in BINARY_FORMATS:
            return StreamingResponse(body(), media_type=EVENT_STREAM)
        media = "text/event-stream" if sse else JSON_MEDIA
        return StreamingResponse(body(), media_type=media, headers=SSE_HEADERS if sse else None)


Decorate = Callable[[WireEvent], WireEvent]


def _decorator(fmt: Format, profile: str | None, outcome: Success) -> Decorate | None:
    """What the profile adds to each answer of ``fmt`` (Vertex's Gemini fields), or ``None``."""
    if profile != "vertex" or fmt != "gemini":
        return None
    created = float(outcome.response.created or time.time())
    return lambda event: vertex_decorate(event, created)


def create_app(config: EmulatorConfig | None = None) -> Starlette:
    """The emulator as an ASGI app (serve it with uvicorn, or in-process with :func:`serve`)."""
    cfg = config or EmulatorConfig()
    handler = _Handler(cfg)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await handler.store()  # a store that cannot be opened stops the server at startup
        try:
            yield
        finally:
            await handler.close()

    return Starlette(routes=routes(handler, cfg), middleware=[Middleware(RequestIds)], lifespan=lifespan)
