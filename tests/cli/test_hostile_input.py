"""The CLI against hostile input (issue 19): a documented exit code, one error line, bounded cost.

Every command that reads a file (``validate``, ``convert``, ``tools convert``, ``replay``) gets
hostile files in-process; the cases only the real process can show (``/dev/zero``, a FIFO, an
endless pipe, empty standard input, a reader that closes the pipe early, a 40 MB payload) run
``python -m toolwire`` and check its exit code, standard error, wall time and peak memory (the
command's own ``ru_maxrss``, reported by a small launcher that forks it: Linux keeps a forked
child's high-water mark across ``exec``, so a child forked straight from a large pytest process
would report the parent's pages as its own).

The rules: bad input exits 3 (``ExitCode.INPUT``), a bad command line 2 (``ExitCode.USAGE``),
each with exactly one ``toolwire: error:`` line and no traceback; an output pipe closed early
ends the command quietly with 0 (as ``git``/``ruff`` do: the reader asked for no more).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from toolwire.cli import ExitCode, main
from toolwire.cli._io import MAX_INPUT_BYTES

COMMANDS = {
    "validate": ["validate"],
    "convert": ["convert", "--to", "anthropic"],
    "tools": ["tools", "convert", "--to", "anthropic"],
    "replay": ["replay", "--to", "openai-chat"],
}

REQUEST = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}

HOSTILE: dict[str, Callable[[Path], str]] = {}
"""Case name -> writes the hostile input under a directory and returns the path to pass."""


def _file(name: str, data: bytes) -> None:
    def make(tmp: Path) -> str:
        path = tmp / f"{name}.json"
        path.write_bytes(data)
        return str(path)

    HOSTILE[name] = make


_file("empty", b"")
_file("whitespace", b" \n\t\r\n ")
_file("binary", bytes(range(256)) * 16)
_file("nul_bytes", b"\x00" * 4096)
_file("invalid_utf8", b'{"model": "m\xff\xfe", "messages": []}')
_file("utf16", json.dumps(REQUEST).encode("utf-16"))
_file("lone_surrogate", b'{"model": "m", "messages": [{"role": "user", "content": "\\ud800"}]}')
_file("deep_arrays", b"[" * 200_000 + b"]" * 200_000)
_file("deep_objects", b'{"a":' * 100_000 + b"1" + b"}" * 100_000)
_file("truncated", json.dumps(REQUEST).encode()[:-7])
_file("scalar", b"42")
_file("string", b'"hello"')
_file("null", b"null")
_file("nan", b'{"model": NaN, "messages": []}')
_file("html", b"<html><body>502 Bad Gateway</body></html>")
_file("sse_garbage", b"data: {\n\ndata: [1,2\n\nevent: x\n\n")
HOSTILE["missing"] = lambda tmp: str(tmp / "no-such-file.json")
HOSTILE["directory"] = lambda tmp: str(tmp)


def _unreadable(tmp: Path) -> str:
    path = tmp / "secret.json"
    path.write_bytes(json.dumps(REQUEST).encode())
    path.chmod(0)
    return str(path)


HOSTILE["no_permission"] = _unreadable


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("toolwire: error: ")]


def assert_one_line_error(err: str) -> None:
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = _error_lines(err)
    assert len(lines) == 1, err
    assert len(lines[0]) < 400, lines[0]


@pytest.mark.parametrize("case", sorted(HOSTILE))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_hostile_file_is_one_error_line_and_exit_3(
    command: str, case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if case == "no_permission" and os.geteuid() == 0:
        pytest.skip("root reads any file")
    path = HOSTILE[case](tmp_path)
    started = time.monotonic()
    code = main([*COMMANDS[command], path])
    elapsed = time.monotonic() - started
    out, err = capsys.readouterr()
    assert code == ExitCode.INPUT, (out, err)
    assert_one_line_error(err)
    assert elapsed < 20


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["validate", "--bogus", "x.json"], "unrecognized arguments: --bogus"),
        (["convert", "--to", "anthropic", "--policy", "lenient", "x.json"], "argument --policy"),
        (["convert", "x.json"], "the following arguments are required: --to"),
        (["replay", "--to", "klingon", "x.json"], "argument --to: invalid choice 'klingon'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["validate", "--format"], "argument --format: expected one argument"),
        (["--no-such-flag"], "the following arguments are required: COMMAND"),
        (["validate", "a.json", "b.json"], "unrecognized arguments: b.json"),
        (["convert", "--to", "\udcff", "x.json"], "argument --to: invalid choice"),
    ],
)
def test_a_bad_command_line_is_one_error_line_and_exit_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert_one_line_error(err)
    assert fragment in err


# ---------------------------------------------------------------- the real process


_LAUNCHER = """
import os, resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
if code < 0:
    os.kill(os.getpid(), -code)
sys.exit(code)
"""
"""Runs its arguments as a child (inheriting the standard streams) and writes the child's peak RSS."""


