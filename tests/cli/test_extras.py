"""``toolwire._extras``: which extra to name, and the error that names it."""

from __future__ import annotations

import pytest

import toolwire
from toolwire._extras import EXTRAS, extra_for, require
from toolwire.errors import MissingDependencyError, ToolDefinitionError, ToolwireError
from toolwire.pytools import tool_from_function
from toolwire.pytools._pydantic import PydanticMissingError


def test_each_import_names_its_extra_and_several_name_the_bundle() -> None:
    assert EXTRAS == {
        "httpx": "client",
        "anyio": "client",
        "tenacity": "client",
        "starlette": "server",
        "uvicorn": "server",
        "yaml": "server",
        "pydantic": "models",
        "opentelemetry": "otel",
        "redis": "redis",
        "google": "vertex",
        "requests": "vertex",
        "botocore": "bedrock",
    }
    assert extra_for(("google.auth", "requests")) == "vertex"
    assert extra_for(("botocore.session",)) == "bedrock"
    assert extra_for(("httpx", "tenacity")) == "client"
    assert extra_for(("redis.asyncio",)) == "redis"
    assert extra_for(("redis", "httpx")) == "all"
    assert extra_for(("starlette", "uvicorn")) == "server"
    assert extra_for(("httpx", "tenacity", "starlette", "uvicorn", "pydantic")) == "cli"
    assert extra_for(("httpx", "opentelemetry.trace")) == "all"


def test_require_names_the_extra_covering_every_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "uvicorn", None)  # as if not installed
    require("'toolwire x'", "httpx")  # installed: no error
    with pytest.raises(MissingDependencyError) as caught:
        require("'toolwire demo'", "httpx", "uvicorn", "pydantic")
    error = caught.value
    assert str(error) == "'toolwire demo' needs the cli extra: pip install 'toolwire[cli]'"
    assert (error.feature, error.extra, error.missing, error.name) == (
        "'toolwire demo'",
        "cli",
        ("uvicorn",),
        "uvicorn",
    )
    assert isinstance(error, ImportError) and isinstance(error, ToolwireError)
    assert toolwire.MissingDependencyError is MissingDependencyError


def test_missing_pydantic_is_both_a_missing_extra_and_a_tool_definition_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "pydantic", None)

    def f(x: int) -> None: ...

    with pytest.raises(PydanticMissingError) as caught:
        tool_from_function(f)
    assert isinstance(caught.value, ToolDefinitionError) and isinstance(caught.value, MissingDependencyError)
    assert caught.value.extra == "models"
