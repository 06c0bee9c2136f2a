"""The real-client request corpus (``tests/data/real_clients``): what each pinned CLI sent.

Written by the e2e tests when ``TOOLWIRE_E2E_RECORD=1`` (``make e2e-record``), one directory per
client and version, one per scenario, one JSON file per request in arrival order::

    tests/data/real_clients/claude-code-2.1.332/thinking/01.json

Each file holds ``format`` and ``beta`` (what the emulator decoded it as), ``method``, ``path``,
``query``, ``headers`` (credentials replaced by ``<redacted>``), ``status`` and ``body``. The
run's temporary directories become ``$WORKDIR``/``$HOME`` and the server's address
``127.0.0.1:PORT``, so nothing machine-specific is kept. The clients' own prose (system prompts,
instructions, tool and schema descriptions, reminders: any string over :data:`PROSE_LIMIT`
characters under a key of :data:`PROSE_KEYS`) is not ours to copy: it becomes
``<client prose: N chars>``, which keeps every structure the validator looks at.
``tests/validate/test_real_client_corpus.py`` checks that every request validates clean.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from tests.e2e._capture import Captured

__all__ = [
    "CORPUS_DIR",
    "PROSE_KEYS",
    "PROSE_LIMIT",
    "RECORD_ENV",
    "format_of",
    "model_requests",
    "problems",
    "record",
]

CORPUS_DIR = Path(__file__).resolve().parents[1] / "data" / "real_clients"
RECORD_ENV = "TOOLWIRE_E2E_RECORD"

_FORMATS: dict[str, str] = {
    "/v1/responses": "openai-responses",
    "/v1/chat/completions": "openai-chat",
    "/v1/messages": "anthropic",
}
"""Model-request path -> the format its body is in."""


def format_of(request: Captured) -> tuple[str | None, bool]:
    """The format of a captured request (None for non-model calls) and whether it is Anthropic beta."""
    return _FORMATS.get(request.path), "beta=true" in request.query


PROSE_KEYS: frozenset[str] = frozenset({"text", "description", "instructions", "content", "system"})
"""Keys whose long string values are the clients' prose (replaced in the corpus)."""

PROSE_LIMIT = 160
"""Strings longer than this under :data:`PROSE_KEYS` are replaced."""


def _strip_prose(value: Any, key: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: _strip_prose(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_strip_prose(v, key) for v in value]
    if isinstance(value, str) and key in PROSE_KEYS and len(value) > PROSE_LIMIT:
        return f"<client prose: {len(value)} chars>"
    return value


def _scrub(text: str, replacements: dict[str, str]) -> str:
    for old, new in sorted(replacements.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(old, new)
    return text


def record(
    requests: list[Captured], client: str, version: str, scenario: str, replacements: dict[str, str]
) -> Path | None:
    """Write ``requests`` as the corpus of ``scenario`` when recording is on; the directory written."""
    if os.environ.get(RECORD_ENV) != "1":
        return None
    target = CORPUS_DIR / f"{client}-{version}" / scenario
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for index, request in enumerate(requests, 1):
        fmt, beta = format_of(request)
        entry: dict[str, Any] = {"format": fmt, "beta": beta, **request.as_json()}
        entry["body"] = _strip_prose(entry["body"])
        text = json.dumps(entry, indent=1, ensure_ascii=False, sort_keys=False)
        (target / f"{index:02d}.json").write_text(_scrub(text, replacements) + "\n", encoding="utf-8")
    return target


def model_requests(requests: list[Captured]) -> list[Captured]:
    """The model calls among ``requests`` (chat, responses, messages), in order."""
    return [r for r in requests if format_of(r)[0] is not None]


def problems(request: Captured) -> list[str]:
    """What :func:`toolwire.validate.validate` reports on a captured model request (errors only)."""
    from toolwire.validate import validate

    fmt, beta = format_of(request)
    assert fmt is not None, request.path
    return [f"{p.path}: {p.message}" for p in validate(request.body, format=fmt, kind="request", beta=beta)]
