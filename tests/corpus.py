"""Recorded provider payloads from the shared fixture corpus, as test samples.

The fixture directory is ``$TOOLWIRE_FIXTURES`` or the repository's ``tests/data/fixtures``. Its
``MANIFEST.json`` lists every file with its provider format and file format; this module turns
VCR cassettes, inline request/response snapshots, JSON bodies, JSONL chunk files and raw SSE text
into :class:`Sample` objects of four kinds: ``request``, ``response``, ``error`` and ``stream``.

Only the generation endpoints of the supported formats are kept (Chat Completions,
Responses, Messages, generateContent/streamGenerateContent, Bedrock Converse/ConverseStream; a
ConverseStream body is AWS event-stream binary: its frames become stream items named by their
``:event-type`` header, each with its JSON payload). A cassette interaction is classified
by its endpoint, so a call to OpenAI recorded inside an Anthropic test counts as OpenAI.

Chat Completions samples carry their ``dialect`` (a key of
:data:`toolwire.formats.openai_chat.dialects.DIALECTS`): ``openai`` for OpenAI's own API, else the
OpenAI-compatible provider that answered (Mistral, DeepSeek, Groq, OpenRouter, xAI, Ollama), known
by the request URL's host or, for bare bodies, by the file name; recordings of servers without a
dialect row (Gemini's OpenAI-compatible endpoint, test doubles) are ignored like other endpoints.
:func:`samples` returns OpenAI's own by default; ``dialect=`` names one dialect or
:data:`ANY_DIALECT`.

Samples are cached and shared between tests: treat payloads as read-only.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from tests import data
from toolwire.formats.openai_chat.dialects import dialect_for_url

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse")
KINDS = ("request", "response", "error", "stream")
NATIVE = "openai"
"""The dialect of OpenAI's own Chat Completions recordings (what :func:`samples` returns by default)."""
ANY_DIALECT = "*"
"""``samples(dialect=ANY_DIALECT)``: Chat samples of every dialect."""


def _has_stream_codec(fmt: str) -> bool:
    from importlib.util import find_spec

    return find_spec(f"toolwire.formats.{fmt.replace('-', '_')}.stream") is not None


NON_STREAMING = {
    fmt: "no ConverseStream codec yet (AWS event-stream framing and stream codec: wt/bedrockwire)"
    for fmt in FORMATS
    if not _has_stream_codec(fmt)
}
"""Formats without a stream codec (yet), and why: the streaming matrices leave them out."""

STREAM_FORMATS = tuple(fmt for fmt in FORMATS if fmt not in NON_STREAMING)
"""The formats the streaming matrices run (every format with a stream codec)."""

# Fixture folder (provider_format in MANIFEST.json) -> sample format; other folders are skipped.
_FOLDER_FORMAT = {
    **{f: f for f in FORMATS},
    "gemini-developer-api": "gemini",
    "gemini-vertex": "gemini",
    "mistral": "openai-chat",
    "openai-chat-compatible": "openai-chat",
    "ollama-openai-compat": "openai-chat",
}
# Folders of OpenAI-compatible recordings: bare bodies (no URL) get their dialect from the folder,
# else from the start of the file name; a body of no known dialect is ignored.
_FOLDER_DIALECT = {"openai-chat": NATIVE, "mistral": "mistral", "ollama-openai-compat": "ollama"}
_FILE_DIALECT = (("deepseek-", "deepseek"), ("groq-", "groq"), ("xai-", "xai"), ("openrouter-", "openrouter"))

