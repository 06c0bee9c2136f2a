"""``toolwire demo --gateway``: the official OpenAI SDK through the gateway to an Anthropic upstream.

Starts the built-in emulator and the gateway in front of it (OpenAI clients in, Anthropic
Messages upstream), then runs one tool loop with the ``openai`` package's own client: the model
calls ``get_weather``, the demo runs it, sends the result back, and the model's answer quotes
it. Each turn prints what the client sent, what the gateway sent upstream, what the upstream
answered and what the client got back. The gateway traces both calls into the default store
(``sqlite://``, or ``store``), so ``toolwire trace ls`` and the gateway's ``/ui`` pages show them
at once; the demo says where. Offline; takes a second or two.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

__all__ = ["run_gateway_demo"]

_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "City name."}},
                "required": ["city"],
            },
        },
    }
]


@dataclass
class _Wire:
    """What crossed one side of the gateway: (request body, response body) per call."""

    calls: list[tuple[Any, Any]] = field(default_factory=list)


def _recording_transport(wire: _Wire) -> Any:
    import httpx

    class Recording(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self._inner = httpx.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await self._inner.handle_async_request(request)
            body = b"".join([chunk async for chunk in response.stream])  # type: ignore[union-attr]
            wire.calls.append((json.loads(request.content), json.loads(body)))
            return httpx.Response(response.status_code, headers=response.headers, content=body)

    return Recording()


def _dump(out: TextIO, title: str, body: Any) -> None:
    out.write(f"--- {title}\n{json.dumps(body, indent=2, ensure_ascii=False)}\n")


_TRACE_WAIT = 30.0
"""Seconds the demo waits for the gateway's trace writer to keep its two traces."""


def _traces_kept(app: Any, count: int) -> int:
    """How many traces the app wrote, once it wrote ``count`` (or the wait ran out)."""
    deadline = time.monotonic() + _TRACE_WAIT
    while app.metrics.traces["written"] < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return int(app.metrics.traces["written"])


def _where(out: TextIO, store: str, kept: int) -> None:
    from toolwire.store import default_sqlite_path, redact

    shown = redact(store) if "@" in store else store  # redact() would also respell sqlite://
    path = f" ({default_sqlite_path()})" if store in ("sqlite://", "sqlite:") else ""
    option = "" if store == "sqlite://" else f" --store {shown}"
    out.write(f"\ntraces: {kept} calls kept in {shown}{path}\n")
    out.write(f"  list them:   toolwire trace ls{option}\n")
    out.write(f"  browse them: toolwire serve --trace{option}, then open http://127.0.0.1:8080/ui\n")


def run_gateway_demo(out: TextIO, store: str = "sqlite://") -> str:
    """Run the demo, printing to ``out``; returns the model's final answer.

    Args:
        out: where to print.
        store: the store URL the gateway's traces go to.
    """
    import httpx
    import openai

    from toolwire.emulator import serve
    from toolwire.gateway import HopConfig, TraceConfig, create_app

    client_wire, upstream_wire = _Wire(), _Wire()
    with serve(log_level="critical") as emulator:
        config = replace(
            HopConfig.single("anthropic", emulator), store=store, trace=TraceConfig(enabled=True)
        )
        app = create_app(config, transport=_recording_transport(upstream_wire))
        with serve(app, log_level="critical") as gateway:
            out.write(f"emulator (Anthropic Messages upstream) on {emulator}\ngateway on {gateway}\n")

            def record(response: httpx.Response) -> None:
                response.read()
                client_wire.calls.append((json.loads(response.request.content), response.json()))

            http = httpx.Client(event_hooks={"response": [record]})
            sdk = openai.OpenAI(base_url=f"{gateway}/v1", api_key="demo-key", http_client=http)  # type: ignore[arg-type]
            messages: list[Any] = [{"role": "user", "content": "What's the weather in Paris?"}]
            first = sdk.chat.completions.create(model="gpt-4o", messages=messages, tools=_TOOLS)  # type: ignore[arg-type]
            call: Any = first.choices[0].message.tool_calls[0]  # type: ignore[index]
            result = {"city": "Paris", "temperature": 18, "sky": "sunny"}
            messages += [
                first.choices[0].message.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)},
            ]
            final = sdk.chat.completions.create(model="gpt-4o", messages=messages, tools=_TOOLS)  # type: ignore[arg-type]
            http.close()
            kept = _traces_kept(app, 2)
    for turn, (client, upstream) in enumerate(zip(client_wire.calls, upstream_wire.calls, strict=True), 1):
        out.write(f"\n=== turn {turn}: openai-chat client -> gateway -> anthropic upstream ===\n")
        _dump(out, "client sent (OpenAI Chat)", client[0])
        _dump(out, "gateway sent upstream (Anthropic Messages)", upstream[0])
        _dump(out, "upstream answered (Anthropic Messages)", upstream[1])
        _dump(out, "client got back (OpenAI Chat)", client[1])
    _where(out, store, kept)
    answer = final.choices[0].message.content or ""
    out.write(
        f"\ntool call: {call.function.name}({call.function.arguments}) id={call.id}\nanswer: {answer}\n"
    )
    return answer
