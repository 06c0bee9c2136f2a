"""Scripted turns: a file that dictates exactly what the emulated model answers.

A script is a JSON or YAML file holding a list of turns (or ``{"turns": [...]}``). Turn ``n``
answers the request whose history holds ``n`` assistant turns, so the server stays stateless::

    turns:
      - reasoning: Need the weather first.      # optional
        tool_calls:
          - name: get_weather
            arguments: {city: Paris}           # an object, or the raw argument text
      - text: It is sunny in Paris.

Requests past the end of the script get the default scripted behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire._json import dumps_str, loads
from toolwire.errors import PayloadError

__all__ = ["Script", "ScriptedCall", "Turn", "load_script", "parse_script"]


@dataclass(frozen=True, slots=True)
class ScriptedCall:
    """One tool call of a turn: the tool name, the raw argument text, and the namespace of a
    Responses ``namespace`` tool (the model calls it by name within its namespace)."""

    name: str
    arguments: str
    namespace: str | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One assistant turn: optional reasoning, optional text, tool calls in order."""

    text: str | None = None
    reasoning: str | None = None
    tool_calls: tuple[ScriptedCall, ...] = ()


@dataclass(frozen=True, slots=True)
class Script:
    """An ordered list of turns."""

    turns: tuple[Turn, ...]

    def turn(self, index: int) -> Turn | None:
        """The turn answering a history with ``index`` assistant turns, if scripted."""
        return self.turns[index] if 0 <= index < len(self.turns) else None


def _opt_str(obj: dict[str, Any], key: str, path: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise PayloadError("expected a string", path=f"{path}.{key}")
    return value


def _call(raw: Any, path: str) -> ScriptedCall:
    if not isinstance(raw, dict):
        raise PayloadError("expected an object with 'name' and 'arguments'", path=path)
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise PayloadError("missing tool name", path=f"{path}.name")
    args = raw.get("arguments", {})
    if not isinstance(args, str):
        if not isinstance(args, dict):
            raise PayloadError("expected an object or a string", path=f"{path}.arguments")
        args = dumps_str(args)
    return ScriptedCall(name, args)


def _turn(raw: Any, path: str) -> Turn:
    if isinstance(raw, str):
        return Turn(text=raw)
    if not isinstance(raw, dict):
        raise PayloadError("expected a turn object or a string", path=path)
    calls = raw.get("tool_calls", [])
    if not isinstance(calls, list):
        raise PayloadError("expected a list", path=f"{path}.tool_calls")
    turn = Turn(
        text=_opt_str(raw, "text", path),
        reasoning=_opt_str(raw, "reasoning", path),
        tool_calls=tuple(_call(c, f"{path}.tool_calls[{i}]") for i, c in enumerate(calls)),
    )
    if turn.text is None and not turn.tool_calls:
        raise PayloadError("a turn needs 'text' or 'tool_calls'", path=path)
    return turn


def parse_script(data: Any) -> Script:
    """Build a :class:`Script` from decoded JSON/YAML (a list of turns or ``{"turns": [...]}``)."""
    turns = data.get("turns") if isinstance(data, dict) else data
    if not isinstance(turns, list):
        raise PayloadError("expected a list of turns or an object with 'turns'", path="$")
    path = "$.turns" if isinstance(data, dict) else "$"
    return Script(tuple(_turn(t, f"{path}[{i}]") for i, t in enumerate(turns)))


def load_script(path: str | Path) -> Script:
    """Read a script file: ``.yaml``/``.yml`` as YAML, anything else as JSON."""
    file = Path(path)
    text = file.read_text(encoding="utf-8")
    if file.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise PayloadError(f"invalid YAML in {file}: {exc}") from None
    else:
        data = loads(text)
    return parse_script(data)