# Generation endpoints (URL without query) -> format. Anything else in a cassette is ignored.
_OPENAI_HOST = r"https://(?:api\.openai\.com|[\w-]+\.openai\.azure\.com)/(?:openai/)?v1"
_COMPATIBLE = re.compile(r"https?://[^/]+(?:/[\w.-]+)*/chat/completions")  # servers with a dialect row
_ENDPOINTS = (
    (re.compile(_OPENAI_HOST + r"/chat/completions"), "openai-chat"),
    (_COMPATIBLE, "openai-chat"),
    (re.compile(_OPENAI_HOST + r"/responses"), "openai-responses"),
    (re.compile(r"https://api\.anthropic\.com/v1/messages"), "anthropic"),
    (
        re.compile(
            r"https://(?:[\w-]+\.)?(?:generativelanguage|aiplatform)\.googleapis\.com/.*"
            r"models/[^/:]+:(?:stream)?[gG]enerateContent"
        ),
        "gemini",
    ),
    (
        re.compile(r"https://bedrock-runtime\.[\w-]+\.amazonaws\.com/model/[^/]+/converse(?:-stream)?"),
        "bedrock-converse",
    ),
)
_URL_MODEL = re.compile(r"models/([^/:?]+):|/model/([^/]+)/converse")
_ERROR_KEYS = frozenset({"error", "type", "request_id"})
_SSE_FIELD = re.compile(r"(?:data|event|id|retry)?:")
# A non-error response body must carry one of these keys to count as a generation response.
_RESPONSE_KEYS = {
    "openai-chat": frozenset({"choices"}),
    "openai-responses": frozenset({"output"}),
    "anthropic": frozenset({"content"}),
    "gemini": frozenset({"candidates", "promptFeedback"}),
    "bedrock-converse": frozenset({"output"}),
}


@dataclass(frozen=True)
class StreamItem:
    """One stream event: the SSE ``event`` name (None when absent) and its parsed JSON data."""

    event: str | None
    data: dict[str, Any] | str


@dataclass(frozen=True)
class Sample:
    """One recorded payload: a request body, a response or error body, or a stream of events."""

    id: str
    format: str
    kind: str
    payload: Any  # dict for request/response/error, list[StreamItem] for stream
    status: int | None
    url: str | None
    path: Path
    model: str | None
    raw: str | None = None
    dialect: str | None = None  # Chat samples: the provider dialect (see the module docstring)


@dataclass(frozen=True)
class _Exchange:
    """A request/response pair normalized from any recording layout."""

    method: str
    url: str
    request: Any  # parsed JSON (dict) or raw text or None
    status: int | None
    content_type: str
    response: Any  # parsed JSON, raw text, or None


def fixtures_dir() -> Path | None:
    """The fixture directory (see :mod:`tests.data`), or None when it does not exist."""
    path = data.fixtures_dir()
    return path if path.is_dir() else None


def samples(format: str | None = None, kind: str | None = None, dialect: str = NATIVE) -> list[Sample]:
    """Corpus samples, optionally filtered by format and kind ([] when there is no corpus).

    ``dialect``: Chat samples of that dialect only (other formats have none, so are left out
    unless it is :data:`NATIVE`, the default, or :data:`ANY_DIALECT`).
    """
    return [
        s
        for s in _load()[0]
        if (format is None or s.format == format)
        and (kind is None or s.kind == kind)
        and (dialect == ANY_DIALECT or (s.dialect or NATIVE) == dialect)
    ]


def skipped() -> list[tuple[str, str]]:
    """(file or sample id, reason) for recordings of kept formats that could not be turned into samples."""
    return list(_load()[1])


def require_corpus() -> None:
    """Skip the calling test when the fixture corpus is not available."""
    if not _load()[0]:
        import pytest

        pytest.skip("fixture corpus not found (set TOOLWIRE_FIXTURES or restore tests/data/fixtures)")


def params(format: str | None = None, kind: str | None = None, dialect: str = NATIVE) -> list[Any]:
    """``pytest.param`` per sample (id = sample id) for parametrize; one skipped param if none."""
    import pytest

    found = samples(format, kind, dialect)
    if not found:
        reason = f"no corpus samples for format={format} kind={kind} (fixture corpus missing?)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="no-corpus")]
    return [pytest.param(s, id=s.id) for s in found]


# --- loading ---------------------------------------------------------------------------------


