"""The release check's own rules (``.ci/release.py``), on small wheels and sdists written here.

``make release`` runs the real thing (the compiled wheel repaired by auditwheel, twine, pip's
choice in a fresh venv); these pin how it judges the artifacts it is given.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.ci_scripts import load

release = load("release")

SO = ".cpython-311-x86_64-linux-gnu.so"
SOURCES = ["toolwire/__init__.py", "toolwire/translate.py"] + [f"{module}.py" for module in release.COMPILED]
META = {
    "Name": "toolwire",
    "Version": "0.1.0",
    "Requires-Python": ">=3.11",
    "Requires-Dist": ["msgspec>=0.19", "extra-streams>=1", 'httpx>=0.27; extra == "client"'],
    "Provides-Extra": ["client"],
}
MANYLINUX = "toolwire-0.1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"


def _metadata_text(meta: dict[str, object]) -> str:
    lines = ["Metadata-Version: 2.4"]
    for key, value in meta.items():
        lines += [f"{key}: {item}" for item in (value if isinstance(value, list) else [value])]
    return "\n".join(lines) + "\n"


def _wheel(folder: Path, name: str, members: list[str], meta: dict[str, object] = META) -> Path:
    path = folder / name
    with zipfile.ZipFile(path, "w") as archive:
        for member in members:
            archive.writestr(member, "")
        archive.writestr("toolwire-0.1.0.dist-info/METADATA", _metadata_text(meta))
    return path


def _pure(folder: Path) -> Path:
    return _wheel(folder, "toolwire-0.1.0-py3-none-any.whl", SOURCES)


def _compiled_members() -> list[str]:
    return SOURCES + [f"{module}{SO}" for module in release.COMPILED] + [f"3b1f2c__mypyc{SO}"]


def test_wheel_names_are_read_with_every_platform_tag() -> None:
    tags = release.wheel_tags(MANYLINUX)
    assert tags == release.Tags(
        "toolwire", "0.1.0", "cp311", "cp311", ("manylinux_2_17_x86_64", "manylinux2014_x86_64")
    )
    assert release.wheel_tags("toolwire-0.1.0-1-py3-none-any.whl").platforms == ("any",)
    with pytest.raises(ValueError, match="not a wheel file name"):
        release.wheel_tags("toolwire-0.1.0.tar.gz")


@pytest.mark.parametrize(
    ("platform", "accepted"),
    [
        ("manylinux_2_17_x86_64", True),
        ("manylinux2014_aarch64", True),
        ("musllinux_1_2_x86_64", True),
        ("macosx_11_0_arm64", True),
        ("win_amd64", True),
        ("linux_x86_64", False),
        ("linux_aarch64", False),
        ("manylinux_2_x86_64", False),
    ],
)
def test_only_platform_tags_an_index_accepts(platform: str, accepted: bool) -> None:
    assert bool(release.INDEX_PLATFORMS.match(platform)) is accepted


def test_a_pure_wheel_of_sources_passes(tmp_path: Path) -> None:
    assert release.check_pure(_pure(tmp_path)) == []


def test_a_pure_wheel_with_an_extension_module_fails(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "toolwire-0.1.0-py3-none-any.whl", [*SOURCES, f"toolwire/streaming{SO}"])
    assert release.check_pure(wheel) == [
        f"{wheel.name}: extension module toolwire/streaming{SO} in the pure wheel"
    ]


def test_a_pure_wheel_tagged_for_a_platform_fails(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "toolwire-0.1.0-py3-none-linux_x86_64.whl", SOURCES)
    assert release.check_pure(wheel) == [f"{wheel.name}: the pure wheel is tagged py3-none-linux_x86_64"]


def test_a_complete_compiled_wheel_passes(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, MANYLINUX, _compiled_members())
    assert release.check_compiled(wheel, _pure(tmp_path)) == []


def test_a_local_linux_tag_fails(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "toolwire-0.1.0-cp311-cp311-linux_x86_64.whl", _compiled_members())
    [problem] = release.check_compiled(wheel, _pure(tmp_path))
    assert problem.startswith(f"{wheel.name}: platform tag linux_x86_64 an index refuses")


def test_a_compiled_wheel_tagged_any_or_for_no_abi_fails(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "toolwire-0.1.0-cp311-none-any.whl", _compiled_members())
    problems = release.check_compiled(wheel, _pure(tmp_path))
    assert problems == [
        f"{wheel.name}: platform tag any an index refuses (auditwheel repair gives one)",
        f"{wheel.name}: a compiled wheel tagged for no ABI",
    ]


def test_a_compiled_wheel_without_a_source_fails(tmp_path: Path) -> None:
    members = [name for name in _compiled_members() if name != "toolwire/streaming.py"]
    wheel = _wheel(tmp_path, MANYLINUX, members)
    assert release.check_compiled(wheel, _pure(tmp_path)) == [
        f"{wheel.name}: source toolwire/streaming.py missing (the pure wheel has it)"
    ]


def test_a_compiled_wheel_with_a_source_the_pure_one_lacks_fails(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, MANYLINUX, [*_compiled_members(), "toolwire/stray.py"])
    assert release.check_compiled(wheel, _pure(tmp_path)) == [
        f"{wheel.name}: source toolwire/stray.py the pure wheel lacks"
    ]


@pytest.mark.parametrize("module", release.COMPILED)
def test_each_measured_module_must_be_compiled(tmp_path: Path, module: str) -> None:
    members = [name for name in _compiled_members() if name != f"{module}{SO}"]
    wheel = _wheel(tmp_path, MANYLINUX, members)
    assert release.check_compiled(wheel, _pure(tmp_path)) == [f"{wheel.name}: {module} is not compiled"]


def test_an_extension_of_another_name_does_not_count(tmp_path: Path) -> None:
    members = [name for name in _compiled_members() if name != f"toolwire/streaming{SO}"]
    wheel = _wheel(tmp_path, MANYLINUX, [*members, f"toolwire/streaming_extra{SO}"])
    assert release.check_compiled(wheel, _pure(tmp_path)) == [
        f"{wheel.name}: toolwire/streaming is not compiled"
    ]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("Version", "0.1.1"),
        ("Requires-Dist", ["msgspec>=0.18", "extra-streams>=1", 'httpx>=0.27; extra == "client"']),
        ("Requires-Dist", ["msgspec>=0.19", "extra-streams>=1", 'httpx>=0.28; extra == "client"']),
        ("Provides-Extra", []),
    ],
)
def test_metadata_that_differs_from_the_pure_wheel_fails(tmp_path: Path, field: str, value: object) -> None:
    wheel = _wheel(tmp_path, MANYLINUX, _compiled_members(), {**META, field: value})
    assert release.check_compiled(wheel, _pure(tmp_path)) == [
        f"{wheel.name}: metadata differs from toolwire-0.1.0-py3-none-any.whl in ['{field}']"
    ]


def _sdist(folder: Path, members: list[str]) -> Path:
    path = folder / "toolwire-0.1.0.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        for member in members:
            info = tarfile.TarInfo(f"toolwire-0.1.0/{member}")
            archive.addfile(info, io.BytesIO(b""))
    return path


def test_an_sdist_with_every_source_passes(tmp_path: Path) -> None:
    members = ["pyproject.toml", "README.md", "LICENSE"] + [f"src/{name}" for name in SOURCES]
    assert release.check_sdist(_sdist(tmp_path, members), _pure(tmp_path)) == []


def test_an_sdist_missing_a_source_or_the_license_fails(tmp_path: Path) -> None:
    members = ["pyproject.toml", "README.md"] + [
        f"src/{name}" for name in SOURCES if name != "toolwire/translate.py"
    ]
    sdist = _sdist(tmp_path, members)
    assert release.check_sdist(sdist, _pure(tmp_path)) == [
        f"{sdist.name}: LICENSE missing",
        f"{sdist.name}: src/toolwire/translate.py missing",
    ]


def test_only_the_base_requirements_are_installed_first(tmp_path: Path) -> None:
    assert release._requirements(_pure(tmp_path)) == ["extra-streams>=1", "msgspec>=0.19"]
