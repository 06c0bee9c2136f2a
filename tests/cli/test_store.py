"""``toolwire store ls|show|rm``: on a real SQLite file (and a real redis-server), in-process and
as a command without extras."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.cli.helpers import toolwire
from tests.redis_server import RedisServer, redis_server
from tests.store.records import conversation, item, response
from toolwire.cli import main
from toolwire.store import open_store

__all__ = ["redis_server"]


def fill(url: str) -> None:
    async def go() -> None:
        store = await open_store(url)
        await store.put_response(response("resp_a", items=2))
        await store.put_response(response("resp_b", items=4, previous_response_id="resp_a", status="failed"))
        await store.create_conversation(conversation("conv_1"), [item(0), item(1)])
        await store.aclose()

    asyncio.run(go())


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite://{tmp_path / 'store.db'}"
    fill(url)
    return url


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ls_lists_newest_first(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "store", "ls", "--store", url)
    assert (code, err) == (0, "")
    assert out == (
        "resp_b  2025-06-15T15:06:40Z  failed  gpt-5  in=4 out=2  after resp_a\n"
        "resp_a  2025-06-15T15:06:40Z  completed  gpt-5  in=2 out=2\n"
    )
    code, out, _ = run(capsys, "store", "ls", "--store", url, "--json", "--limit", "1", "--after", "resp_b")
    assert code == 0 and [json.loads(line) for line in out.splitlines()] == [
        {
            "id": "resp_a",
            "created_at": 1_750_000_000,
            "status": "completed",
            "model": "gpt-5",
            "input_items": 2,
            "output_items": 2,
            "previous_response_id": None,
        }
    ]


def test_show_prints_the_record_as_stored(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "store", "show", "resp_b", "--store", url)
    assert code == 0 and out.startswith('{\n  "v": 1,\n  "id": "resp_b",')
    want = response("resp_b", items=4, previous_response_id="resp_a", status="failed")
    assert msgspec.json.decode(out.encode()) == msgspec.to_builtins(want)
    assert "123456789012345678901234567890" in out  # big integers as stored
    code, out, _ = run(capsys, "store", "show", "conv_1", "--store", url)
    shown: dict[str, Any] = json.loads(out)
    assert code == 0 and shown["conversation"]["metadata"] == {"topic": "tests"}
    assert shown["items"] == [item(0), item(1)]


def test_rm_deletes_and_reports_ids_not_kept(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "store", "rm", "resp_a", "resp_zzz", "conv_1", "--store", url)
    assert (code, out) == (3, "deleted resp_a\ndeleted conv_1\n")
    assert err == "toolwire: error: not in the store: resp_zzz\n"
    code, out, _ = run(capsys, "store", "ls", "--store", url)
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == ["resp_b"]
    assert run(capsys, "store", "show", "conv_1", "--store", url)[0] == 3


def test_errors_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.db"
    code, _, err = run(capsys, "store", "ls", "--store", f"sqlite://{missing}")
    assert (code, err) == (3, f"toolwire: error: no store at {missing}\n")
    assert not missing.exists()  # inspecting creates nothing
    code, _, err = run(capsys, "store", "ls", "--store", "mongodb://admin:pw@h/db")
    assert code == 2 and err.startswith(
        "toolwire: error: unknown store URL 'mongodb://***@h/db'; choose one of: "
    )
    code, _, err = run(capsys, "store", "show", "resp_nope", "--store", "memory://")
    assert (code, err) == (3, "toolwire: error: no response or conversation 'resp_nope' in the store\n")
    code, _, err = run(capsys, "store", "ls", "--store", "redis://:s3cret@127.0.0.1:1/0")
    assert code == 3 and "redis store 127.0.0.1:1/0" in err and "s3cret" not in err


def test_ls_on_redis(redis_server: RedisServer, capsys: pytest.CaptureFixture[str]) -> None:
    url = redis_server.url()
    fill(url)
    code, out, _ = run(capsys, "store", "ls", "--store", url)
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == ["resp_b", "resp_a"]


def test_without_extras_sqlite_works_and_redis_names_its_extra(url: str, tmp_path: Path) -> None:
    done = toolwire("store", "ls", "--store", url, block_dir=tmp_path)
    assert done.returncode == 0 and done.stdout.splitlines()[0].startswith("resp_b  "), done.stderr
    done = toolwire("store", "ls", "--store", "redis://127.0.0.1:1/0", block_dir=tmp_path)
    assert (done.returncode, done.stdout) == (6, "")
    assert (
        done.stderr
        == "toolwire: error: the redis store needs the redis extra: pip install 'toolwire[redis]'\n"
    )
