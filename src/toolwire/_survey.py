"""One walk over a request's history that tells which passes of a hop can change it.

:meth:`toolwire.translate.Exchange.request` runs several passes over every part of a
client's history between decoding and encoding: opening reasoning envelopes, restoring the
call ids we escaped, filling the ids of a Gemini client's results, tool shims, renaming.
Most histories need none of them (no reasoning part, no escaped id, no namespaced or custom
tool, no name to sanitize). :func:`survey` reads every part once and records what each pass
looks for, so that a pass that cannot change anything is skipped instead of walking the
history again. Each flag is the exact condition under which its pass changes a part: a
skipped pass returns what it would have returned.

=============  =================================================  ==============================
flag           set when a part is                                 the pass it gates
=============  =================================================  ==============================
``reasoning``  a reasoning part (envelope or not)                 ``opaque.open_request``
``escaped``    a call or result whose id holds ``--``             ``_pairing.restore_history_ids``
``idless``     a result without call id                           ``_pairing.fill_result_ids``
``spaced``     a call (not built-in) of a namespaced tool         ``ToolShims`` (flattening)
``custom``     a call or result of a custom tool                  ``ToolShims`` (custom tools)
``names``      a call or result naming a tool (not built-in):     ``_renaming.rename_request``
               its name, in order of first use
``parallel``   a second call (not built-in) in one message        ``_pairing.order_results``
=============  =================================================  ==============================
"""

from __future__ import annotations

from typing import final

from toolwire.ir.content import Message, ReasoningPart, ToolCall, ToolResult

__all__ = ["Survey", "survey"]


@final
class Survey:
    """What :func:`survey` found in a history (see the module docstring)."""

    __slots__ = ("custom", "escaped", "idless", "names", "parallel", "reasoning", "spaced")

    def __init__(self) -> None:
        self.reasoning = False
        self.escaped = False
        self.idless = False
        self.spaced = False
        self.custom = False
        self.parallel = False
        self.names: dict[str, None] = {}  # an ordered set: NameMap registers names in order of use


def survey(messages: tuple[Message, ...]) -> Survey:
    """The :class:`Survey` of ``messages``: every part read once."""
    found = Survey()
    names = found.names
    for message in messages:
        calls = 0
        for part in message.parts:
            kind = type(part)  # exact types: the IR part structs have no subclasses
            if kind is ToolCall:
                call: ToolCall = part  # type: ignore[assignment]
                call_id = call.id
                if call_id is not None and "--" in call_id:
                    found.escaped = True
                if call.kind != "function":
                    if call.kind == "builtin":
                        continue
                    found.custom = True
                if call.namespace is not None:
                    found.spaced = True
                names[call.name] = None
                calls += 1
                if calls == 2:
                    found.parallel = True
            elif kind is ToolResult:
                result: ToolResult = part  # type: ignore[assignment]
                call_id = result.call_id
                if call_id is None:
                    found.idless = True
                elif "--" in call_id:
                    found.escaped = True
                if result.kind != "function":
                    if result.kind == "builtin":
                        continue
                    found.custom = True
                if result.name is not None:
                    names[result.name] = None
            elif kind is ReasoningPart:
                found.reasoning = True
    return found
