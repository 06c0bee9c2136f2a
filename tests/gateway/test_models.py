"""``/v1/models`` and ``/v1beta/models`` through the gateway: each family's shape, names from the
routes or, with none, from the upstream's own list."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from toolwire.emulator import EmulatorConfig, serve
from toolwire.gateway import HopConfig, Route, create_app

MODELS = ("alpha-1", "beta-2")


@pytest.fixture(scope="module")
def emulator() -> Iterator[str]:
    with serve(config=EmulatorConfig(models=MODELS)) as url:
        yield url


@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-chat", "openai-responses"])
def test_without_routes_the_upstreams_own_list_is_shown_in_each_family_shape(
    emulator: str, upstream: str
) -> None:
    base = emulator + ("/v1" if upstream.startswith("openai") else "")
    with serve(create_app(HopConfig.single(upstream, base))) as gateway:
        openai_shape = httpx.get(f"{gateway}/v1/models").json()
        anthropic_shape = httpx.get(
            f"{gateway}/v1/models", headers={"anthropic-version": "2023-06-01"}
        ).json()
        gemini_shape = httpx.get(f"{gateway}/v1beta/models").json()
        one = httpx.get(f"{gateway}/v1/models/beta-2").json()
        missing = httpx.get(f"{gateway}/v1/models/nope")
    assert [m["id"] for m in openai_shape["data"]] == list(MODELS)
    assert {m["object"] for m in openai_shape["data"]} == {"model"}
    assert [m["id"] for m in anthropic_shape["data"]] == list(MODELS)
    assert (anthropic_shape["first_id"], anthropic_shape["last_id"]) == MODELS
    assert [m["name"] for m in gemini_shape["models"]] == [f"models/{n}" for n in MODELS]
    assert one["id"] == "beta-2"
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "model_not_found"


def test_routes_name_the_models_and_globs_are_left_out(emulator: str) -> None:
    config = HopConfig.single(
        "anthropic",
        emulator,
        model_map=(Route("gpt-5", "upstream", "alpha-1"), Route("gpt-4*", "upstream", "beta-2")),
    )
    with serve(create_app(config)) as gateway:
        listed = httpx.get(f"{gateway}/v1/models").json()
    assert [m["id"] for m in listed["data"]] == ["gpt-5"]
