"""What a call returns: the IR response together with the native payloads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Note
from toolwire.ir.response import Response
from toolwire.translate import Exchange

__all__ = ["Result"]


@dataclass(slots=True)
class Result:
    """One completed call.

    Attributes:
        response: the response in the canonical model (tool names restored when translated).
        raw: the provider's response body as received (its own wire format).
        request_body: the body that was sent, in the provider's format.
        status: the HTTP status.
        headers: the response headers.
        request_id: the provider's request id, when it sent one.
        notes: what the conversions dropped or approximated (request and response).
        attempts: how many HTTP attempts the call took.
    """

    response: Response
    raw: dict[str, Any]
    request_body: dict[str, Any]
    status: int
    headers: dict[str, str]
    request_id: str | None = None
    notes: list[Note] = field(default_factory=list)
    attempts: int = 1
    exchange: Exchange | None = None

    @property
    def payload(self) -> dict[str, Any]:
        """The response in the format of the request that was passed in (``raw`` when the same)."""
        if self.exchange is None:
            return self.raw
        return self.exchange.response(self.raw)

    @property
    def text(self) -> str:
        """All text of the response."""
        return self.response.text

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls of the response, in order."""
        return list(self.response.tool_calls)
