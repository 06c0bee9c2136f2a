"""The upstream of the real-client tests: a scripted emulator on loopback that records requests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from tests.e2e._capture import Recorder
from toolwire.emulator import EmulatorConfig, create_app, parse_script, serve
from toolwire.emulator.config import RuleMode

__all__ = ["Upstream", "scripted_emulator"]


@dataclass(slots=True)
class Upstream:
    """A running emulator: its base URL (server root) and the recorder of every request it got."""

    url: str
    recorder: Recorder


@contextmanager
def scripted_emulator(
    turns: list[Any], *, rules: RuleMode = "provider", api_keys: tuple[str, ...] = ()
) -> Iterator[Upstream]:
    """An emulator on a free loopback port playing ``turns`` (see ``toolwire.emulator.script``),
    recording every request. ``rules="provider"`` (default) also enforces the replay rules the real
    providers enforce on history (``toolwire.emulator.rules``), so a client's replayed thinking,
    reasoning and call pairing must be what the provider would accept. ``api_keys``: the keys it
    accepts (none: any; for Bedrock, the access key id of a SigV4 signature)."""
    config = EmulatorConfig(script=parse_script(turns), rules=rules, api_keys=api_keys)
    recorder = Recorder(create_app(config))
    with serve(recorder, log_level="warning") as url:
        yield Upstream(url, recorder)
