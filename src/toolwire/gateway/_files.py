"""Reading a gateway config file: TOML (``.toml``) or YAML (``.yaml``/``.yml``)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolwire.hop._config import ConfigError, HopConfig, decode_config

__all__ = ["load_config"]


def _parse(text: str, yaml_file: bool) -> Any:
    if not yaml_file:
        return tomllib.loads(text)
    from toolwire._extras import require

    require("YAML gateway configs", "yaml")
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(" ".join(str(exc).split())) from None  # one line: PyYAML draws a caret


def load_config(path: str | Path, env: Mapping[str, str] | None = None) -> HopConfig:
    """The :class:`HopConfig` in the file at ``path``.

    Raises:
        ConfigError: the file cannot be read or parsed, or a value is wrong (with its path).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: the config is not UTF-8") from None
    yaml_file = path.suffix in (".yaml", ".yml")
    try:
        data = _parse(text, yaml_file)
    except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise ConfigError(f"{path}: not valid {'YAML' if yaml_file else 'TOML'}: {exc}") from None
    try:
        return decode_config(data, env)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc.message}") from None
