"""A tool loop through stateless hops: a client that echoes its own history, an upstream that
checks what it is sent, and one :class:`~toolwire.translate.Exchange` per turn.

The client speaks its own wire format only: it offers the tool kinds its format has (Responses:
a ``custom`` tool and two ``namespace`` tools with a tool of the same name; Chat: a ``custom``
tool; the others: function tools), appends each response to its history exactly as received and
answers the calls out of order. The upstream decodes each request with its own codec, checks it
with :func:`toolwire.validate`, checks that every result answers a call of the turn before (for
Gemini: the ``functionResponse`` at position k answers the ``functionCall`` at position k, with
the same ``id``), and answers with two parallel calls in its own style (Gemini: no call ids;
Chat: ids with ``.`` and ``:``, which Anthropic rejects).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import httpx

from toolwire._json import dumps
from toolwire.formats._stream import WireEvent
from toolwire.ir import CustomTool, Message, Notes, Response, TextPart, ToolCall, ToolResult, Usage
from toolwire.ir.accumulate import accumulate
from toolwire.ir.stream import PartEnd, PartStart, ResponseEnd, ResponseStart, StreamEvent, ToolCallDelta
from toolwire.streaming import WireReader, check_stream, stream_decoder, stream_encoder
from toolwire.translate import Exchange, format_module
from toolwire.validate import validate

__all__ = [
    "REASONING",
    "TOOLS",
    "UPSTREAM_PATHS",
    "Client",
    "Upstream",
    "client_stream_body",
    "post_upstream",
    "relay",
    "run_loop",
]

_USAGE = Usage(input_tokens=20, output_tokens=10)
_PARAMS = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
PATCH = '*** Begin Patch\n*** Add File: a.txt\n+caf\u00e9 "quoted" \\ done\n*** End Patch\n'


def _responses_tools() -> list[dict[str, Any]]:
    read = {"type": "function", "name": "read", "description": "Read a file.", "parameters": _PARAMS}
    return [
        {
            "type": "custom",
            "name": "apply_patch",
            "description": "Apply a patch.",
            "format": {"type": "text"},
        },
        {"type": "namespace", "name": "mcp__alpha", "description": "Server alpha.", "tools": [read]},
        {"type": "namespace", "name": "mcp__beta", "description": "Server beta.", "tools": [read]},
    ]


_FUNCTION = {"name": "read", "description": "Read a file.", "parameters": _PARAMS}
TOOLS: dict[str, list[dict[str, Any]]] = {
    "openai-responses": _responses_tools(),
    "openai-chat": [
        {"type": "custom", "custom": {"name": "apply_patch", "description": "Apply a patch."}},
        {"type": "function", "function": _FUNCTION},
    ],
    "anthropic": [
        {"name": "apply_patch", "description": "Apply a patch.", "input_schema": _PARAMS},
        {"name": "read", "description": "Read a file.", "input_schema": _PARAMS},
    ],
    "gemini": [{"functionDeclarations": [{**_FUNCTION, "name": "apply_patch"}, _FUNCTION]}],
    "bedrock-converse": [
        {
            "toolSpec": {
                "name": "apply_patch",
                "description": "Apply a patch.",
                "inputSchema": {"json": _PARAMS},
            }
        },
        {"toolSpec": {"name": "read", "description": "Read a file.", "inputSchema": {"json": _PARAMS}}},
    ],
}
"""The tools each client offers, in its own format."""

REASONING: dict[str, dict[str, Any]] = {
    "openai-responses": {
        "max_output_tokens": 4096,
        "reasoning": {"effort": "high", "summary": "auto"},
        "include": ["reasoning.encrypted_content"],
        "store": False,
    },
    "openai-chat": {"max_completion_tokens": 4096, "reasoning_effort": "high"},
    "anthropic": {"max_tokens": 4096, "thinking": {"type": "enabled", "budget_tokens": 2048}},
    "gemini": {
        "generationConfig": {
            "maxOutputTokens": 4096,
            "thinkingConfig": {"includeThoughts": True, "thinkingLevel": "HIGH"},
        }
    },
    "bedrock-converse": {
        "inferenceConfig": {"maxTokens": 4096},
        "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 2048}},
    },
}
"""What a client with reasoning on adds to each request, as its SDK sends it (Responses: the
encrypted reasoning items asked for, as Codex does; room for a thinking budget below the output
limit, which Anthropic requires)."""


@dataclass
class Client:
    """A client of format ``fmt``: its wire history, and every call it was given."""

    fmt: str
    history: list[dict[str, Any]] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    reasoning: bool = False

    def request(self) -> dict[str, Any]:
        """The next request body, the whole history echoed (with :data:`REASONING` when on)."""
        body = self._body(TOOLS[self.fmt])
        return {**body, **REASONING[self.fmt]} if self.reasoning else body

    def _body(self, tools: list[dict[str, Any]]) -> dict[str, Any]:
        if self.fmt == "openai-responses":
            return {"model": "m", "input": self.history, "tools": tools, "max_output_tokens": 900}
        if self.fmt == "openai-chat":
            return {"model": "m", "messages": self.history, "tools": tools, "max_completion_tokens": 900}
        if self.fmt == "anthropic":
            return {"model": "m", "messages": self.history, "tools": tools, "max_tokens": 900}
        if self.fmt == "bedrock-converse":  # the model is in the URL
            return {
                "messages": self.history,
                "toolConfig": {"tools": tools},
                "inferenceConfig": {"maxTokens": 900},
            }
        return {"contents": self.history, "tools": tools, "generationConfig": {"maxOutputTokens": 900}}

    def say(self, text: str) -> None:
        """A user turn."""
        if self.fmt == "openai-responses":
            self.history.append({"role": "user", "content": text})
        elif self.fmt == "gemini":
            self.history.append({"role": "user", "parts": [{"text": text}]})
        elif self.fmt == "bedrock-converse":
            self.history.append({"role": "user", "content": [{"text": text}]})
        else:
            self.history.append({"role": "user", "content": text})

    def take(self, body: dict[str, Any]) -> list[ToolCall]:
        """Echo a response into the history exactly as received; its calls (decoded)."""
        if self.fmt == "openai-responses":
            self.history.extend(body["output"])
        elif self.fmt == "openai-chat":
            self.history.append(body["choices"][0]["message"])
        elif self.fmt == "anthropic":
            self.history.append({"role": "assistant", "content": body["content"]})
        elif self.fmt == "bedrock-converse":
            self.history.append(body["output"]["message"])
        else:
            self.history.append(body["candidates"][0]["content"])
        response = format_module(self.fmt).decode_response(body, Notes("strict"))
        calls = [p for p in response.parts if isinstance(p, ToolCall)]
        self.calls.extend(calls)
        return calls

    def answer(self, calls: list[ToolCall]) -> None:
        """Results of ``calls``, in reverse order (a client that finishes the last call first)."""
        answers = [(call, f"result of {call.namespace or ''}/{call.name}") for call in reversed(calls)]
        if self.fmt == "openai-responses":
            for call, text in answers:
                kind = "custom_tool_call_output" if call.kind == "custom" else "function_call_output"
                self.history.append({"type": kind, "call_id": call.id, "output": text})
        elif self.fmt == "openai-chat":
            self.history += [{"role": "tool", "tool_call_id": c.id, "content": t} for c, t in answers]
        elif self.fmt == "anthropic":
            blocks = [{"type": "tool_result", "tool_use_id": c.id, "content": t} for c, t in answers]
            self.history.append({"role": "user", "content": blocks})
        elif self.fmt == "bedrock-converse":
            results = [{"toolResult": {"toolUseId": c.id, "content": [{"text": t}]}} for c, t in answers]
            self.history.append({"role": "user", "content": results})
        else:
            parts = [
                {"functionResponse": {"name": c.name, "id": c.id, "response": {"output": t}}}
                for c, t in answers
            ]
            self.history.append({"role": "user", "parts": parts})


@dataclass
class Upstream:
    """The upstream provider of format ``fmt``: checks each request, answers two calls."""

    fmt: str
    turn: int = 0
    requests: list[dict[str, Any]] = field(default_factory=list)
    custom: set[str] = field(default_factory=set)
    issued: set[str] = field(default_factory=set)

    def check(self, body: dict[str, Any]) -> list[str]:
        """Check a request as the provider would; the tool names it offers."""
        assert validate(body, format=self.fmt) == [], validate(body, format=self.fmt)
        self.requests.append(body)
        ir = format_module(self.fmt).decode_request(body, Notes("drop"), model="m")
        self.custom = {t.name for t in ir.tools if isinstance(t, CustomTool)}
        _check_pairing(ir.messages, self.fmt)
        echoed = {p.id for m in ir.messages for p in m.parts if isinstance(p, ToolCall)}
        if self.fmt != "gemini":  # the history says the ids this upstream made, byte for byte
            assert echoed == self.issued, (echoed, self.issued)
        if self.fmt == "gemini":
            _check_gemini_positions(body)
        return [t.name for t in ir.tools]

    def answer(self, tools: list[str], final: bool) -> Response:
        """The IR of this turn's answer: text at the end, else two calls of different tools."""
        self.turn += 1
        rid = f"resp_{self.fmt}_{self.turn}"
        if final:
            return Response(
                id=rid, model="m", parts=(TextPart(text="done"),), stop_reason="end_turn", usage=_USAGE
            )
        picks = [tools[(self.turn + k) % len(tools)] for k in range(2)]
        calls = tuple(self._call(name, k) for k, name in enumerate(picks))
        self.issued |= {c.id for c in calls if c.id is not None}
        return Response(id=rid, model="m", parts=calls, stop_reason="tool_calls", usage=_USAGE)

    def _call(self, name: str, k: int) -> ToolCall:
        ids = {
            "gemini": None,
            "openai-chat": f"call.{self.turn}:{k}",
            "anthropic": f"toolu_{self.turn}_{k}",
            "bedrock-converse": f"tooluse_{self.turn}_{k}",
        }
        call_id = ids.get(self.fmt, f"call_{self.turn}_{k}")
        if name in self.custom:  # the upstream has custom tools of its own
            return ToolCall(name=name, arguments=PATCH, kind="custom", id=call_id)
        arguments = dumps({"input": PATCH} if "apply_patch" in name else {"path": f"f{k}"}).decode()
        return ToolCall(name=name, arguments=arguments, id=call_id)

    def body(self, response: Response) -> dict[str, Any]:
        """``response`` as the upstream's JSON body."""
        out: dict[str, Any] = format_module(self.fmt).encode_response(response, Notes("drop"))
        return out

    def stream(self, response: Response) -> list[WireEvent]:
        """``response`` as the upstream's stream (arguments in small deltas)."""
        encoder = stream_encoder(self.fmt, Notes("drop"))
        out: list[WireEvent] = []
        for event in _events(response):
            out += encoder.feed(event)
        return out + encoder.close()


