"""``toolwire trace ls|show [--store URL]``: the calls a gateway traced (``serve --trace``).

==================================  ==============================================================
command                             does
==================================  ==============================================================
``trace ls [--model M]``            one line per trace, newest first: id, time (UTC), status,
``[--pair a->b] [--status 2xx]``    client -> upstream format, model (-> upstream model), total
``[--loss] [--limit N]``            ms, notes (loss notes), ``stream``, the error;
``[--before ID] [--json]``          ``--json``: one summary object per line
``trace show ID [--json]``          the call: outcome and timings, the notes table, the four
                                    bodies, and for a stream the timeline of both sides;
                                    ``--json``: the record as indented JSON
==================================  ==============================================================

``--store`` defaults to ``sqlite://`` (the gateway's default store); a SQLite file that does not
exist is reported, not created.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from typing import Any

import msgspec

from toolwire.cli._store import _STORE_HELP, _with_store
from toolwire.store import DEFAULT_STORE, Store, StoreNotFoundError
from toolwire.trace import TraceBody, TraceQuery, TraceRecord, TraceSummary

__all__ = ["add_parser", "render_trace", "summary_line"]

_PREVIEW = 120
"""Characters of an event's data shown on a timeline line."""


def add_parser(sub: Any) -> None:
    """Register ``trace`` and its subcommands."""
    parser = sub.add_parser("trace", help="list or show the calls a gateway traced (serve --trace)")
    commands = parser.add_subparsers(dest="trace_command", required=True, metavar="COMMAND")
    ls = commands.add_parser("ls", help="list traces, newest first")
    ls.add_argument("--model", metavar="M", help="client or upstream model equal to M")
    ls.add_argument(
        "--pair", metavar="A->B", help="client format -> upstream format, e.g. openai-chat->anthropic"
    )
    ls.add_argument("--status", metavar="CODE", help="a status (429) or a class (2xx, 4xx, 5xx)")
    ls.add_argument("--loss", action="store_true", help="only calls with a loss note")
    ls.add_argument("--limit", type=int, default=20, help="most traces listed (default 20)")
    ls.add_argument("--before", metavar="ID", help="start after this trace id (the next page)")
    ls.add_argument("--json", action="store_true", help="one JSON object per line")
    show = commands.add_parser("show", help="print one trace: notes, bodies, stream timeline")
    show.add_argument("id", metavar="ID", help="trace id (the request id)")
    show.add_argument("--json", action="store_true", help="the record as JSON")
    for command, handler in ((ls, _ls), (show, _show)):
        command.add_argument("--store", default=DEFAULT_STORE, metavar="URL", help=_STORE_HELP)
        command.set_defaults(
            handler=lambda args, run=handler: _with_store(args.store, lambda s: run(s, args))
        )


def _when(created_at: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created_at))


def summary_line(row: TraceSummary) -> str:
    """What ``trace ls`` prints of one trace."""
    model = row.client_model or "-"
    if row.upstream_model and row.upstream_model != row.client_model:
        model += f"->{row.upstream_model}"
    notes = f"notes={row.notes}" + (f" loss={row.loss_notes}" if row.loss_notes else "")
    parts = [
        row.id,
        _when(row.created_at),
        str(row.status),
        f"{row.client_format or '-'}->{row.upstream_format or '-'}",
    ]
    parts += [model, f"{row.total_ms:.1f}ms", notes]
    parts += ["stream"] if row.stream else []
    parts += [f"error: {row.error}"] if row.error else []
    return "  ".join(parts) + "\n"


async def _ls(store: Store, args: argparse.Namespace) -> int:
    query = TraceQuery(
        limit=max(1, args.limit),
        before=args.before,
        model=args.model,
        pair=args.pair,
        status=args.status,
        has_loss=True if args.loss else None,
    )
    rows = await store.list_traces(query)
    for row in rows:
        sys.stdout.write(msgspec.json.encode(row).decode() + "\n" if args.json else summary_line(row))
    if not rows and not args.json:
        sys.stderr.write("no traces kept (run the gateway with 'toolwire serve --trace')\n")
    return 0


async def _show(store: Store, args: argparse.Namespace) -> int:
    record = await store.get_trace(args.id)
    if record is None:
        raise StoreNotFoundError(f"no trace {args.id!r} in the store")
    if args.json:
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(record), indent=2).decode() + "\n")
    else:
        sys.stdout.write(render_trace(record))
    return 0


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def _head(record: TraceRecord) -> list[str]:
    latency = record.latency
    lines = [
        f"trace {record.id}  {_when(record.created_at)}",
        f"  {record.method} {record.path} -> {record.status}" + ("  (stream)" if record.stream else ""),
        f"  client {record.client_format or '-'} model {record.client_model or '-'}",
        f"  upstream {record.upstream or '-'} ({record.upstream_format or '-'}) "
        f"model {record.upstream_model or '-'}" + (f"  route {record.route!r}" if record.route else ""),
        f"  latency total {_ms(latency.total)}, upstream {_ms(latency.upstream)}, "
        f"first byte {_ms(latency.first_byte)}, gateway {_ms(latency.gateway)}",
        f"  tokens in {record.input_tokens if record.input_tokens is not None else '-'}, "
        f"out {record.output_tokens if record.output_tokens is not None else '-'}",
    ]
    return lines + ([f"  error: {record.error}"] if record.error else [])


def _notes(record: TraceRecord) -> list[str]:
    if not record.notes:
        return ["", "notes: none"]
    lines = [
        "",
        f"notes ({len(record.notes)}):",
        "  side               path                          kind          loss  message",
    ]
    for note in record.notes:
        target = f"  -> {note.target_side}:{note.target}" if note.target else ""
        loss = "yes" if note.loss else "no"
        lines.append(f"  {note.side:<18} {note.path:<29} {note.kind:<13} {loss:<5} {note.message}{target}")
    return lines


def _body(title: str, body: TraceBody | None) -> list[str]:
    if body is None:
        return []
    cut = f", cut at {len(body.text.encode())}" if body.truncated else ""
    text = body.text
    if not body.truncated and body.content_type.endswith("json"):
        with contextlib.suppress(ValueError):
            text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    return ["", f"--- {title} ({body.size} bytes{cut}, {body.content_type})", text]


def _timeline(record: TraceRecord) -> list[str]:
    if not record.events:
        return []
    lines = ["", f"stream timeline ({len(record.events)} events):"]
    for event in record.events:
        index = f"[{event.index}]" if event.index is not None else ""
        data = " ".join(event.data.split())
        data = data if len(data) <= _PREVIEW else data[: _PREVIEW - 3] + "..."
        side = "upstream" if event.side == "upstream_response" else "client"
        lines.append(
            f"  {event.t_ms:>10.3f} ms  {side:<8} {event.kind + index:<18} {event.name:<28} {data}".rstrip()
        )
    return lines


def render_trace(record: TraceRecord) -> str:
    """What ``trace show`` prints."""
    lines = _head(record) + _notes(record)
    for title, body in (
        ("client request", record.client_request),
        ("upstream request", record.upstream_request),
        ("upstream response", record.upstream_response),
        ("client response", record.client_response),
    ):
        lines += _body(title, body)
    return "\n".join(lines + _timeline(record)) + "\n"
