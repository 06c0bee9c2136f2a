"""``toolwire store ls|show|rm [--store URL]``: inspect and prune what the gateway kept.

==============================  ==================================================================
command                         does
==============================  ==================================================================
``store ls [--limit N]``        one line per kept response, newest first: id, created (UTC),
``[--after ID] [--json]``       status, model, input and output item counts, the response it
                                continued; ``--json``: one JSON object per line
``store show ID``               the response record (or the conversation and its items) as
                                indented JSON, every value as stored
``store rm ID...``              delete responses or conversations; an id not kept is an error
                                (exit 3) after the others are deleted
==============================  ==================================================================

``--store`` defaults to ``sqlite://`` (the default store: a SQLite file in the user's data
directory); a SQLite file that does not exist is reported, not created. A Redis URL needs the ``redis`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec

from toolwire.store import DEFAULT_STORE, ResponseRecord, Store, StoreNotFoundError, open_store

__all__ = ["add_parser", "summary"]

_T = TypeVar("_T")
_STORE_HELP = "store URL: sqlite:///path.db, redis://host:port/db (default: sqlite://, the user data file)"


def add_parser(sub: Any) -> None:
    """Register ``store`` and its subcommands."""
    parser = sub.add_parser("store", help="list, show or delete the responses a gateway kept")
    commands = parser.add_subparsers(dest="store_command", required=True, metavar="COMMAND")
    ls = commands.add_parser("ls", help="list kept responses, newest first")
    ls.add_argument("--limit", type=int, default=20, help="most responses listed (default 20)")
    ls.add_argument("--after", metavar="ID", help="start after this response id (the next page)")
    ls.add_argument("--json", action="store_true", help="one JSON object per line")
    show = commands.add_parser("show", help="print a kept response (or conversation) as JSON")
    show.add_argument("id", metavar="ID", help="response or conversation id")
    rm = commands.add_parser("rm", help="delete kept responses or conversations")
    rm.add_argument("ids", nargs="+", metavar="ID", help="response or conversation ids")
    for command, handler in ((ls, _ls), (show, _show), (rm, _rm)):
        command.add_argument("--store", default=DEFAULT_STORE, metavar="URL", help=_STORE_HELP)
        command.set_defaults(
            handler=lambda args, run=handler: _with_store(args.store, lambda s: run(s, args))
        )


def _with_store(url: str, action: Callable[[Store], Awaitable[_T]]) -> _T:
    async def go() -> _T:
        store = await open_store(url, create=False)
        try:
            return await action(store)
        finally:
            await store.aclose()

    return asyncio.run(go())


def summary(record: ResponseRecord) -> dict[str, Any]:
    """What ``store ls`` shows of a record."""
    return {
        "id": record.id,
        "created_at": record.created_at,
        "status": record.status,
        "model": record.request.get("model"),
        "input_items": len(record.input_items),
        "output_items": len(record.output_items),
        "previous_response_id": record.previous_response_id,
    }


def _line(row: dict[str, Any]) -> str:
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(row["created_at"]))
    after = f"  after {row['previous_response_id']}" if row["previous_response_id"] else ""
    counts = f"in={row['input_items']} out={row['output_items']}"
    return f"{row['id']}  {created}  {row['status']}  {row['model'] or '-'}  {counts}{after}\n"


async def _ls(store: Store, args: argparse.Namespace) -> int:
    records = await store.list_responses(limit=max(1, args.limit), after=args.after)
    for record in records:
        row = summary(record)
        sys.stdout.write(msgspec.json.encode(row).decode() + "\n" if args.json else _line(row))
    if not records and not args.json:
        sys.stderr.write("no responses kept\n")
    return 0


async def _show(store: Store, args: argparse.Namespace) -> int:
    record = await store.get_response(args.id)
    if record is not None:
        value: Any = record
    else:
        conversation = await store.get_conversation(args.id)
        if conversation is None:
            raise StoreNotFoundError(f"no response or conversation {args.id!r} in the store")
        value = {"conversation": conversation, "items": await _items(store, args.id)}
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n")
    return 0


async def _items(store: Store, conversation_id: str) -> list[dict[str, Any]]:
    page = await store.list_items(conversation_id, limit=100)
    items = list(page.items)
    while page.has_more:
        page = await store.list_items(conversation_id, limit=100, after=page.last_id)
        items += page.items
    return items


async def _rm(store: Store, args: argparse.Namespace) -> int:
    missing = []
    for key in args.ids:
        if await store.delete_response(key) or await store.delete_conversation(key):
            sys.stdout.write(f"deleted {key}\n")
        else:
            missing.append(key)
    if missing:
        raise StoreNotFoundError(f"not in the store: {', '.join(missing)}")
    return 0
