"""The validator against the recorded provider corpus.

Every recorded request and response is valid, except requests the provider answered with a 400
(those must be flagged with the provider's own message when the rule is one we model) and a
few recordings documented below as hand-edited or deliberately malformed.
"""

from __future__ import annotations

import pytest

from tests.corpus import Sample, samples
from toolwire.validate import validate

# Recordings that are not valid provider output, and why.
NOT_VALID = {
    # VCR cassettes edited by hand: status "complete" (the API says "completed"), placeholder ids
    # (resp_1234, msg_test_...)
    "pydantic-ai/openai-responses/test_openai_previous_response_id.yaml#0/response",
    "pydantic-ai/openai-responses/test_openai_previous_response_id.yaml#1/response",
    "pydantic-ai/openai-responses/test_openai_previous_response_id_auto_mode.yaml#0/response",
    "pydantic-ai/openai-responses/test_openai_responses_verbosity.yaml#0/response",
    # SDK test data for an unknown finishReason enum value, on purpose
    "firebase-vertexai-sdk-test-data/gemini-vertex/unary-failure-unknown-enum-finish-reason.json",
    # Vercel AI SDK fixtures written by hand (PROVENANCE.md): no required "metrics", and a
    # "type" on text blocks that the ContentBlock union does not have
    *(
        f"vercel-ai/bedrock-converse/amazon-bedrock-{name}.json"
        for name in (
            "json-other-tool.1",
            "json-tool-with-answer.1",
            "json-tool.1",
            "json-tool.2",
            "json-tool.3",
            "json-with-tool.1",
            "json-with-tools.1",
            "tool-call.1",
            "tool-no-args",
        )
    ),
}
# Rejections that depend on the model or account, not on the payload (nothing to model offline).
MODEL_DEPENDENT = (
    "maximum context length",
    "does not exist",
    "with this model",
    "not supported with this model",
    "does not support",
    "not supported",
    "model identifier is invalid",  # Bedrock: the model id in the URL
)


FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse")


def _rejected() -> dict[str, Sample]:
    """Request id -> the 400 error the provider answered it with."""
    out: dict[str, Sample] = {}
    for fmt in FORMATS:
        for s in samples(fmt, "error"):
            if s.status == 400 and s.id.endswith("/error"):
                out[s.id.removesuffix("/error") + "/request"] = s
    return out


def _message(error: Sample) -> str:
    if error.format == "bedrock-converse":  # {"message": ...}
        return str(error.payload.get("message", ""))
    body = error.payload.get("error")
    return str(body.get("message", "")) if isinstance(body, dict) else ""


def _beta(sample: Sample) -> bool:
    return "beta=true" in (sample.url or "")


def _request_verdict(sample: Sample, rejected: dict[str, Sample]) -> str | None:
    """Why a recorded request disagrees with the validator, or None when it agrees."""
    problems = validate(sample.payload, format=sample.format, beta=_beta(sample))
    error = rejected.get(sample.id)
    if error is None:
        return f"{sample.id}: {problems}" if problems else None
    if problems:
        return (
            None
            if problems[0].message == _message(error)
            else f"{sample.id}: {problems[0]} != {_message(error)}"
        )
    return (
        None
        if any(m in _message(error) for m in MODEL_DEPENDENT)
        else f"{sample.id}: missed {_message(error)}"
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_recorded_requests(fmt: str) -> None:
    """Accepted requests are valid; rejected ones are flagged with the provider's own message."""
    found = samples(fmt, "request")
    if not found:
        pytest.skip("no fixture corpus")
    rejected = _rejected()
    assert [v for s in found if (v := _request_verdict(s, rejected))] == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_recorded_responses(fmt: str) -> None:
    found = samples(fmt, "response")
    if not found:
        pytest.skip("no fixture corpus")
    wrong = []
    for sample in found:
        problems = validate(sample.payload, format=sample.format, kind="response")
        if bool(problems) != (sample.id in NOT_VALID):
            wrong.append(f"{sample.id}: {problems or 'expected to break a rule'}")
    assert wrong == []


def test_recorded_rejections_are_reproduced() -> None:
    """At least the recorded rejections of rules we model come back word for word."""
    reproduced = 0
    for request_id, error in _rejected().items():
        request = next((s for s in samples(error.format, "request") if s.id == request_id), None)
        if request is None:
            continue
        problems = validate(request.payload, format=request.format, beta=_beta(request))
        if problems and problems[0].message == _message(error):
            reproduced += 1
    if not _rejected():
        pytest.skip("no fixture corpus")
    assert reproduced >= 3
