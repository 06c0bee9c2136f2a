"""Every exit code of :class:`toolwire.cli.ExitCode`, in-process and through the real command."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.helpers import toolwire, write_json
from tests.cli.payloads import REQUESTS
from tests.validate.cases_openai import RESPONSES_BASE
from toolwire.cli import ExitCode, main
from toolwire.emulator import EmulatorConfig, create_app, serve


def test_the_codes_are_the_documented_numbers() -> None:
    assert {c.name: int(c) for c in ExitCode} == {
        "OK": 0,
        "PROBLEMS": 1,
        "USAGE": 2,
        "INPUT": 3,
        "CONVERSION_REFUSED": 4,
        "PROVIDER": 5,
        "MISSING_EXTRA": 6,
        "INTERRUPTED": 130,
    }


def test_0_ok_and_1_problems_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["validate", "--format", "openai-responses", write_json(tmp_path / "ok.json", RESPONSES_BASE)])
        == 0
    )
    broken = {
        **RESPONSES_BASE,
        "tools": [{"type": "function", "function": {"name": "f"}}],
        "tool_choice": "auto",
    }
    assert main(["validate", "--format", "openai-responses", write_json(tmp_path / "bad.json", broken)]) == 1
    assert "$.tools[0].name: missing_required_parameter" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: COMMAND; see 'toolwire --help'"),
        (["convrt"], "unknown command 'convrt' (did you mean 'convert'?); see 'toolwire --help'"),
        (
            ["tools", "convet"],
            "unknown command 'convet' (did you mean 'convert'?); see 'toolwire tools --help'",
        ),
        (
            ["convert", "--to", "gemni", "x.json"],
            "argument --to: invalid choice 'gemni' (did you mean 'gemini'?); see 'toolwire convert --help'",
        ),
        (
            ["convert", "--to", "gemini", "--polcy", "strict", "x.json"],
            "unrecognized arguments: --polcy x.json (did you mean '--policy'?); "
            "see 'toolwire convert --help'",
        ),
        (["convert", "x.json"], "the following arguments are required: --to; see 'toolwire convert --help'"),
        (["schema", "no_such_module_xyz:f"], "cannot import module 'no_such_module_xyz'"),
    ],
)
def test_2_usage_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"toolwire: error: {message}")
    assert err.count("\n") == 1


def test_an_unknown_choice_far_from_any_lists_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--to", "xml", "x.json"]) == 2
    assert "invalid choice 'xml' (choose from openai-chat, openai-responses, anthropic, gemini," in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read '{path}': No such file or directory"),
        ("dir", "cannot read '{path}': Is a directory"),
        (b"{not json", "$: invalid JSON"),
        (b"", "$: '{path}' is empty: expected a JSON payload"),
    ],
)
def test_3_input_errors(
    content: bytes | str | None, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.json"
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    for argv in (
        ["convert", "--to", "gemini"],
        ["tools", "convert", "--to", "gemini"],
        ["validate", "--format", "gemini"],
        ["replay", "--from", "gemini"],
    ):
        code = main([*argv, str(path)])
        err = capsys.readouterr().err
        if content in (b"{not json", b"") and argv[0] == "replay":
            continue  # a broken recording is still replayed (exit 0): see tests/streaming/test_replay_cli.py
        assert code == 3, argv
        assert err.startswith("toolwire: error: " + message.format(path=path)), err
        assert err.count("\n") == 1


def test_3_input_errors_in_the_real_command(tmp_path: Path) -> None:
    done = toolwire("convert", "--to", "gemini", str(tmp_path / "missing.json"))
    assert (done.returncode, done.stdout) == (3, "")
    assert (
        done.stderr
        == f"toolwire: error: cannot read '{tmp_path / 'missing.json'}': No such file or directory\n"
    )
    done = toolwire("convert", "--to", "gemini", "-", stdin=b"[1,")
    assert done.returncode == 3 and done.stderr.startswith("toolwire: error: $: invalid JSON")


def test_4_conversion_refused_under_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lossy = {**REQUESTS["openai-chat"], "logit_bias": {"50256": -100}}
    path = write_json(tmp_path / "in.json", lossy)
    output = tmp_path / "out.json"
    assert main(["convert", "--to", "anthropic", "--policy", "strict", "-o", str(output), path]) == 4
    out, err = capsys.readouterr()
    assert out == "" and not output.exists()
    refusal = "$.logit_bias: dropped: field 'logit_bias' has no equivalent in the target format"
    assert f"toolwire: error: {refusal}\n" in err
    assert main(["convert", "--to", "anthropic", "--policy", "drop", path]) == 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(api_keys=("right-key",))), log_level="critical") as base:
        yield base


def test_5_provider_error(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", "--provider", "anthropic", "--base-url", url, "--model", "m", "hi"]
    assert main([*argv, "--api-key", "wrong-key"]) == 5
    assert capsys.readouterr().err == "toolwire: error: HTTP 401: invalid x-api-key\n"
    assert main([*argv, "--api-key", "right-key"]) == 0


def test_5_transport_error(capsys: pytest.CaptureFixture[str]) -> None:
    base = f"http://127.0.0.1:{_free_port()}"
    assert (
        main(["run", "--provider", "openai-chat", "--base-url", base, "--api-key", "k", "--model", "m", "hi"])
        == 5
    )
    assert capsys.readouterr().err.startswith("toolwire: error: ")


def test_readme_documents_every_exit_code() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Command line\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ")]
    assert rows[:2] == ["exit code", "---"]
    assert [int(code) for code in rows[2:]] == [int(c) for c in ExitCode]


def test_run_takes_a_model_string_and_refuses_an_unknown_prefix(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolwire.cli._run import _PROVIDERS
    from toolwire.client import PROVIDERS

    assert tuple(PROVIDERS) == _PROVIDERS
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "proj")
    argv = ["run", "--base-url", url, "--api-key", "right-key", "hi"]
    assert main([*argv, "--model", "vertex/claude-haiku-4-5@20251001"]) == 0
    assert "You said: hi" in capsys.readouterr().out
    assert main([*argv, "--model", "vertx/gemini-2.5-pro"]) == 2
    assert capsys.readouterr().err == (
        "toolwire: error: --model 'vertx/gemini-2.5-pro': unknown model prefix 'vertx' "
        "(did you mean 'vertex'?); expected one of openai, openai-chat, anthropic, gemini, vertex, "
        "azure, azure-chat, mistral, deepseek, openrouter, groq, xai, ollama, vllm, bedrock\n"
    )
