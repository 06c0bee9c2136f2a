"""Broken-payload corpora: every deliberately broken payload is caught with its code and path."""

from __future__ import annotations

from typing import Any

import pytest

from tests.validate import cases_anthropic, cases_bedrock, cases_gemini, cases_openai
from tests.validate._mutate import Case
from toolwire.validate import validate

# format -> (valid request, valid response, cases)
CORPORA: dict[str, tuple[dict[str, Any], dict[str, Any], list[Case]]] = {
    "openai-chat": (cases_openai.CHAT_BASE, cases_openai.CHAT_RESPONSE, cases_openai.CHAT_CASES),
    "openai-responses": (
        cases_openai.RESPONSES_BASE,
        cases_openai.RESPONSES_RESPONSE,
        cases_openai.RESPONSES_CASES,
    ),
    "anthropic": (cases_anthropic.BASE, cases_anthropic.RESPONSE, cases_anthropic.CASES),
    "gemini": (cases_gemini.BASE, cases_gemini.RESPONSE, cases_gemini.CASES),
    "bedrock-converse": (cases_bedrock.BASE, cases_bedrock.RESPONSE, cases_bedrock.CASES),
}

PARAMS = [
    pytest.param(fmt, case, id=f"{fmt}:{case.name}")
    for fmt, (_, _, cases) in CORPORA.items()
    for case in cases
]


@pytest.mark.parametrize("fmt", list(CORPORA))
def test_bases_are_valid(fmt: str) -> None:
    request, response, _ = CORPORA[fmt]
    assert validate(request, format=fmt) == []
    assert validate(response, format=fmt, kind="response") == []


@pytest.mark.parametrize("fmt", list(CORPORA))
def test_corpus_size_and_distinct(fmt: str) -> None:
    cases = CORPORA[fmt][2]
    assert len([c for c in cases if c.kind == "request"]) >= 40
    assert len({c.name for c in cases}) == len(cases)


@pytest.mark.parametrize(("fmt", "case"), PARAMS)
def test_broken_payload_is_caught(fmt: str, case: Case) -> None:
    request, response, _ = CORPORA[fmt]
    payload = case.build(request if case.kind == "request" else response)
    problems = validate(payload, format=fmt, kind=case.kind)  # type: ignore[arg-type]
    found = {(p.code, p.path) for p in problems}
    assert (case.code, case.path) in found, problems
    for problem in problems:
        assert problem.message and problem.param is not None and problem.status == 400


def test_every_code_is_documented() -> None:
    """Each code the corpora expect is listed in the code tables of the engine or the validator."""
    from toolwire.validate import _engine, validator

    documented = (_engine.__doc__ or "") + (validator.__doc__ or "")
    codes = {case.code for _, _, cases in CORPORA.values() for case in cases}
    assert {code for code in codes if f"``{code}``" not in documented} == set()