@cache
def _load() -> tuple[tuple[Sample, ...], tuple[tuple[str, str], ...]]:
    root = fixtures_dir()
    if root is None or not (root / "MANIFEST.json").is_file():
        return (), ()
    out: list[Sample] = []
    bad: list[tuple[str, str]] = []
    for entry in json.loads((root / "MANIFEST.json").read_text(encoding="utf-8")):
        folder = entry.get("provider_format", "")
        fmt = _FOLDER_FORMAT.get(folder)
        if fmt is None:
            continue
        loader = _file_loader(entry.get("format", ""))
        rel = entry["file"]
        if loader is None:
            bad.append((rel, f"unknown file format {entry.get('format')!r}"))
            continue
        try:
            found = list(loader(root / rel, rel, fmt, bad))
        except Exception as exc:  # a broken file is reported by skipped(), not fatal
            bad.append((rel, f"{type(exc).__name__}: {exc}"))
            continue
        out.extend(_with_dialect(found, folder, rel, bad))
    return tuple(out), tuple(bad)


def _file_dialect(folder: str, rel: str) -> str | None:
    """The dialect of a bare Chat body (no request URL) in ``folder``, or None when unknown."""
    if folder in _FOLDER_DIALECT:
        return _FOLDER_DIALECT[folder]
    name = rel.rsplit("/", 1)[-1]
    return next((dialect for prefix, dialect in _FILE_DIALECT if name.startswith(prefix)), None)


def _url_dialect(url: str) -> str | None:
    """The dialect of a recorded request URL (OpenAI's own hosts, Azure's too: ``openai``)."""
    if re.match(_OPENAI_HOST, url):
        return NATIVE
    found = dialect_for_url(url)
    return found.name if found is not None else None


def _with_dialect(found: list[Sample], folder: str, rel: str, bad: list[tuple[str, str]]) -> Iterator[Sample]:
    """``found`` with the dialect of each Chat sample: by its URL's host, else by its file."""
    for sample in found:
        if sample.format != "openai-chat":
            yield sample
            continue
        dialect = _file_dialect(folder, rel) if sample.url is None else _url_dialect(sample.url)
        if dialect is None:  # a server without a dialect row: ignored, like any other endpoint
            continue
        yield replace(sample, dialect=dialect)


_Loader = Callable[[Path, str, str, list[tuple[str, str]]], Iterator[Sample]]


def _file_loader(file_format: str) -> _Loader | None:
    for prefix, loader in _FILE_LOADERS:
        if file_format.startswith(prefix):
            return loader
    return None


def _load_cassette(path: Path, rel: str, fmt: str, bad: list[tuple[str, str]]) -> Iterator[Sample]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    doc = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    for i, item in enumerate(doc.get("interactions") or []):
        yield from _exchange_samples(_from_vcr(item), path, f"{rel}#{i}", bad)


def _load_snapshot(path: Path, rel: str, fmt: str, bad: list[tuple[str, str]]) -> Iterator[Sample]:
    for i, item in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        req, resp = item["request"], item["response"]
        exchange = _Exchange(
            method=str(req.get("method", "")).upper(),
            url=req.get("url", ""),
            request=req.get("body"),
            status=resp.get("status_code"),
            content_type=_header(resp.get("headers"), "content-type"),
            response=resp.get("body"),
        )
        yield from _exchange_samples(exchange, path, f"{rel}#{i}", bad)


def _load_body(path: Path, rel: str, fmt: str, bad: list[tuple[str, str]]) -> Iterator[Sample]:
    """A standalone JSON body, JSON-array stream, or raw SSE text (sniffed from the content)."""
    text = path.read_text(encoding="utf-8")
    yield from _response_samples(fmt, None, "", text, _Where(path, rel, None, None, whole_file=True), bad)


def _load_jsonl(path: Path, rel: str, fmt: str, bad: list[tuple[str, str]]) -> Iterator[Sample]:
    text = path.read_text(encoding="utf-8")
    items = [StreamItem(None, _chunk(json.loads(line))) for line in text.splitlines() if line.strip()]
    yield Sample(rel, fmt, "stream", items, None, None, path, None, text)


_FILE_LOADERS: tuple[tuple[str, _Loader], ...] = (
    ("VCR cassette", _load_cassette),
    ("JSON list of {request,response}", _load_snapshot),
    ("JSON response body", _load_body),
    ("JSONL chunks", _load_jsonl),
    ("raw SSE text", _load_body),
)


# --- cassette interactions -------------------------------------------------------------------