def _events(response: Response) -> list[StreamEvent]:
    events: list[StreamEvent] = [ResponseStart(id=response.id, model=response.model, origin=None)]
    for index, part in enumerate(response.parts):
        if isinstance(part, ToolCall):
            events.append(PartStart(index, ToolCall(name=part.name, id=part.id, kind=part.kind)))
            text = part.arguments
            events += [ToolCallDelta(index, text[i : i + 7]) for i in range(0, len(text), 7)]
            events.append(PartEnd(index, part))
        else:
            events += [PartStart(index, part), PartEnd(index, part)]
    return [*events, ResponseEnd(stop_reason=response.stop_reason, usage=response.usage)]


def _check_pairing(messages: tuple[Message, ...], fmt: str) -> None:
    """Every result answers a call of the assistant turn before it, and call ids are unique."""
    seen: set[str] = set()
    open_calls: set[str] = set()
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCall):
                assert part.id is not None and part.id not in seen, f"{fmt}: call id {part.id!r} repeats"
                seen.add(part.id)
                open_calls.add(part.id)
            elif isinstance(part, ToolResult):
                assert part.call_id in open_calls, f"{fmt}: result {part.call_id!r} answers no open call"
                open_calls.discard(part.call_id)
    assert not open_calls or messages[-1].role == "assistant"


