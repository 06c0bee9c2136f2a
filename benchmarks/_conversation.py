"""A realistic tool-calling conversation for the conversion benchmark.

Six turns (three user, three assistant) after a system prompt, five tools, two tool calls
answered by two tool results, plus an Anthropic response that calls a tool.
"""

from __future__ import annotations

import json
from typing import Any

from benchmarks._payloads import chat_tools

__all__ = ["anthropic_response", "chat_request"]

_SYSTEM = (
    "You are the support assistant of an online shop. Use the tools to look up orders, "
    "shipments and refunds. Answer briefly and cite order numbers exactly."
)


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def chat_request() -> dict[str, Any]:
    """An OpenAI Chat request: system prompt, 6 turns, 5 tools, 2 calls and their results."""
    tools = chat_tools(5, seed=11)
    first, second = (t["function"]["name"] for t in tools[:2])
    order = {
        "order_id": "A-1042",
        "status": "shipped",
        "items": [{"sku": "KB-7", "qty": 1, "price": 89.0}, {"sku": "MS-2", "qty": 2, "price": 19.5}],
        "carrier": "DHL",
        "tracking": "JD014600003812345678",
    }
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": _SYSTEM},
            {"role": "user", "content": "Hi, where is my order A-1042? It was due yesterday."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call("call_Xk2T9mQ", first, {"order_name": "A-1042", "verbose": True})],
            },
            {"role": "tool", "tool_call_id": "call_Xk2T9mQ", "content": json.dumps(order)},
            {
                "role": "assistant",
                "content": "Order A-1042 shipped with DHL (tracking JD014600003812345678). "
                "It contains a keyboard and two mice.",
            },
            {"role": "user", "content": "Thanks. Can I get a refund for one of the mice?"},
            {
                "role": "assistant",
                "content": "Let me check the refund options for that item.",
                "tool_calls": [
                    _call("call_P0r4Lw8", second, {"order_name": "A-1042", "sku": "MS-2", "qty": 1})
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "call_P0r4Lw8",
                "content": json.dumps({"eligible": True, "amount": 19.5, "currency": "EUR", "days_left": 12}),
            },
            {
                "role": "assistant",
                "content": "Yes: one mouse (MS-2) is eligible for a refund of 19.50 EUR within 12 days.",
            },
            {"role": "user", "content": "Great, please start the refund and email me the label."},
        ],
        "tools": tools,
        "tool_choice": "auto",
        "temperature": 0.2,
        "max_completion_tokens": 1024,
    }


def anthropic_response(tool_name: str) -> dict[str, Any]:
    """An Anthropic Messages response with text and a ``tool_use`` block, with cache usage."""
    return {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [
            {"type": "text", "text": "I'll start the refund for one MS-2 mouse on order A-1042 now."},
            {
                "type": "tool_use",
                "id": "toolu_01A09q90qw90lq917835lq9",
                "name": tool_name,
                "input": {"order_name": "A-1042", "sku": "MS-2", "qty": 1, "notify": "email"},
            },
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 1287,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 1024,
            "output_tokens": 94,
        },
    }
