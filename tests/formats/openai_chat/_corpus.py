"""Corpus access for the Chat codec tests.

Uses ``tests.corpus`` (the shared corpus API). Until that module exists, a minimal
stand-in reads the ``openai-chat`` fixtures named in MANIFEST.json itself (JSON bodies
and VCR cassettes; streams are not needed here).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import gzip
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from tests.corpus import samples
except ImportError:  # pragma: no cover - replaced by tests.corpus once it exists
    import yaml

    @dataclass(frozen=True)
    class _Sample:
        id: str
        format: str
        kind: str
        payload: Any
        status: int | None
        path: Path

    def _root() -> Path:
        env = os.environ.get("TOOLWIRE_FIXTURES")
        return Path(env) if env else Path(__file__).resolve().parents[3].parent / "shared" / "fixtures"

    def _body(value: Any) -> Any:
        if isinstance(value, (dict, list)) or value is None:
            return value
        if isinstance(value, bytes):
            with contextlib.suppress(OSError):
                value = gzip.decompress(value)
            value = value.decode()
        try:
            return json.loads(value)
        except ValueError:
            return value

    def _response_body(response: dict[str, Any]) -> Any:
        if "parsed_body" in response:
            return response["parsed_body"]
        body = response.get("body")
        if isinstance(body, dict):
            raw = body.get("string")
            if isinstance(raw, str) and body.get("encoding") == "base64":
                raw = base64.b64decode(raw)
            return _body(raw)
        return _body(response.get("content"))

    def _cassette(path: Path, rel: str) -> list[_Sample]:
        out = []
        for index, exchange in enumerate(yaml.safe_load(path.read_text())["interactions"]):
            request = exchange["request"]
            body = _body(request.get("parsed_body", request.get("body")))
            if isinstance(body, dict):
                out.append(_Sample(f"{rel}#{index}/request", "openai-chat", "request", body, None, path))
            status = exchange["response"].get("status", {}).get("code")
            body = _response_body(exchange["response"])
            if isinstance(body, dict):
                kind = "error" if (status or 0) >= 400 or "error" in body else "response"
                out.append(_Sample(f"{rel}#{index}/{kind}", "openai-chat", kind, body, status, path))
        return out

    @functools.cache
    def _all() -> tuple[_Sample, ...]:
        root = _root()
        found: list[_Sample] = []
        for entry in json.loads((root / "MANIFEST.json").read_text()):
            if entry["provider_format"] != "openai-chat":
                continue
            path = root / entry["file"]
            if path.suffix == ".yaml":
                found.extend(_cassette(path, entry["file"]))
            elif path.suffix == ".json":
                body = json.loads(path.read_text())
                found.append(
                    _Sample(
                        entry["file"],
                        "openai-chat",
                        "error" if "error" in body else "response",
                        body,
                        None,
                        path,
                    )
                )
        return tuple(found)

    def samples(format: str | None = None, kind: str | None = None) -> list[Any]:
        return [s for s in _all() if (format in (None, s.format)) and (kind in (None, s.kind))]


__all__ = ["samples"]