def _check_gemini_positions(body: dict[str, Any]) -> None:
    contents = body["contents"]
    for before, after in itertools.pairwise(contents):
        calls = [p["functionCall"] for p in before["parts"] if "functionCall" in p]
        results = [p["functionResponse"] for p in after["parts"] if "functionResponse" in p]
        if calls and results:
            assert [(c["name"], c["id"]) for c in calls] == [(r["name"], r["id"]) for r in results]


def client_stream_body(fmt: str, events: list[WireEvent]) -> dict[str, Any]:
    """What a streaming client makes of the events: checked, decoded, accumulated."""
    assert check_stream(fmt, events) == [], check_stream(fmt, events)
    decoder = stream_decoder(fmt, Notes("strict"))
    ir_events = [e for event in events for e in decoder.feed(event)] + decoder.close()
    body: dict[str, Any] = format_module(fmt).encode_response(accumulate(ir_events), Notes("drop"))
    return body


UPSTREAM_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
}
"""Where each format's requests go on the emulator (Gemini: the model is in the URL)."""


def post_upstream(
    http: httpx.Client, url: str, upstream: str, body: dict[str, Any], *, stream: bool, model: str
) -> httpx.Response:
    """POST ``body`` to the emulator at ``url`` as a client of ``upstream`` would."""
    if upstream == "gemini":
        method = "streamGenerateContent?alt=sse" if stream else "generateContent"
        target = f"{url}/v1beta/models/{model}:{method}"
    else:
        target = url + UPSTREAM_PATHS[upstream]
        body = {**body, "stream": True} if stream else body
    headers = {"anthropic-version": "2023-06-01"} if upstream == "anthropic" else {}
    return http.post(target, json=body, headers=headers)


