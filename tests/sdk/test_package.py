"""The package around the extension: lazy loading, typing marker, the CLI."""

import subprocess
import sys
from pathlib import Path

import platformpp


def test_extension_loads_only_when_an_sdk_name_is_used():
    code = ("import sys, platformpp; assert 'platformpp._platformpp' not in sys.modules; "
            "platformpp.Client; assert 'platformpp._platformpp' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_unknown_attribute_is_an_attribute_error():
    try:
        platformpp.NoSuchThing  # noqa: B018
    except AttributeError as error:
        assert "NoSuchThing" in str(error)
    else:
        raise AssertionError("expected AttributeError")


def test_typed_package_ships_its_stub():
    package = Path(platformpp.__file__).parent
    assert (package / "py.typed").exists()


def test_cli_smoke_runs():
    result = subprocess.run([sys.executable, "-m", "platformpp", "smoke"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "platformpp 1.11.0" in result.stdout