def _from_vcr(item: dict[str, Any]) -> _Exchange:
    req, resp = item.get("request") or {}, item.get("response") or {}
    status = resp.get("status")
    code = status.get("code") if isinstance(status, dict) else resp.get("status_code")
    return _Exchange(
        method=str(req.get("method", "")).upper(),
        url=str(req.get("uri", "")),
        request=req["parsed_body"] if "parsed_body" in req else _text(req.get("body")),
        status=code if isinstance(code, int) else None,
        content_type=_header(resp.get("headers"), "content-type"),
        response=_vcr_response_body(resp),
    )


def _vcr_response_body(resp: dict[str, Any]) -> Any:
    if "parsed_body" in resp:
        return resp["parsed_body"]
    if "content" in resp:
        return _text(resp["content"])
    body = resp.get("body")
    raw = body.get("string") if isinstance(body, dict) else body
    if isinstance(raw, bytes) and "eventstream" in _header(resp.get("headers"), "content-type"):
        return _event_stream(raw)
    return _text(raw)


def _event_stream(data: bytes) -> list[dict[str, Any]] | str:
    """AWS event-stream frames (prelude: total and header lengths, CRC; headers; payload; CRC) as
    ``{":event-type": name, **payload}`` objects; test-side only, the CRCs are not checked."""
    out: list[dict[str, Any]] = []
    pos = 0
    while pos + 12 <= len(data):
        total = int.from_bytes(data[pos : pos + 4], "big")
        header_len = int.from_bytes(data[pos + 4 : pos + 8], "big")
        headers, at = {}, pos + 12
        while at < pos + 12 + header_len:
            name_len = data[at]
            name = data[at + 1 : at + 1 + name_len].decode()
            at += 1 + name_len
            kind = data[at]
            at += 1
            if kind != 7:  # only string headers appear in Bedrock streams
                return f"event-stream header {name!r} of type {kind}"
            size = int.from_bytes(data[at : at + 2], "big")
            headers[name] = data[at + 2 : at + 2 + size].decode()
            at += 2 + size
        payload = data[pos + 12 + header_len : pos + total - 4]
        value = json.loads(payload) if payload else {}
        out.append({_EVENT_KEY: headers.get(":event-type") or headers.get(":exception-type"), **value})
        pos += total
    return out


_EVENT_KEY = ":event-type"


def _text(body: Any) -> str | None:
    """Body text: bytes are gunzipped when gzip-framed and decoded as UTF-8 (None if binary)."""
    if isinstance(body, str) or body is None:
        return body
    if isinstance(body, bytes | bytearray):
        data = gzip.decompress(body) if body[:2] == b"\x1f\x8b" else bytes(body)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


def _header(headers: Any, name: str) -> str:
    for key, value in (headers or {}).items():
        if key.lower() == name:
            return str(value[0] if isinstance(value, list) and value else value)
    return ""


def _endpoint_format(url: str) -> str | None:
    base = url.split("?", 1)[0]
    for pattern, fmt in _ENDPOINTS:
        if pattern.fullmatch(base):
            return fmt if pattern is not _COMPATIBLE or dialect_for_url(base) is not None else None
    return None


def _exchange_samples(ex: _Exchange, path: Path, base: str, bad: list[tuple[str, str]]) -> Iterator[Sample]:
    fmt = _endpoint_format(ex.url)
    if fmt is None or ex.method != "POST":
        return
    body = ex.request
    if isinstance(body, str):
        try:
            body = json.loads(body)
        except ValueError:
            bad.append((f"{base}/request", "request body is not JSON"))
    in_url = _URL_MODEL.search(ex.url)
    model = (
        unquote(in_url.group(1) or in_url.group(2))
        if in_url
        else body.get("model")
        if isinstance(body, dict)
        else None
    )
    model = model if isinstance(model, str) else None
    if isinstance(body, dict):
        raw = ex.request if isinstance(ex.request, str) else None
        yield Sample(f"{base}/request", fmt, "request", body, None, ex.url, path, model, raw)
    where = _Where(path, base, ex.url, model)
    yield from _response_samples(fmt, ex.status, ex.content_type, ex.response, where, bad)