def run_toolwire(
    args: list[str], *, stdin: int | bytes | None = None, stdout: int = subprocess.PIPE
) -> tuple[int, bytes, str, float, int]:
    """``python -m toolwire ARGS``: (exit code, stdout, stderr, seconds, peak RSS in MiB)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        rss_file = Path(scratch) / "rss"
        with subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(rss_file), sys.executable, "-m", "toolwire", *args],
            stdin=stdin
            if isinstance(stdin, int)
            else (subprocess.PIPE if stdin is not None else subprocess.DEVNULL),
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=env,
        ) as proc:
            if isinstance(stdin, bytes):
                threading.Thread(target=_feed, args=(proc, stdin), daemon=True).start()
            out = proc.stdout.read() if proc.stdout is not None else b""
            err = proc.stderr.read() if proc.stderr is not None else b""
            proc.wait()
        peak_kib = int(rss_file.read_text())  # missing only if the launcher itself died: an error
    return (proc.returncode, out, err.decode("utf-8", "replace"), time.monotonic() - started, peak_kib >> 10)


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(data)
        proc.stdin.close()
    except BrokenPipeError:
        pass


BASELINE_MIB = 200
"""Peak RSS allowed for any command on small input (the interpreter and its imports)."""


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_dev_zero_stops_at_the_input_limit(command: str) -> None:
    code, _, err, seconds, peak = run_toolwire([*COMMANDS[command], "/dev/zero"])
    assert code == ExitCode.INPUT
    assert_one_line_error(err)
    assert f"larger than {MAX_INPUT_BYTES >> 20} MiB, the input limit" in err
    assert seconds < 60
    assert peak < BASELINE_MIB + 2 * (MAX_INPUT_BYTES >> 20)  # before: grew until killed


def test_an_endless_pipe_on_standard_input_stops_at_the_limit() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", "import sys\nwhile True: sys.stdout.buffer.write(b'[' * 65536)"],
        stdout=subprocess.PIPE,
    ) as writer:
        try:
            code, _, err, seconds, _ = run_toolwire(["validate", "-"], stdin=writer.stdout.fileno())  # type: ignore[union-attr]
        finally:
            writer.kill()
    assert code == ExitCode.INPUT
    assert_one_line_error(err)
    assert "standard input is larger than" in err
    assert seconds < 60


@pytest.mark.parametrize(
    ("data", "fragment"), [(b"", "standard input is empty"), (b"\x00\xff", "invalid JSON")]
)
def test_empty_or_binary_standard_input(data: bytes, fragment: str) -> None:
    code, _, err, seconds, _ = run_toolwire(["convert", "--to", "gemini", "-"], stdin=data)
    assert code == ExitCode.INPUT
    assert_one_line_error(err)
    assert fragment in err
    assert seconds < 30


def test_a_fifo_is_read_until_its_writer_closes(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as pipe:
            pipe.write(b"\x89PNG\r\n\x1a\n" + bytes(4096))

    threading.Thread(target=write, daemon=True).start()
    code, _, err, seconds, _ = run_toolwire(["validate", str(fifo)])
    assert code == ExitCode.INPUT
    assert_one_line_error(err)
    assert seconds < 30


def _big_request(tmp: Path, megabytes: int) -> Path:
    path = tmp / "big.json"
    turns = [{"role": "user", "content": "x" * 100_000}] * (megabytes * 10)
    path.write_text(json.dumps({"model": "gpt-4o", "messages": turns}))
    return path


def test_a_40_mb_payload_converts_in_bounded_time_and_memory(tmp_path: Path) -> None:
    path = _big_request(tmp_path, 40)
    code, out, err, seconds, peak = run_toolwire(["convert", "--to", "anthropic", str(path)])
    assert code == ExitCode.OK, err
    [message] = json.loads(out)["messages"]  # consecutive user turns merge into one
    assert len(message["content"]) == 400
    assert "Traceback" not in err
    assert seconds < 90
    assert peak < BASELINE_MIB + 8 * 40  # measured: about 3x the input


@pytest.mark.parametrize("command", ["convert", "replay", "validate"])
def test_a_reader_that_closes_the_pipe_early_ends_quietly(command: str, tmp_path: Path) -> None:
    """``toolwire ... | head -c1``: exit 0, nothing on standard error (no BrokenPipeError)."""
    if command == "replay":
        events = "".join(
            f'data: {{"id":"c","object":"chat.completion.chunk","created":1,"model":"m",'
            f'"choices":[{{"index":0,"delta":{{"content":"{"w" * 200}"}},"finish_reason":null}}]}}\n\n'
            for _ in range(5000)
        )
        path = tmp_path / "stream.sse"
        path.write_text(events + "data: [DONE]\n\n")
        argv = ["replay", "--to", "anthropic", str(path)]
    elif command == "validate":  # thousands of problems to print
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({"model": "m", "messages": [{"role": "wizard", "content": 1}] * 20_000}))
        argv = ["validate", "--format", "openai-chat", str(path)]
    else:
        argv = ["convert", "--to", "anthropic", str(_big_request(tmp_path, 5))]
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    shell = f"{sys.executable} -m toolwire {' '.join(argv)} | head -c1 >/dev/null; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, env=env, timeout=120, check=False)
    assert done.stdout.strip() == b"0", done.stderr
    assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr
    assert b"BrokenPipe" not in done.stderr