def relay(ex: Exchange, client_fmt: str, answer: httpx.Response, *, stream: bool) -> dict[str, Any]:
    """The client's view of an upstream answer through ``ex``: a stream is relayed as bytes
    with ``stream_frames``, then checked and accumulated as the client would."""
    if not stream:
        out: dict[str, Any] = ex.response(answer.json())
        return out
    reader = WireReader()
    data = b"".join(ex.stream_frames(e) for e in reader.feed(answer.content) + reader.close())
    client_reader = WireReader()
    events = client_reader.feed(data + ex.stream_close_frames()) + client_reader.close()
    return client_stream_body(client_fmt, events)


def run_loop(client_fmt: str, upstream_fmt: str, *, streamed: bool = False, frames: bool = False) -> Client:
    """Three turns (two with parallel calls, one final answer), one Exchange per turn."""
    client, upstream = Client(client_fmt), Upstream(upstream_fmt)
    client.say("Fix the bug.")
    for turn in range(3):
        ex = Exchange(client_fmt, upstream_fmt, policy="strict", client_model="m")  # Gemini: from the URL
        tools = upstream.check(ex.request(client.request()))
        answer = upstream.answer(tools, final=turn == 2)
        if not streamed:
            body = ex.response(upstream.body(answer))
        elif frames:
            data = b"".join(ex.stream_frames(e) for e in upstream.stream(answer)) + ex.stream_close_frames()
            reader = WireReader()
            body = client_stream_body(client_fmt, reader.feed(data) + reader.close())
        else:
            events = [out for e in upstream.stream(answer) for out in ex.stream(e)] + ex.stream_close()
            body = client_stream_body(client_fmt, events)
        calls = client.take(body)
        if calls:
            client.answer(calls)
    return client
