"""Logging as a library citizen: silent by default, ``TOOLWIRE_LOG`` for debugging, keys never logged.

Each case runs a fresh interpreter, so the logging module is in its default state
(:data:`logging.lastResort` prints WARNING and above to stderr when no handler is found).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

KEY = "sk-live-citizen-0123456789"

LOSSY = textwrap.dedent(
    """
    import toolwire
    from toolwire.translate import translate_request
    chat = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "seed": 1}
    t = translate_request(chat, source="openai-chat", target="anthropic")
    print(len(t.notes))
    """
)
"""A Chat -> Anthropic conversion under the default ``warn`` policy: two notes (max_tokens, seed)."""


def python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TOOLWIRE_LOG")}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**clean, **env}
    )


def test_lossy_conversion_is_silent_by_default() -> None:
    out = python(LOSSY)
    assert out.stdout.strip() == "2"
    assert out.stderr == ""


def test_null_handler_keeps_warnings_off_stderr() -> None:
    """A WARNING on a toolwire logger reaches no stderr once toolwire is imported (and does without it)."""
    code = 'import logging\n{}logging.getLogger("toolwire.client").warning("visible?")'
    assert "visible?" in python(code.format("")).stderr  # the control: lastResort prints it
    out = python(code.format("import toolwire\n"))
    assert out.stderr == ""
    handlers = python("import logging, toolwire\nprint(logging.getLogger('toolwire').handlers)").stdout
    assert "NullHandler" in handlers


def test_toolwire_log_info_prints_the_notes() -> None:
    err = python(LOSSY, TOOLWIRE_LOG="info").stderr.splitlines()
    assert len(err) == 1  # the losses; the made-up max_tokens is no loss (in the notes, not logged)
    assert " INFO toolwire.convert: " in err[0]
    assert err[0].endswith("$.seed: dropped: field 'seed' has no equivalent in the target format")


def test_toolwire_log_json_and_warning_level() -> None:
    lines = python(LOSSY, TOOLWIRE_LOG="DEBUG", TOOLWIRE_LOG_FORMAT="json").stderr.splitlines()
    records = [json.loads(line) for line in lines]
    assert [(r["level"], r["logger"]) for r in records] == [("INFO", "toolwire.convert")]
    assert records[0]["message"].startswith("$.seed: dropped: ")
    assert set(records[0]) == {"time", "level", "logger", "message"}
    # above INFO, the notes are not shown
    assert python(LOSSY, TOOLWIRE_LOG="warning").stderr == ""


def test_unknown_toolwire_log_value_warns_and_adds_nothing() -> None:
    out = python(
        "import logging, toolwire\nprint(len(logging.getLogger('toolwire').handlers))", TOOLWIRE_LOG="loud"
    )
    assert out.stdout.strip() == "1"  # the NullHandler only
    assert "RuntimeWarning: TOOLWIRE_LOG='loud' ignored" in out.stderr


def test_toolwire_log_trace_shows_requests_never_keys() -> None:
    """A real call to the emulator (which checks the key) with every request logged: the key stays out."""
    code = textwrap.dedent(
        f"""
        from toolwire.client import Client
        from toolwire.emulator import EmulatorConfig, create_app, serve
        with serve(create_app(EmulatorConfig(api_keys=({KEY!r},))), log_level="critical") as url:
            for provider in ("openai-chat", "anthropic", "gemini", "openai-responses"):
                with Client(provider, base_url=url, api_key={KEY!r}, model="m") as client:
                    client.create({{"model": "m", "messages": [{{"role": "user", "content": "hi"}}]}},
                                  format="openai-chat")
        """
    )
    err = python(code, TOOLWIRE_LOG="trace").stderr
    traced = [line for line in err.splitlines() if " TRACE toolwire.client: POST " in line]
    assert len(traced) == 4
    assert "[REDACTED]" in traced[0]
    assert KEY not in err
