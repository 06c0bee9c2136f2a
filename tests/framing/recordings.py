"""Real recorded stream bodies from the shared fixture corpus, as raw bytes.

The fixture directory is ``$TOOLWIRE_FIXTURES`` or ``tests/data/fixtures``; when it is
missing every loader returns an empty list (the tests that need recordings then skip).
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests import data


@dataclass(frozen=True)
class Recording:
    """One raw stream body: ``id`` names the file (and interaction), ``provider`` its folder."""

    id: str
    provider: str
    raw: bytes


def fixtures_dir() -> Path | None:
    """The fixture directory (see :mod:`tests.data`), or ``None`` when it is not there."""
    path = data.fixtures_dir()
    return path if path.is_dir() else None


def _provider(path: Path, root: Path) -> str:
    return path.relative_to(root).parts[1]


def _raw_sse_files(root: Path) -> list[Recording]:
    paths = sorted(root.glob("**/*.sse")) + sorted(
        root.glob("firebase-vertexai-sdk-test-data/*/streaming-*.txt")
    )
    return [Recording(str(p.relative_to(root)), _provider(p, root), p.read_bytes()) for p in paths]


def _body(response: dict[str, Any]) -> bytes | None:
    """The raw response body of a VCR interaction (gunzipped), or ``None``."""
    body = (response.get("body") or {}).get("string")
    if body is None:
        return None
    if isinstance(body, str):
        return body.encode()
    headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
    if "gzip" in "".join(headers.get("content-encoding") or []):
        return gzip.decompress(body)
    return bytes(body)


@cache
def _cassette_bodies() -> tuple[tuple[str, str, str, bytes], ...]:
    """(id, provider, kind, body) of streamed cassette responses; kind is "sse", "json-array" or
    "aws" (AWS event-stream binary)."""
    root = fixtures_dir()
    try:
        import yaml
    except ImportError:  # pragma: no cover - PyYAML is a dev dependency
        return ()
    if root is None:
        return ()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = []
    for path in sorted(root.glob("**/*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "event-stream" not in text and "streamGenerateContent" not in text and "eventstream" not in text:
            continue
        for i, item in enumerate(yaml.load(text, Loader=loader).get("interactions") or []):
            response, uri = item.get("response") or {}, item.get("request", {}).get("uri", "")
            headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
            ctype = "".join(headers.get("content-type") or [])
            kind = "sse" if "event-stream" in ctype else "aws" if "amazon.eventstream" in ctype else ""
            if not kind and "streamGenerateContent" in uri and "alt=sse" not in uri:
                kind = "json-array"
            body = _body(response) if kind else None
            if body:
                out.append((f"{path.relative_to(root)}#{i}", _provider(path, root), kind, body))
    return tuple(out)


@cache
def sse_recordings() -> tuple[Recording, ...]:
    """Raw SSE files plus the SSE bodies of VCR cassettes."""
    root = fixtures_dir()
    if root is None:
        return ()
    cassettes = [Recording(i, p, b) for i, p, kind, b in _cassette_bodies() if kind == "sse"]
    return tuple(_raw_sse_files(root) + cassettes)


@cache
def json_array_recordings() -> tuple[Recording, ...]:
    """Gemini ``streamGenerateContent`` bodies recorded without ``alt=sse`` (JSON arrays)."""
    return tuple(Recording(i, p, b) for i, p, kind, b in _cassette_bodies() if kind == "json-array")


@cache
def ndjson_recordings() -> tuple[Recording, ...]:
    """JSONL chunk files (one JSON value per line)."""
    root = fixtures_dir()
    if root is None:
        return ()
    paths = sorted(root.glob("**/*.chunks.txt"))
    return tuple(Recording(str(p.relative_to(root)), _provider(p, root), p.read_bytes()) for p in paths)


@cache
def eventstream_recordings() -> tuple[Recording, ...]:
    """Bedrock ``converse-stream`` bodies: AWS event-stream binary."""
    return tuple(Recording(i, p, b) for i, p, kind, b in _cassette_bodies() if kind == "aws")
