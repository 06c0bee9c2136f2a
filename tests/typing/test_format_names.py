"""At run time the ``Literal`` names agree with the tables, and unknown names fail with a suggestion."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any, get_args

import pytest

import toolwire
from toolwire.client import PROVIDERS, Client, ProviderName
from toolwire.errors import ToolwireError
from toolwire.ir.base import FORMAT_ALIASES, FORMATS, Format, FormatAlias, FormatName
from toolwire.translate import FORMAT_CHOICES, resolve_format

ANTHROPIC_REQUEST = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}


def test_literals_match_the_tables() -> None:
    assert get_args(Format) == FORMATS
    assert get_args(FormatAlias) == tuple(FORMAT_ALIASES)
    assert get_args(FormatName) == FORMAT_CHOICES == (*FORMATS, *FORMAT_ALIASES)
    assert get_args(ProviderName) == tuple(PROVIDERS)
    assert toolwire.FormatName is FormatName


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("antropic", "unknown format 'antropic' (did you mean 'anthropic'?); expected one of "),
        ("openai_chat", "unknown format 'openai_chat' (did you mean 'openai-chat'?); "),
        ("Gemini", "unknown format 'Gemini' (did you mean 'gemini'?); "),
        ("cluade", "unknown format 'cluade' (did you mean 'claude'?); "),
        ("mistral", "unknown format 'mistral'; expected one of openai-chat, openai-responses, anthropic, "),
    ],
)
def test_unknown_format_suggests_the_closest_name(name: str, message: str) -> None:
    with pytest.raises(ToolwireError) as info:
        resolve_format(name)
    assert str(info.value).startswith(message)
    with pytest.raises(ToolwireError) as info:
        toolwire.translate_request(ANTHROPIC_REQUEST, source=name, target="gemini")  # type: ignore[arg-type]
    assert str(info.value).startswith(message)


def test_unknown_provider_suggests_the_closest_name() -> None:
    with pytest.raises(ToolwireError, match=r"^unknown provider 'antropic' \(did you mean 'anthropic'\?\); "):
        Client("antropic")  # type: ignore[arg-type]
    with pytest.raises(ToolwireError, match=r"^unknown provider 'azure' \(did you mean 'azure-openai'\?\); "):
        Client("azure")  # type: ignore[arg-type]


def test_validate_takes_aliases_and_suggests() -> None:
    missing = {"model": "m", "messages": []}
    assert toolwire.validate(missing, format="claude") == toolwire.validate(missing, format="anthropic") != []
    with pytest.raises(ValueError, match=r"^unknown format 'antropic' \(did you mean 'anthropic'\?\); "):
        toolwire.validate(missing, format="antropic")  # type: ignore[arg-type]


def test_import_toolwire_stays_light() -> None:
    """The ``TYPE_CHECKING`` imports cost nothing at run time: the shells still load on first use."""
    heavy = ("httpx", "pydantic", "asyncio", "starlette", "uvicorn", "anyio", "toolwire.client")
    code = (
        "import sys, toolwire\n"
        f"print([m for m in {heavy!r} if m in sys.modules])\n"
        "toolwire.Client\n"
        "print('httpx' in sys.modules, toolwire.validate.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "True toolwire.validate"]


CHAT_RESPONSE = {
    "id": "x",
    "object": "chat.completion",
    "created": 1,
    "model": "m",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
}
ENTRY_POINTS = [
    (toolwire.translate_request, ANTHROPIC_REQUEST, "anthropic"),
    (toolwire.translate_response, CHAT_RESPONSE, "openai-chat"),
    (toolwire.translate_request_bytes, json.dumps(ANTHROPIC_REQUEST).encode(), "anthropic"),
    (toolwire.translate_response_bytes, json.dumps(CHAT_RESPONSE).encode(), "openai-chat"),
]


@pytest.mark.parametrize(
    ("bad", "shown"), [(["anthropic"], "list: ['anthropic']"), ({"a": 1}, "dict: {'a': 1}"), (3, "int: 3")]
)
@pytest.mark.parametrize("side", ["source", "target"])
@pytest.mark.parametrize(("translate", "payload", "source"), ENTRY_POINTS)
def test_a_format_name_of_another_type_is_refused_by_name(
    translate: Any, payload: Any, source: str, side: str, bad: object, shown: str
) -> None:
    """A format name that is no string (unhashable ones included) raises ToolwireError saying so,
    from every entry point, a pair lane's or not; never a bare TypeError."""
    names = {"source": source, "target": "gemini", side: bad}
    with pytest.raises(ToolwireError, match=rf"^a format name is a string, not {re.escape(shown)}$"):
        translate(payload, policy="drop", **names)