# --- response bodies ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Where:
    """Where a response body came from: file, id base, request URL and model."""

    path: Path
    base: str
    url: str | None
    model: str | None
    whole_file: bool = False  # the file is this one body: its id is the bare relative path


def _response_samples(
    fmt: str, status: int | None, content_type: str, body: Any, where: _Where, bad: list[tuple[str, str]]
) -> Iterator[Sample]:
    """The sample for one response body (parsed JSON or text), or a ``bad`` entry saying why not."""
    classified = _classify(fmt, status, content_type, body)
    if isinstance(classified, str):
        bad.append((where.base if where.whole_file else f"{where.base}/response", classified))
        return
    kind, payload = classified
    model = where.model
    if model is None and isinstance(payload, dict):
        found = payload.get("model", payload.get("modelVersion"))
        model = found if isinstance(found, str) else None
    sample_id = where.base if where.whole_file else f"{where.base}/{kind}"
    raw = body if isinstance(body, str) else None
    yield Sample(sample_id, fmt, kind, payload, status, where.url, where.path, model, raw)


def _classify(fmt: str, status: int | None, content_type: str, body: Any) -> tuple[str, Any] | str:
    """(kind, payload) of a response body, or the reason it is unusable."""
    failed = (status or 0) >= 400
    if isinstance(body, str):
        if "event-stream" in content_type or _looks_like_sse(body):
            items = _parse_sse(body)
            if failed or not items:
                return f"SSE body with status {status} and {len(items)} events"
            return "stream", items
        try:
            body = json.loads(body)
        except ValueError:
            return f"body is neither JSON nor SSE (status {status}, content-type {content_type!r})"
    if isinstance(body, list) and len(body) == 1 and _is_error(body[0]):
        body = body[0]
    if isinstance(body, list) and body and all(isinstance(x, dict) for x in body) and not failed:
        return "stream", [_stream_item(x) for x in body]
    if not isinstance(body, dict):
        return f"JSON body is a {type(body).__name__}, not an object (status {status})"
    if failed or _is_error(body):
        return "error", body
    if not body.keys() & _RESPONSE_KEYS[fmt]:
        return f"not a {fmt} generation response (keys: {', '.join(sorted(body)[:6])})"
    return "response", body


def _stream_item(item: dict[str, Any]) -> StreamItem:
    """A JSON-array element, or an event-stream frame (named by its ``:event-type``)."""
    if _EVENT_KEY in item:
        rest = {k: v for k, v in item.items() if k != _EVENT_KEY}
        return StreamItem(item[_EVENT_KEY], rest)
    return StreamItem(None, item)


def _is_error(body: Any) -> bool:
    """An error envelope: OpenAI/Gemini ``{"error": {...}}`` or Anthropic ``{"type": "error", ...}``."""
    return isinstance(body, dict) and isinstance(body.get("error"), dict) and body.keys() <= _ERROR_KEYS


def _looks_like_sse(text: str) -> bool:
    head = text.lstrip()
    return head.startswith(("data:", "event:", ":"))


def _chunk(value: Any) -> dict[str, Any] | str:
    return value if isinstance(value, dict) else json.dumps(value)


def _parse_sse(text: str) -> list[StreamItem]:
    """Minimal SSE parser: events are blocks split on blank lines; ``data:`` lines are joined.

    Lenient on purpose: field names may carry leading whitespace (a YAML-folding artifact in one
    cassette), and a block that is not SSE at all (Gemini appends a bare JSON error object to a
    failed stream) becomes an item without event name. JSON data is parsed; anything else (e.g.
    ``[DONE]``) is kept as text.
    """
    items: list[StreamItem] = []
    for block in re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n").replace("\r", "\n")):
        lines = [line.lstrip() for line in block.split("\n") if line.strip()]
        if not lines:
            continue
        if not _SSE_FIELD.match(lines[0]):
            items.append(StreamItem(None, _sse_data(block.strip())))
            continue
        event: str | None = None
        data: list[str] = []
        for line in lines:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
        if data:
            items.append(StreamItem(event, _sse_data("\n".join(data))))
    return items


def _sse_data(text: str) -> dict[str, Any] | str:
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, dict) else text
