"""The ``platformpp`` command: one sub-command per job, each imported only when chosen."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _run_emulator(argv: Sequence[str]) -> int:
    try:
        from .emulator.cli import main as emulator_main
    except ModuleNotFoundError as exc:
        # The emulator is its own distribution (platformpp-emulator), installed by the emulator extra.
        if exc.name not in ("platformpp.emulator", "platformpp.emulator.cli"):
            raise
        print("platformpp emulator: the emulator is not installed:"
              " pip install 'platformpp[emulator]'", file=sys.stderr)
        return 2
    return emulator_main(list(argv))


def _run_demo(argv: Sequence[str]) -> int:
    from .demo import main as demo_main

    return demo_main(list(argv))


def _run_smoke(argv: Sequence[str]) -> int:
    from .smoke import main as smoke_main

    return smoke_main(list(argv))


_COMMANDS = {
    "demo": (_run_demo, "two players on the embedded emulator: sign-in, lobby, messages, presence, guilds"),
    "emulator": (_run_emulator, "run the local platform emulator"),
    "smoke": (_run_smoke, "a quick check that the installed SDK loads and works"),
}


def _version() -> str:
    # The package metadata, not the extension: ``--version`` works where the extension cannot load.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("platformpp")
    except PackageNotFoundError:
        return "unknown"


class _PrintVersion(argparse.Action):
    """``--version``, reading the package metadata only when asked (it costs every start ~10 ms)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"platformpp {_version()}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="platformpp", description="platformpp: a social SDK for games")
    parser.add_argument("--version", action=_PrintVersion, nargs=0, help="show the installed version and exit")
    parser.add_argument("command", choices=sorted(_COMMANDS), help="; ".join(
        f"{name}: {help_text}" for name, (_, help_text) in sorted(_COMMANDS.items())))
    # Only the command word is parsed here: everything after it is the command's own (its --help too).
    first = next((i for i, arg in enumerate(args) if not arg.startswith("-")), len(args))
    command = parser.parse_args(args[:first + 1]).command
    runner, _ = _COMMANDS[command]
    return runner(args[first + 1:])


if __name__ == "__main__":
    sys.exit(main())
