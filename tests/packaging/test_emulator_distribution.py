"""The emulator's own pure-Python distribution (packaging/emulator): built from this checkout, installed
into a fresh virtual environment that has no SDK and no C++ extension, where ``platformpp-emulator``
serves and answers a request; and its files are disjoint from the SDK wheel's, so the two install
together. Bounded: one wheel build (~5 s) and one venv with the emulator's dependencies from the
package index (~20 s), each subprocess with a timeout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "python" / "platformpp" / "emulator"
VERSION_LINE = next(line for line in (ROOT / "CMakeLists.txt").read_text().splitlines()
                    if line.startswith("project(platformpp VERSION"))
VERSION = VERSION_LINE.split()[2]


def _run(*args: str | Path, timeout: float = 300, **kwargs: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], check=False, capture_output=True, text=True, timeout=timeout, **kwargs)
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def emulator_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("emulator-dist")
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, ROOT / "packaging" / "emulator")
    (wheel,) = out.glob("platformpp_emulator-*.whl")
    return wheel


def test_the_wheel_is_pure_python_and_holds_the_emulator_only(emulator_wheel: Path) -> None:
    assert emulator_wheel.name == f"platformpp_emulator-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(emulator_wheel) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"platformpp_emulator-{VERSION}.dist-info/METADATA").decode()
        entry_points = wheel.read(f"platformpp_emulator-{VERSION}.dist-info/entry_points.txt").decode()
    packaged = {n for n in names if not n.startswith(f"platformpp_emulator-{VERSION}.dist-info/")}
    # Every source and data file of the emulator (SQL migrations, the inspector's page), nothing compiled
    # and nothing of the SDK's package: no platformpp/__init__.py, which the SDK's wheel owns.
    expected = {f"platformpp/emulator/{p.relative_to(SOURCES).as_posix()}" for p in SOURCES.rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    assert packaged == expected
    assert any(n.endswith(".sql") for n in packaged) and any(n.endswith(".html") for n in packaged)
    assert "platformpp/__init__.py" not in names
    assert "Requires-Dist: starlette" in metadata
    assert "platformpp-emulator = platformpp.emulator.cli:main" in entry_points
    assert "platformpp = platformpp.emulator.pytest_plugin" in entry_points


def test_the_sdk_leaves_the_emulator_to_its_distribution() -> None:
    """The SDK wheel excludes platformpp/emulator/ and its emulator extra pins this distribution to the
    same version (both read CMakeLists.txt), so installing both never puts one file in two."""
    import tomllib

    sdk = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert sdk["tool"]["scikit-build"]["wheel"]["exclude"] == ["platformpp/emulator/**"]
    extras = sdk["tool"]["scikit-build"]["metadata"]["optional-dependencies"]["result"]
    assert extras["emulator"] == ["platformpp-emulator=={project[version]}"]
    emulator = tomllib.loads((ROOT / "packaging" / "emulator" / "pyproject.toml").read_text())
    assert emulator["tool"]["hatch"]["version"]["path"] == "../../CMakeLists.txt"
    wheelhouse = os.environ.get("PLATFORMPP_WHEELHOUSE")
    if wheelhouse:  # CI: the SDK wheel it built holds no emulator file
        (sdk_wheel,) = Path(wheelhouse).glob("platformpp-*.whl")
        with zipfile.ZipFile(sdk_wheel) as wheel:
            assert not [n for n in wheel.namelist() if n.startswith("platformpp/emulator/")]


def test_it_serves_from_a_venv_without_the_sdk(emulator_wheel: Path, tmp_path: Path) -> None:
    """One test (not fixtures shared by several): pytest-xdist may give each test its own worker."""
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", emulator_wheel)
    probe = ("import importlib.util, importlib.metadata as m, platformpp.emulator\n"
             "print(importlib.util.find_spec('platformpp._platformpp') is None)\n"
             "print(sorted(d.metadata['Name'] for d in m.distributions() if 'platformpp' in d.metadata['Name']))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PLATFORMPP_"))}
    lines = _run(python, "-c", probe, cwd=venv, env=env).stdout.splitlines()
    assert lines == ["True", "['platformpp-emulator']"]  # no SDK, no extension: the emulator alone

    process = subprocess.Popen([venv / "bin" / "platformpp-emulator", "--port", "0", "--db", ":memory:"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=venv)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # printed once it listens (the CLI is ready in well under 1 s)
        assert line.startswith("platformpp emulator listening on "), line + process.stderr.read()
        with urllib.request.urlopen(f"{line.split()[-1]}/api/v10/gateway", timeout=10) as answer:
            assert answer.status == 200
            assert json.load(answer)["url"].startswith("ws://")
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0
