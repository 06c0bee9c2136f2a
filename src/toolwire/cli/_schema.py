"""``toolwire schema MODULE:NAME --format FORMAT``: print a Python object as a tool definition.

``NAME`` may be a function (``@tool`` or plain), a pydantic model class, a
:class:`~toolwire.ir.Tool`, or a dict holding the JSON Schema of the arguments. The first two
need pydantic (the ``models`` extra, exit 6 without it); the last two need only the core.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType
from typing import Any

from toolwire.cli._io import FORMAT_CHOICES, FORMATS_HELP, add_output, print_json, print_notes
from toolwire.errors import MissingDependencyError, ToolDefinitionError
from toolwire.ir.notes import Notes
from toolwire.ir.tools import Tool
from toolwire.translate import format_module

__all__ = ["add_parser", "load_object"]


def add_parser(sub: Any) -> None:
    """Register ``schema``."""
    parser = sub.add_parser(
        "schema", help="print the tool definition of a Python function, model or schema", epilog=FORMATS_HELP
    )
    parser.add_argument("target", metavar="MODULE:NAME", help="e.g. mypkg.tools:get_weather")
    parser.add_argument(
        "--format",
        dest="fmt",
        choices=FORMAT_CHOICES,
        metavar="FORMAT",
        default="openai-chat",
        help="output format",
    )
    parser.add_argument("--name", help="tool name (default: the function, class or attribute name)")
    add_output(parser)
    parser.set_defaults(handler=_run)


def import_user_module(name: str) -> ModuleType:
    """Import the user's module ``name`` (the current directory is importable).

    Raises:
        MissingDependencyError: the module needs an extra of toolwire that is not installed.
        ToolDefinitionError: any other import failure.
    """
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        return importlib.import_module(name)
    except MissingDependencyError:
        raise
    except ImportError as exc:
        raise ToolDefinitionError(f"cannot import module {name!r}: {exc}") from None


def load_object(spec: str) -> Any:
    """Import ``module:attribute`` (the current directory is importable)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ToolDefinitionError(f"expected MODULE:NAME, got {spec!r}")
    obj: Any = import_user_module(module_name)
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ToolDefinitionError(f"module {module_name!r} has no attribute {attr!r}") from None
    return obj


def _as_tool(obj: Any, name: str | None, attribute: str) -> Tool:
    if isinstance(obj, Tool):
        return obj
    if isinstance(obj, dict):
        from toolwire.pytools import tool_from_json_schema

        return tool_from_json_schema(name or attribute, obj)
    existing = getattr(obj, "tool", None)
    if isinstance(existing, Tool):
        return existing
    if isinstance(obj, type) and hasattr(obj, "model_json_schema"):
        return Tool.from_model(obj, name=name)
    if callable(obj):
        return Tool.from_function(obj, name=name)
    raise ToolDefinitionError(f"{obj!r} is not a function, a pydantic model, a Tool or a JSON Schema dict")


def _run(args: argparse.Namespace) -> int:
    attribute = args.target.partition(":")[2].rsplit(".", 1)[-1]
    tool = _as_tool(load_object(args.target), args.name, attribute)
    notes = Notes("drop")
    wire = format_module(args.fmt).encode_tools((tool,), notes, "$.tools")
    print_json(wire[0] if len(wire) == 1 else wire, args.output)
    print_notes(notes)
    return 0
