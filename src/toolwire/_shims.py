"""Tool kinds an upstream lacks: approximated on the way up, restored on the way back.

An :class:`~toolwire.translate.Exchange` whose upstream lacks a tool kind of its client
approximates it, and :class:`ToolShims` remembers how, so that the response, the stream and the
client's echo of both on the next turn are put back exactly:

==================  ====================  ==============================================
client has          upstream lacks it     sent upstream as
==================  ====================  ==============================================
``custom`` tool     anthropic, gemini     a function tool with one string property
                                          ``input``; calls as ``{"input": text}``,
                                          results as function results
``namespace`` tool  all but Responses     a function named ``<namespace>__<name>``
                                          (plus ``_<hash>`` when two flattened names or a
                                          flattened and a plain name would meet), then
                                          sanitized for the target like any name
==================  ====================  ==============================================

The flattened names depend only on the request's tools (in order), so two stateless gateways
flatten alike. Reversible approximations are ``info`` notes; what cannot be undone (a grammar
the upstream does not enforce, a custom call answered without an ``input`` string) is a loss
note, so ``policy="strict"`` refuses it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError
from toolwire.formats.openai_responses.tools import NAMESPACE
from toolwire.ir.base import Format
from toolwire.ir.content import Message, Part, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.tools import AnyTool, CustomTool, Tool, ToolChoice

__all__ = ["INPUT_SCHEMA", "NATIVE_CUSTOM", "NATIVE_NAMESPACE", "Origin", "ToolShims", "custom_input"]

NATIVE_CUSTOM: frozenset[str] = frozenset({"openai-chat", "openai-responses"})
"""Formats with free-form (``custom``) tools of their own."""

NATIVE_NAMESPACE: frozenset[str] = frozenset({"openai-responses"})
"""Formats with ``namespace`` tools of their own."""

INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"input": {"type": "string"}},
    "required": ["input"],
}
"""Arguments schema of a custom tool sent as a function tool."""

_SEP = "__"
_NAMED = (ToolCall, ToolResult)
"""The part types a shim may change (tool calls and results)."""


@dataclass(frozen=True, slots=True)
class Origin:
    """What the client called a tool that the upstream knows under another name or kind."""

    name: str
    namespace: str | None = None
    custom: bool = False


def _digest(text: str) -> str:
    return hashlib.blake2s(text.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()


def custom_input(arguments: str) -> str | None:
    """The text of a custom call sent as ``{"input": text}`` arguments, or ``None`` if not that shape."""
    try:
        parsed = loads(arguments) if arguments else None
    except PayloadError:
        return None
    if type(parsed) is dict and len(parsed) == 1 and type(parsed.get("input")) is str:
        return str(parsed["input"])
    return None


class ToolShims:
    """The approximations of one request's tools for ``upstream``, and their reversal.

    Example:
        >>> shims = ToolShims("anthropic")
        >>> shims.flat_name("mcp", "read")
        'mcp__read'
        >>> shims.origin("mcp__read")
        Origin(name='read', namespace='mcp', custom=False)
    """

    __slots__ = ("_flat", "_ns_text", "_origins", "_plain", "custom", "flatten", "upstream")

    def __init__(self, upstream: Format) -> None:
        self.upstream: Format = upstream
        self.custom = upstream not in NATIVE_CUSTOM
        self.flatten = upstream not in NATIVE_NAMESPACE
        self._flat: dict[tuple[str, str], str] = {}
        self._origins: dict[str, Origin] = {}
        self._plain: set[str] = set()
        self._ns_text: dict[str, str] = {}  # namespace -> its description, carried by its tools

    @property
    def active(self) -> bool:
        """Whether any tool was approximated (so responses need restoring)."""
        return bool(self._origins)

    @property
    def restores_custom(self) -> bool:
        """Whether some upstream call may turn back into a custom call (its final part matters)."""
        return any(origin.custom for origin in self._origins.values())

    def origin(self, name: str) -> Origin | None:
        """The client's view of the (unsanitized) upstream name ``name``, when it was approximated."""
        return self._origins.get(name)

    def flat_name(self, namespace: str, name: str) -> str:
        """The flattened name of tool ``name`` of ``namespace`` (registered on first use)."""
        key = (namespace, name)
        flat = self._flat.get(key)
        if flat is None:
            flat = f"{namespace}{_SEP}{name}"
            if flat in self._plain or flat in self._origins:
                flat = f"{flat}_{_digest(namespace + chr(0) + name)}"
            self._flat[key] = flat
            self._origins[flat] = Origin(name, namespace)
        return flat

    def _name(self, name: str, namespace: str | None, custom: bool) -> str:
        """The upstream (unsanitized) name of a tool or call, registering its origin."""
        flat = self.flat_name(namespace, name) if namespace is not None and self.flatten else name
        if custom and self.custom:
            known = self._origins.get(flat)
            ns = namespace if self.flatten else None
            if known is None or not known.custom:
                self._origins[flat] = Origin(name, ns, custom=True)
        return flat

    def register(self, tools: tuple[AnyTool, ...]) -> None:
        """Learn the plain names first, so that a flattened name never takes one."""
        for tool in tools:
            if not isinstance(tool, (Tool, CustomTool)):
                continue
            if tool.namespace is None or not self.flatten:
                self._plain.add(tool.name)
            wrapper = tool.extra.get(NAMESPACE)
            if isinstance(wrapper, dict) and isinstance(wrapper.get("description"), str) and tool.namespace:
                self._ns_text[tool.namespace] = wrapper["description"]

    def request(self, ir: Request, notes: Notes, *, touched: bool = True) -> Request:
        """``ir`` with custom and namespaced tools, calls and results in the upstream's terms.

        ``touched=False``: the caller knows that no call or result of the history is namespaced
        or custom (:mod:`toolwire._survey`), so the history is not walked.
        """
        if not (self.custom or self.flatten):
            return ir
        if not touched and not any(map(self._reshapes, ir.tools)):
            return ir  # nothing to approximate: no walk, no path built
        self.register(ir.tools)
        tools = tuple(self._tool(tool, notes, f"$.tools[{i}]") for i, tool in enumerate(ir.tools))
        messages = self._messages(ir.messages, notes) if touched else ir.messages
        choice = self._choice(ir.tool_choice, ir.tools)
        if tools == ir.tools and messages == ir.messages and choice is ir.tool_choice:
            return ir
        return msgspec.structs.replace(ir, tools=tools, messages=messages, tool_choice=choice)

    def _reshapes(self, tool: AnyTool) -> bool:
        """Whether :meth:`_tool` changes ``tool`` (the same conditions, without building it)."""
        if not isinstance(tool, (Tool, CustomTool)):
            return False
        return (self.custom and isinstance(tool, CustomTool)) or (self.flatten and tool.namespace is not None)

    def _tool(self, tool: AnyTool, notes: Notes, path: str) -> AnyTool:
        if not isinstance(tool, (Tool, CustomTool)):
            return tool
        custom = isinstance(tool, CustomTool) and self.custom
        if not custom and (tool.namespace is None or not self.flatten):
            return tool
        name = self._name(tool.name, tool.namespace, isinstance(tool, CustomTool))
        if name != tool.name:
            message = f"tool {tool.name!r} of namespace {tool.namespace!r} sent as {name!r}"
            notes.info(f"{path}.name", "renamed", message)
        description = self._described(tool, notes, path)
        if not custom:
            return msgspec.structs.replace(tool, name=name, namespace=None, description=description)
        assert isinstance(tool, CustomTool)
        fmt = tool.format or {}
        if fmt.get("type", "text") != "text":
            notes.add(
                f"{path}.format",
                "approximated",
                f"{self.upstream} does not enforce the {fmt.get('syntax', fmt.get('type'))!r} grammar "
                f"of custom tool {tool.name!r}",
            )
        message = f"custom tool {tool.name!r} sent as a function with one 'input' string"
        notes.info(path, "approximated", message)
        return Tool(name=name, description=description, parameters=INPUT_SCHEMA, extra=tool.extra)

    def _described(self, tool: Tool | CustomTool, notes: Notes, path: str) -> str | None:
        """The description a flattened tool goes with: its namespace's description comes first, so
        the model still reads it (a namespace has no place upstream); its other fields are a loss."""
        _note_namespace_fields(tool, notes, path)
        text = self._ns_text.get(tool.namespace or "") if self.flatten else None
        if text is None:
            return tool.description
        notes.info(
            f"{path}.description", "approximated", f"namespace {tool.namespace!r} description prepended"
        )
        return f"{text}\n\n{tool.description}" if tool.description else text

    def _messages(self, messages: tuple[Message, ...], notes: Notes) -> tuple[Message, ...]:
        """``messages`` in the upstream's terms; the same tuple when no part needs a change
        (most histories: a part is only looked at, no path is built, nothing is copied)."""
        out: list[Message] | None = None
        touches = self._touches
        for index, message in enumerate(messages):
            for part in message.parts:
                if type(part) in _NAMED and touches(part):  # text and the like: not even called
                    break
            else:
                continue
            new = self._message(message, notes, f"$.messages[{index}]")
            if new is not message:
                if out is None:
                    out = list(messages)
                out[index] = new
        return messages if out is None else tuple(out)

    def _touches(self, part: Part) -> bool:
        """Whether :meth:`_part` changes ``part`` (the same conditions, without building it)."""
        if isinstance(part, ToolCall):
            if part.kind == "builtin":
                return False
            return (part.namespace is not None and self.flatten) or (part.kind == "custom" and self.custom)
        return isinstance(part, ToolResult) and part.kind == "custom" and self.custom

    def _message(self, message: Message, notes: Notes, path: str) -> Message:
        parts = tuple(self._part(p, notes, f"{path}.parts[{i}]") for i, p in enumerate(message.parts))
        return message if parts == message.parts else msgspec.structs.replace(message, parts=parts)

    def _part(self, part: Part, notes: Notes, path: str) -> Part:
        if isinstance(part, ToolCall) and part.kind != "builtin":
            return self._call(part, notes, path)
        if isinstance(part, ToolResult) and part.kind == "custom" and self.custom:
            notes.info(path, "approximated", "custom tool output sent as a function result")
            name = self._name(part.name, None, True) if part.name is not None else None
            return msgspec.structs.replace(part, kind="function", name=name)
        return part

    def _call(self, call: ToolCall, notes: Notes, path: str) -> ToolCall:
        custom = call.kind == "custom" and self.custom
        if (call.namespace is None or not self.flatten) and not custom:
            return call
        name = self._name(call.name, call.namespace, call.kind == "custom")
        changes: dict[str, Any] = {"name": name}
        if call.namespace is not None and self.flatten:
            changes["namespace"] = None
        if custom:
            notes.info(path, "approximated", f"custom call of {call.name!r} sent as a function call")
            changes.update(kind="function", arguments=dumps({"input": call.arguments}).decode())
        return msgspec.structs.replace(call, **changes)

    def _choice(self, choice: ToolChoice | None, tools: tuple[AnyTool, ...]) -> ToolChoice | None:
        if choice is None or not self.flatten:
            return choice
        spaced = {
            t.name: self._flat[(t.namespace, t.name)]
            for t in tools
            if isinstance(t, (Tool, CustomTool)) and t.namespace is not None and t.name not in self._plain
        }
        if not spaced:
            return choice

        def rename(name: str) -> str:
            return spaced.get(name, name)

        name = rename(choice.name) if choice.name is not None else None
        allowed = tuple(rename(n) for n in choice.allowed) if choice.allowed is not None else None
        return msgspec.structs.replace(choice, name=name, allowed=allowed)

    def restore_call(
        self,
        call: ToolCall,
        unsanitize: Callable[[str], str],
        notes: Notes,
        path: str,
    ) -> ToolCall:
        """``call`` (an upstream call) as the client offered the tool: name, namespace and kind.

        Empty arguments (a streamed call's start, or a Gemini call without ``args``) give empty
        input text.
        """
        if call.kind == "builtin":
            return call
        flat = unsanitize(call.name)
        origin = self._origins.get(flat)
        if origin is None:
            return call if flat == call.name else msgspec.structs.replace(call, name=flat)
        changes: dict[str, Any] = {"name": origin.name, "namespace": origin.namespace}
        if origin.custom and call.kind != "custom":
            text = custom_input(call.arguments) if call.arguments else ""
            if text is None:
                notes.add(
                    f"{path}.arguments",
                    "approximated",
                    f"call of custom tool {origin.name!r} has no 'input' string; its arguments sent as input",
                )
                text = call.arguments
            changes.update(kind="custom", arguments=text)
        return msgspec.structs.replace(call, **changes)


def _note_namespace_fields(tool: Tool | CustomTool, notes: Notes, path: str) -> None:
    """A flattened namespace's own fields other than its name and description: a loss."""
    wrapper = tool.extra.get(NAMESPACE)
    if not isinstance(wrapper, dict):
        return
    for key in sorted(k for k in wrapper if k not in ("type", "name", "description")):
        message = f"namespace {tool.namespace!r} field {key!r} has no equivalent once flattened"
        notes.add(f"{path}.namespace.{key}", "dropped", message)
