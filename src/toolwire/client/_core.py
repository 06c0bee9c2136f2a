"""The client's logic without I/O, shared by :class:`Client` and :class:`AsyncClient`.

``prepare`` turns an IR request or a native payload of any format into an :class:`HTTPRequest`
(translating with an :class:`~toolwire.translate.Exchange` when needed, building, validating);
``result``/``error``/``session`` turn the answer into a :class:`Result`, a typed error, or a
:class:`StreamSession`. The attempt policy is written once, as flows of steps (:mod:`._steps`):
``create_steps`` and ``open_steps`` send, ask ``auth_refresh`` for a new key once per call after
a 401, raise the typed error of a non-2xx answer, and read a stream until its first event. The
clients only drive them: they perform each step on httpx and send the result back.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Generator, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from toolwire._google_auth import GoogleCredentials, TokenSource
from toolwire._json import dumps_str, loads
from toolwire._logging import TRACE
from toolwire.client._bodies import deadline_after
from toolwire.client._build import BuildContext, HTTPRequest, auth_headers, build_http_request
from toolwire.client._errors import map_http_error, redact, request_id
from toolwire.client._options import DEFAULT_OPTIONS, Options, ResponsesOptions, Timeouts
from toolwire.client._preflight import preflight
from toolwire.client._providers import (
    ProviderName,
    ProviderSpec,
    check_key,
    get_spec,
    resolve_base_url,
    resolve_key,
)
from toolwire.client._result import Result
from toolwire.client._retry import RetryPolicy
from toolwire.client._session import IdleWatch, StreamSession, next_events
from toolwire.client._steps import (
    FETCH_TOKEN,
    READ_CHUNK,
    REFRESH_KEY,
    Answer,
    Opened,
    ReadBody,
    Send,
    Step,
    StreamEnd,
)
from toolwire.errors import PayloadError, ProviderError, ToolwireError
from toolwire.hooks import CallInfo, ConversionInfo, Observer, emit
from toolwire.hop._aws import AwsAuth, bedrock_base_url
from toolwire.hop._layouts import layout_params
from toolwire.hop._prefixes import resolve_target
from toolwire.ir.base import Format
from toolwire.ir.notes import Note, Notes, Policy
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.ir.stream import StreamEvent
from toolwire.translate import Exchange, chat_dialect, format_module, resolve_format

__all__ = ["TRACE", "Call", "ClientCore"]

_log = logging.getLogger("toolwire.client")
_SECRET_HEADERS = frozenset(
    {
        "authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "proxy-authorization",
        "x-amz-security-token",
    }
)


@dataclass(slots=True)
class Call:
    """One logical call (all its attempts): the request and what is needed to read the answer."""

    http: HTTPRequest
    notes: Notes
    exchange: Exchange | None = None
    attempts: int = 0
    refreshed: bool = False
    info: CallInfo | None = None


class ClientCore:
    """Provider configuration and the sans-IO steps of a call."""

    def __init__(
        self,
        provider: ProviderName | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        model: str | None = None,
        options: Options | None = None,
        headers: Mapping[str, str] | None = None,
        timeouts: Timeouts | None = None,
        retry: RetryPolicy | None = None,
        policy: Policy = "warn",
        validate: bool = True,
        env: Mapping[str, str] | None = None,
        observer: Observer | None = None,
        project: str | None = None,
        location: str | None = None,
        credentials: TokenSource | None = None,
    ) -> None:
        name, model = resolve_target(provider, model)
        self.spec: ProviderSpec = get_spec(name)
        self.format: Format = self.spec.format
        environ = os.environ if env is None else env
        given = {"project": project, "location": location}
        self.params = layout_params(self.spec.layout, given, environ, source=f"provider {name!r}")
        self.api_key = resolve_key(self.spec, api_key, env)
        self.aws: AwsAuth | None = None
        if self.spec.name == "bedrock":  # region-based address; SigV4 unless a Bedrock API key is set
            base_url = base_url or bedrock_base_url(env)
            self.aws = None if self.api_key else AwsAuth(env)
        self.base_url = resolve_base_url(self.spec, base_url, env, self.params)
        self.tokens = self._token_source(credentials)
        self.model = model
        self.options: Options = options if options is not None else DEFAULT_OPTIONS[self.format]
        self.headers = {k.lower(): v for k, v in (headers or {}).items()}
        self.timeouts = timeouts or Timeouts()
        self.retry = retry or RetryPolicy()
        self.policy: Policy = policy
        self.validate = validate
        self.observer = observer

    def _token_source(self, credentials: TokenSource | None) -> TokenSource | None:
        """Where bearer tokens come from: ``credentials``, else Google's ADC for a Google provider
        given no key (``None``: the API key is the credential)."""
        if self.spec.credentials != "google":
            if credentials is not None:
                raise ToolwireError(f"provider {self.spec.name!r} takes an API key, not credentials=")
            return None
        if self.api_key is not None and credentials is None:
            return None  # a token given as the key (``gcloud auth print-access-token``)
        return credentials if credentials is not None else GoogleCredentials()

    def refresh_token(self) -> None:
        """Take the token source's token as the key: the one it holds while valid, else a
        refreshed one (which may block)."""
        if self.tokens is not None:
            value = self.tokens.current() or self.tokens.token()
            self.api_key = check_key(value, "the access token")

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values never to be shown in logs or error messages."""
        aws = self.aws.secrets() if self.aws is not None else ()
        return ((self.api_key,) if self.api_key else ()) + aws

    def set_api_key(self, key: str | None) -> None:
        """Replace the API key (after an auth refresh); checked like a key given at construction.

        Raises:
            ToolwireError: the key holds a control or non-ASCII character.
        """
        key = check_key(key, "the refreshed API key")
        if key:
            self.api_key = key

    # -- building ---------------------------------------------------------------------------

    def _body(
        self, request: Request | dict[str, Any], source: str | None, notes: Notes
    ) -> tuple[dict[str, Any], Exchange | None, str | None]:
        """The body in the provider's format, the exchange used, and the model."""
        if isinstance(request, Request):
            dialect = chat_dialect(self.format, self.spec.dialect)
            body: dict[str, Any] = format_module(self.format).encode_request(request, notes, **dialect)
            return body, None, request.model or self.model
        if not isinstance(request, dict):
            raise PayloadError(f"expected an ir.Request or a payload dict, got {type(request).__name__}")
        fmt = resolve_format(source) if source is not None else self.format
        if fmt == self.format:
            return request, None, self.model
        exchange = Exchange(
            fmt, self.format, policy=self.policy, client_model=self.model, upstream_dialect=self.spec.dialect
        )
        body = exchange.request(request)
        notes.items.extend(exchange.notes)
        return body, exchange, exchange.client_model or self.model

    def prepare(
        self,
        request: Request | dict[str, Any],
        *,
        stream: bool,
        source: str | None = None,
        options: Options | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Call:
        """Build, validate and log the HTTP request for ``request``."""
        notes = Notes(self.policy)
        started = time.time_ns()
        body, exchange, model = self._body(request, source, notes)
        if exchange is not None or isinstance(request, Request):
            self._converted(exchange.client if exchange else "ir", self.format, "request", notes, started)
        opts = options if options is not None else self.options
        extra = {**self.headers, **{k.lower(): v for k, v in (headers or {}).items()}}
        ctx = BuildContext(self.spec, self.base_url, opts, stream, notes, model, extra, self.params)
        http = build_http_request(body, ctx)
        if self.validate:
            body_to_check = dict(http.format_body if http.format_body is not None else http.body)
            if self.format not in ("gemini", "bedrock-converse") and http.model is not None:
                body_to_check.setdefault("model", http.model)
            required = isinstance(opts, ResponsesOptions) and opts.require_instructions
            preflight(body_to_check, self.format, require_instructions=required)
        call = Call(http, notes, exchange)
        if self.observer is not None:
            call.info = CallInfo(self.spec.name, self.format, http.model, stream, http.url, source, started)
            emit(self.observer, "on_request", call.info)
        return call

    def request_headers(self, call: Call) -> dict[str, str]:
        """The headers of the next attempt, credentials included."""
        if self.aws is not None:
            signed = self.aws.headers(call.http.method, call.http.url, call.http.headers, self.content(call))
            return {**call.http.headers, **signed}
        return {**call.http.headers, **auth_headers(self.spec, self.api_key)}

    def content(self, call: Call) -> bytes:
        """The request body bytes."""
        return dumps_str(call.http.body).encode()

    def log_request(self, call: Call, headers: Mapping[str, str]) -> None:
        """Log the request at TRACE level with credentials redacted."""
        if not _log.isEnabledFor(TRACE):
            return
        shown = {k: "[REDACTED]" if k.lower() in _SECRET_HEADERS else v for k, v in headers.items()}
        text = f"{call.http.method} {call.http.url} headers={shown} body={dumps_str(call.http.body)}"
        _log.log(TRACE, "%s", redact(text, self.secrets))

    # -- answers ----------------------------------------------------------------------------

    def error(self, status: int, headers: Mapping[str, str], body: bytes) -> ProviderError:
        """The typed error for a non-2xx answer."""
        exc = map_http_error(self.format, status, headers, body, self.secrets)
        _log.debug("HTTP %d %s (request id %s)", status, type(exc).__name__, exc.request_id)
        return exc

    def result(self, call: Call, status: int, headers: Mapping[str, str], body: bytes) -> Result:
        """The :class:`Result` of a successful answer."""
        _log.debug("HTTP %d (request id %s, attempt %d)", status, request_id(headers), call.attempts)
        raw = loads(body)
        if not isinstance(raw, dict):
            raise PayloadError("the response body is not a JSON object")
        started, seen = time.time_ns(), len(call.notes)
        dialect = chat_dialect(self.format, self.spec.dialect)
        ir: Response = format_module(self.format).decode_response(raw, call.notes, **dialect)
        if call.exchange is not None:
            ir = call.exchange.restore_response(ir)
        self._converted(self.format, "ir", "response", call.notes.items[seen:], started)
        self.ended(call, ir)
        return Result(
            response=ir,
            raw=raw,
            request_body=call.http.body,
            status=status,
            headers=dict(headers),
            request_id=request_id(headers),
            notes=list(call.notes.items),
            attempts=call.attempts,
            exchange=call.exchange,
        )

    # -- observing --------------------------------------------------------------------------

    def _converted(
        self,
        source: str,
        target: str,
        kind: Literal["request", "response"],
        notes: Iterable[Note],
        started: int,
    ) -> None:
        if self.observer is not None:
            info = ConversionInfo(source, target, kind, tuple(notes), started, time.time_ns())
            emit(self.observer, "on_conversion", info)

    def ended(self, call: Call, response: Response | None, error: BaseException | None = None) -> None:
        """Report the end of ``call`` to the observer: its response, or the error that ended it."""
        if call.info is None:
            return
        if error is not None:
            emit(self.observer, "on_error", call.info, error)
        elif response is not None:
            emit(self.observer, "on_response", call.info, response)

    @contextmanager
    def observing(self, call: Call) -> Iterator[None]:
        """Report an exception leaving the block as the end of ``call`` (then re-raise it)."""
        try:
            yield
        except BaseException as exc:
            self.ended(call, None, exc)
            raise

    def session(self, call: Call, headers: Mapping[str, str]) -> StreamSession:
        """A :class:`StreamSession` for a streamed answer with these headers."""
        content_type = headers.get("content-type", "")
        json_array = self.format == "gemini" and "event-stream" not in content_type
        return StreamSession(
            self.format,
            call.notes,
            headers,
            json_array=json_array,
            exchange=call.exchange,
            secrets=self.secrets,
            dialect=self.spec.dialect,
        )

    def stream_end(self, call: Call) -> StreamEnd | None:
        """What a stream of ``call`` reports its end to (``None``: there is no observer)."""
        return None if call.info is None else functools.partial(self.ended, call)

    # -- one attempt, as steps the clients drive ----------------------------------------------

    def create_steps(self, call: Call, *, refresh: bool) -> Generator[Step, Any, Result]:
        """One attempt of a whole answer: :meth:`attempt_steps`, then the body, complete within
        ``Timeouts.total``, becomes the :class:`Result`.

        Args:
            call: the call (its ``attempts`` count goes up).
            refresh: the driver has an ``auth_refresh`` hook (it performs :class:`RefreshKey`).
        """
        deadline = deadline_after(self.timeouts.total)
        answer = yield from self.attempt_steps(call, deadline, refresh=refresh)
        body: bytes = yield ReadBody(deadline)
        return self.result(call, answer.status, answer.headers, body)

    def open_steps(self, call: Call, *, refresh: bool) -> Generator[Step, Any, Opened]:
        """One attempt of a stream: :meth:`attempt_steps`, then chunks until the first event
        (or the end of the stream), so a failure before it can still be retried."""
        answer = yield from self.attempt_steps(call, deadline_after(self.timeouts.total), refresh=refresh)
        session = self.session(call, answer.headers)
        idle = IdleWatch(self.timeouts.idle)
        first: list[StreamEvent] = []
        while not first and not session.finished:
            first = next_events(session, idle, (yield READ_CHUNK))
        return Opened(session, first, idle, self.stream_end(call))

    def attempt_steps(
        self, call: Call, deadline: float | None, *, refresh: bool
    ) -> Generator[Step, Any, Answer]:
        """Send ``call`` once; after a 401, ask for a new key and send again (once per call, and
        only when ``refresh``); the answer, once it is 2xx.

        Raises:
            ProviderError: the answer is not 2xx (the subclass for its status; the error body
                read before ``deadline``, at most ``MAX_ERROR_BODY`` bytes of it).
        """
        call.attempts += 1
        answer = yield from self._send_steps(call)
        if answer.status == 401 and refresh and not call.refreshed:
            call.refreshed = True
            self.set_api_key((yield REFRESH_KEY))
            answer = yield from self._send_steps(call)
        if answer.status >= 300:
            body: bytes = yield ReadBody(deadline, error=True)
            raise self.error(answer.status, answer.headers, body)
        return answer

    def _send_steps(self, call: Call) -> Generator[Step, Any, Answer]:
        """Credentials (a token fetched by the driver when the one held expired), the TRACE
        log line, the send."""
        if self.tokens is not None and self.tokens.current() is None:
            yield FETCH_TOKEN
        else:
            self.refresh_token()
        headers = self.request_headers(call)
        self.log_request(call, headers)
        http = call.http
        answer: Answer = yield Send(http.method, http.url, headers, self.content(call), http.stream)
        return answer
