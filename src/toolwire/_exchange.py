"""The :class:`Exchange`: one request/response round trip between a client format and an upstream
format (public as :class:`toolwire.translate.Exchange`).

It remembers what the response needs to be mapped back (sanitized tool names, custom and
namespaced tools the upstream lacks, the client's model name), and gives upstream calls without
ids ids unique across turns (see ``_shims``, ``_pairing`` and ``_restore``: what a stateless
gateway needs so that a multi-turn tool loop survives the hop).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolwire._codecs import chat_dialect, format_module, recorder, replace, resolve_format
from toolwire._notepaths import in_user_coordinates
from toolwire._opaque_state import StreamState, keep_state, keeps_state, recall_state
from toolwire._pairing import fill_result_ids, order_results, restore_history_ids
from toolwire._renaming import rename_request
from toolwire._restore import Restorer
from toolwire._shims import ToolShims
from toolwire._survey import Survey, survey
from toolwire.formats._sendable import refuse_unsendable_request
from toolwire.ir.base import FormatName
from toolwire.ir.notes import Note, Notes, Policy
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.names import NameMap
from toolwire.opaque import apply_fallbacks, ask_for_state, open_request, seal_response

if TYPE_CHECKING:
    from toolwire.formats._stream import WireEvent
    from toolwire.hop._call import ClientCall, InboundRequest, UpstreamCall
    from toolwire.hop._options import Options
    from toolwire.streaming import StreamTranslator

__all__ = ["Exchange"]


@dataclass
class Exchange:
    """One request/response round trip between a client format and an upstream format.

    Example:
        >>> ex = Exchange("openai-chat", "anthropic")
        >>> upstream_body = ex.request(chat_request)            # doctest: +SKIP
        >>> chat_response = ex.response(anthropic_response)     # doctest: +SKIP

    Attributes:
        client: the format the client speaks.
        upstream: the format the upstream provider speaks.
        policy: conversion policy.
        upstream_model: replaces the model name sent upstream, when set.
        client_model: the client's model name (learned from the request, or given for
            formats that carry it in the URL); responses report it back.
        notes: every note of this exchange, requests and responses, mapped to the client's and
            the upstream's payloads as each call returns, whatever the policy (the one-shot
            :func:`translate_request` / :func:`translate_response` put that off under ``drop``).
        state: the store hook for opaque reasoning state a client format has no slot for
            (Chat): a mapping the caller keeps between turns (see :mod:`toolwire._opaque_state`);
            ``None`` (default): the upstream's documented fallback applies instead, noted.
        clock: the time (unix seconds) for timestamps the translation writes when the upstream
            reports none (Chat ``created``, Responses ``created_at``).
        client_stream: whether the client asked for a stream (set by :meth:`request`).
        client_json_array: the client (Gemini, without ``alt=sse``) wants a stream as a JSON
            array (set by :meth:`request_http`).
        client_usage: a Chat client's stream ends with a usage chunk (``choices: []``) only when
            it asked with ``stream_options.include_usage`` (set by :meth:`request`; other
            clients' streams carry usage in their own events).
        last_response: the last non-streamed response translated, in IR (its usage, stop reason).
        client_dialect: a Chat client's provider dialect (its requests may use that provider's
            forms; see :mod:`toolwire.formats.openai_chat.dialects`).
        upstream_dialect: a Chat upstream's provider dialect: requests are fitted to it, and
            the reasoning it answers with goes back only to it.
    """

    client: FormatName
    upstream: FormatName
    policy: Policy = "warn"
    upstream_model: str | None = None
    client_model: str | None = None
    sanitize_names: bool = True
    notes: list[Note] = field(default_factory=list)
    state: MutableMapping[str, str] | None = None
    last_request: Request | None = None
    last_response: Response | None = None
    clock: Callable[[], float] = time.time
    client_stream: bool = False
    client_json_array: bool = False
    client_usage: bool = True
    client_dialect: str | None = None
    upstream_dialect: str | None = None
    _names: NameMap | None = None
    _stream: StreamTranslator | None = None
    _shims: ToolShims | None = None
    _inbound: ClientCall | None = None
    _stream_state: StreamState | None = None

    def __post_init__(self) -> None:
        self.client = resolve_format(self.client)
        self.upstream = resolve_format(self.upstream)
        chat_dialect(self.client, self.client_dialect)  # checked now, not on the first request
        chat_dialect(self.upstream, self.upstream_dialect)
        self._names = NameMap(resolve_format(self.upstream)) if self.sanitize_names else None

    def request(
        self, payload: dict[str, Any], *, stream: bool | None = None, model: str | None = None
    ) -> dict[str, Any]:
        """Translate a client request payload into the upstream payload.

        Envelopes of opaque reasoning state the client echoed are opened (and replayed only to
        their origin); where state is missing, the upstream's documented fallback applies, noted.

        Args:
            payload: the client's request body.
            stream: the client's stream flag when it is not in the body (Gemini's URL);
                ``None``: the body's.
            model: the client's model when it is not in the body (Gemini's URL).
        """
        out, notes = self._request(payload, stream=stream, model=model)
        self.notes.extend(in_user_coordinates(notes.items, payload, out))
        return out

    def _request(
        self, payload: dict[str, Any], *, stream: bool | None = None, model: str | None = None
    ) -> tuple[dict[str, Any], Notes]:
        """:meth:`request` without adding to :attr:`notes`: the upstream payload and the
        request's collector, its notes not mapped yet under ``drop`` (what
        :func:`translate_request` needs to map them only when they are read)."""
        notes = Notes(self.policy)
        if model is not None:
            self.client_model = model
        module = format_module(self.client)
        ir: Request = module.decode_request(
            payload, notes, model=self.client_model, **chat_dialect(self.client, self.client_dialect)
        )
        notes.decoded(payload, self.client, self.upstream, recorder(module, "request", payload, ir))
        if stream is not None and ir.stream != stream:
            ir = replace(ir, stream=stream)
        self.client_stream = bool(ir.stream)
        options = payload.get("stream_options") if self.client == "openai-chat" else None
        self.client_usage = isinstance(options, dict) and options.get("include_usage") is True
        if ir.model is not None:
            self.client_model = ir.model
        if self.state is not None:
            ir = recall_state(ir, self.state)  # keyed by the call ids the client saw: before _hop_request
        if self.client != self.upstream:
            found = survey(ir.messages)  # one walk: the passes below skip what cannot change
            if found.reasoning:
                opened = open_request(ir, notes)
                if opened is not ir:  # an envelope may hold any part: look again
                    ir, found = opened, survey(opened.messages)
            ir, names = self._hop_request(ir, notes, found)
            if self._names is not None:
                ir = rename_request(ir, self._names.to_target, notes, names)
        else:
            ir = open_request(ir, notes)
        if self.upstream_model is not None:
            ir = replace(ir, model=self.upstream_model)
        ir = apply_fallbacks(ir, self.upstream, notes)  # type: ignore[arg-type]
        self.last_request = ir
        out: dict[str, Any] = format_module(self.upstream).encode_request(
            ir, notes, **chat_dialect(self.upstream, self.upstream_dialect)
        )
        if self.client != self.upstream:
            refuse_unsendable_request(out, ir, self.upstream)
        if self.upstream == "openai-responses" and self.client != self.upstream:
            ask_for_state(out, ir, notes)
        return out, notes

    def response(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Translate an upstream response payload into the client's format.

        The upstream's opaque reasoning state is sealed into the slot the client echoes
        (:mod:`toolwire.opaque`); :meth:`request` opens it again on the next turn.
        """
        notes = Notes(self.policy)
        module = format_module(self.upstream)
        ir: Response = module.decode_response(
            payload, notes, **chat_dialect(self.upstream, self.upstream_dialect)
        )
        notes.decoded(payload, self.upstream, self.client, recorder(module, "response", payload, ir))
        ir = self.restore_response(ir, payload, notes)
        self.last_response = ir
        if ir.created is None:
            ir = replace(ir, created=int(self.clock()))
        out: dict[str, Any] = format_module(self.client).encode_response(
            seal_response(ir, self.client),  # type: ignore[arg-type]
            notes,
        )
        if self.state is not None:
            keep_state(ir, out, self.client, self.state)  # type: ignore[arg-type]
        self.notes.extend(in_user_coordinates(notes.items, payload, out))
        return out

    def stream(self, event: WireEvent) -> list[WireEvent]:
        """Translate one upstream stream event into the client's stream events.

        Call :meth:`stream_close` when the upstream stream ends: it flushes, or reports a stream
        that ended without its terminal event in the client's own error shape.
        """
        return self._stream_translator().feed(event)

    def keep_stream_state(self, call_id: str) -> None:
        """Record the streamed response's opaque state in :attr:`state` under ``call_id`` (the
        first call id the client's stream showed); nothing when no state is kept."""
        if self._stream_state is not None and self.state is not None:
            self._stream_state.keep(call_id, self.state)

    def stream_close(self) -> list[WireEvent]:
        """End of the upstream stream: the client's closing events."""
        translator = self._stream_translator()
        out = translator.close()
        self.notes.extend(translator.notes.items)
        return out

    def stream_frames(self, event: WireEvent) -> bytes:
        """:meth:`stream`, as the client's SSE bytes (the byte hot path for deltas, see
        :meth:`~toolwire.streaming.StreamTranslator.feed_frames`)."""
        return self._stream_translator().feed_frames(event)

    def stream_close_frames(self) -> bytes:
        """:meth:`stream_close`, as the client's SSE bytes."""
        translator = self._stream_translator()
        out = translator.close_frames()
        self.notes.extend(translator.notes.items)
        return out

    def _stream_translator(self) -> StreamTranslator:
        if self._stream is None:
            from toolwire.streaming import StreamTranslator

            model = self.client_model if self.upstream_model is not None else None
            restore = self._restorer() if self.client != self.upstream else None
            if self.state is not None and keeps_state(self.client, self.upstream):  # type: ignore[arg-type]
                self._stream_state = StreamState()
            self._stream = StreamTranslator(
                self.upstream,
                self.client,
                policy=self.policy,
                model=model,
                restore=restore,
                seal=True,
                clock=self.clock,
                observer=self._stream_state,
                source_dialect=self.upstream_dialect,
            )
            encoder = self._stream._encoder
            if hasattr(encoder, "include_usage"):  # Chat: only when the client asked (see client_usage)
                encoder.include_usage = self.client_usage
        return self._stream

    def request_http(self, inbound: InboundRequest, *, options: Options | None = None) -> UpstreamCall:
        """The upstream call for the client's HTTP request: its body translated (:meth:`request`),
        with the model and stream flag its URL carries (Gemini) and the headers it keeps.

        Args:
            inbound: the client's request (method, path, query, headers, body bytes).
            options: the upstream's request options (default: ``toolwire.hop.HOP_OPTIONS``).

        Raises:
            PayloadError: the body is not a JSON object, or does not decode.
        """
        from toolwire.hop._call import read_inbound

        payload, call = read_inbound(self.client, inbound)  # type: ignore[arg-type]
        return self.request_read(payload, call, options=options)

    def request_read(
        self, payload: dict[str, Any], call: ClientCall, *, options: Options | None = None
    ) -> UpstreamCall:
        """:meth:`request_http` for a request already read (``toolwire.hop.read_inbound``):
        the client's body, and what its URL and headers add."""
        self._inbound = call
        self.client_json_array = call.json_array
        body = self.request(payload, stream=call.stream, model=call.model)
        return self.upstream_call(body, options=options)

    def upstream_call(self, body: dict[str, Any], *, options: Options | None = None) -> UpstreamCall:
        """The upstream call for ``body``, the result of :meth:`request`: path, headers (no
        credentials) and body bytes; it streams when the client asked for a stream."""
        from toolwire.hop._call import upstream_call

        model = self.last_request.model if self.last_request is not None else self.client_model
        inbound = self._inbound if self.client == self.upstream else None
        notes = Notes(self.policy)
        call = upstream_call(
            self.upstream,  # type: ignore[arg-type]
            body,
            stream=self.client_stream,
            model=model,
            inbound=inbound,
            options=options,
            notes=notes,
            dialect=self.upstream_dialect,
        )
        self.notes.extend(notes.items)
        return call

    def error(self, status: int, body: bytes | str) -> tuple[int, dict[str, Any]]:
        """The client's status and error body for the upstream's error answer (tool names the
        request renamed are named as the client knows them)."""
        from toolwire.hop._errors import translate_error

        notes = Notes(self.policy)
        out = translate_error(
            self.upstream,  # type: ignore[arg-type]
            self.client,  # type: ignore[arg-type]
            status,
            body,
            restore=self._restore_text(),
            notes=notes,
        )
        self.notes.extend(notes.items)
        return out

    def translate_stream(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """The client's stream bytes for the upstream's streamed body (see
        ``toolwire.hop.StreamRelay``: malformed bytes end it with the client's error event,
        keep-alives are kept, a Gemini client without ``alt=sse`` gets a JSON array)."""
        from toolwire.hop._relay import relay_stream

        return relay_stream(self, chunks)

    def _restore_text(self) -> Callable[[str], str] | None:
        renamed = self._names.renamed if self._names is not None and self.client != self.upstream else {}
        if not renamed:
            return None
        pairs = sorted(((new, old) for old, new in renamed.items()), key=lambda p: -len(p[0]))

        def restore(text: str) -> str:
            for new, old in pairs:
                text = text.replace(new, old)
            return text

        return restore

    def _hop_request(
        self, ir: Request, notes: Notes, found: Survey
    ) -> tuple[Request, dict[str, None] | None]:
        """The client's history in the upstream's terms: ids we escaped restored, tools the
        upstream lacks approximated (remembered for the way back), Gemini results in call order.

        Returns the request, and the tool names its history uses in order of first use
        (``found.names``), or ``None`` when a pass changed names or their order."""
        if self.client in ("anthropic", "bedrock-converse"):  # ids we escaped for them come back
            if found.escaped:
                ir = restore_history_ids(ir)
        elif self.client == "gemini" and found.idless:
            ir = fill_result_ids(ir)
        named = ir.messages  # the passes above change ids only
        shims = ToolShims(self.upstream)  # type: ignore[arg-type]
        touched = (found.spaced and shims.flatten) or (found.custom and shims.custom)
        ir = shims.request(ir, notes, touched=touched)
        self._shims = shims if shims.active else None
        if self.upstream == "gemini" and found.parallel:  # results need ordering after two calls or more
            ir = order_results(ir, notes)
        return ir, found.names if ir.messages is named else None

    def _restorer(self) -> Restorer:
        names = self._names if self._names is not None and self._names.renamed else None
        return Restorer(self.client, names, self._shims)

    def restore_response(self, ir: Response, payload: Any = None, notes: Notes | None = None) -> Response:
        """Map upstream tool calls (names, kinds, namespaces, ids) and the model name back to what
        the client knows.

        Args:
            ir: the decoded upstream response.
            payload: the upstream body ``ir`` was decoded from; with it, calls without an id
                (Gemini) get one derived from the response id, or from a hash of ``payload``.
            notes: where restoring notes go (a silent collector when ``None``).
        """
        if self.client != self.upstream:  # a same-format hop renames nothing (see request)
            ir = self._restorer().response(ir, payload, notes if notes is not None else Notes("drop"))
        if self.client_model is not None and self.upstream_model is not None:
            ir = replace(ir, model=self.client_model)
        return ir
