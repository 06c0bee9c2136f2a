"""Types used as tool parameters by the pytools tests (module level, so annotations resolve)."""

from __future__ import annotations

import dataclasses
import enum

from pydantic import BaseModel, Field
from typing_extensions import TypedDict


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Priority(enum.IntEnum):
    """How urgent it is."""

    LOW = 1
    HIGH = 2


class Address(BaseModel):
    """A postal address."""

    street: str
    zip_code: int | None = Field(None, description="Postal code.")


@dataclasses.dataclass
class Point:
    lat: float
    lon: float = 0.0


class Window(TypedDict):
    start: str
    end: str


class Node(BaseModel):
    name: str
    children: list[Node] = []
