"""Corpus access for the Gemini codec tests.

Uses ``tests.corpus`` (the shared corpus API) when it exists. Until then a minimal
stand-in reads the Gemini fixtures named in MANIFEST.json itself: unary JSON bodies and
the ``generateContent`` exchanges of VCR cassettes (streams are not needed here).
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from tests.corpus import samples
except ImportError:  # pragma: no cover - replaced by tests.corpus once it exists
    import yaml

    _FORMATS = ("gemini", "gemini-developer-api", "gemini-vertex")
    _MODEL = re.compile(r"/models/([^/:?]+):(\w+)")

    @dataclass(frozen=True)
    class _Sample:
        id: str
        format: str
        kind: str
        payload: Any
        status: int | None
        path: Path
        url: str | None = None
        model: str | None = None

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
            uri = request.get("uri", "")
            found = _MODEL.search(uri)
            if found is None:
                continue
            model, method = found.groups()
            status = exchange["response"].get("status", {}).get("code")
            stream = method == "streamGenerateContent"
            body = _body(request.get("parsed_body", request.get("body")))
            if isinstance(body, dict) and method in ("generateContent", "streamGenerateContent"):
                out.append(
                    _Sample(f"{rel}#{index}/request", "gemini", "request", body, None, path, uri, model)
                )
            body = _response_body(exchange["response"])
            if (status or 0) >= 400 or (isinstance(body, dict) and "error" in body):
                out.append(_Sample(f"{rel}#{index}/error", "gemini", "error", body, status, path, uri, model))
            elif isinstance(body, dict) and not stream:
                out.append(
                    _Sample(f"{rel}#{index}/response", "gemini", "response", body, status, path, uri, model)
                )
        return out

    def samples(format: str | None = None, kind: str | None = None) -> list[Any]:
        root = _root()
        found: list[_Sample] = []
        for entry in json.loads((root / "MANIFEST.json").read_text()):
            if entry["provider_format"] not in _FORMATS:
                continue
            path = root / entry["file"]
            if path.suffix == ".yaml":
                found.extend(_cassette(path, entry["file"]))
            elif path.suffix == ".json":
                body = json.loads(path.read_text())
                is_error = isinstance(body, list) or "error" in body
                status = body["error"].get("code") if isinstance(body, dict) and is_error else None
                kind_ = "error" if is_error else "response"
                found.append(_Sample(entry["file"], "gemini", kind_, body, status, path))
        return [s for s in found if (format in (None, s.format)) and (kind in (None, s.kind))]


__all__ = ["samples"]
