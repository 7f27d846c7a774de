"""AuthorizationArgs from Python: property set+get and construction, against a pure-Python baseline.

The baseline is a plain class that validates the same fields in properties, as a careful pure-Python
SDK would. Both run in the same process, interleaved, and the report gives the ratio per operation
(< 1.0 means the binding is faster). Run: `python benchmarks/bench_binding.py [--record]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import describe  # noqa: E402

import platformpp  # noqa: E402

_U64_MAX = 2**64 - 1


class PurePythonArgs:
    """The baseline: the same fields and the same type rules, in pure Python."""

    __slots__ = ("_client_id", "_scopes", "_state", "_nonce", "_custom_scheme_param")

    def __init__(self, *, client_id: int = 0, scopes: str = "", state: str | None = None,
                 nonce: str | None = None, custom_scheme_param: str | None = None) -> None:
        self.client_id = client_id
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.custom_scheme_param = custom_scheme_param

    @property
    def client_id(self) -> int:
        return self._client_id

    @client_id.setter
    def client_id(self, value: int) -> None:
        if type(value) is not int or not 0 <= value <= _U64_MAX:
            raise TypeError("client_id must be an int in [0, 2**64)")
        self._client_id = value

    @property
    def scopes(self) -> str:
        return self._scopes

    @scopes.setter
    def scopes(self, value: str) -> None:
        if type(value) is not str:
            raise TypeError("scopes must be a str")
        self._scopes = value

    @property
    def state(self) -> str | None:
        return self._state

    @state.setter
    def state(self, value: str | None) -> None:
        if value is not None and type(value) is not str:
            raise TypeError("state must be a str or None")
        self._state = value

    @property
    def nonce(self) -> str | None:
        return self._nonce

    @nonce.setter
    def nonce(self, value: str | None) -> None:
        if value is not None and type(value) is not str:
            raise TypeError("nonce must be a str or None")
        self._nonce = value

    @property
    def custom_scheme_param(self) -> str | None:
        return self._custom_scheme_param

    @custom_scheme_param.setter
    def custom_scheme_param(self, value: str | None) -> None:
        if value is not None and type(value) is not str:
            raise TypeError("custom_scheme_param must be a str or None")
        self._custom_scheme_param = value


CASES = {
    "scopes set+get": ("a.scopes = 'openid sdk.social_layer'; a.scopes", "a = cls()"),
    "client_id set+get": ("a.client_id = 1234567890; a.client_id", "a = cls()"),
    "state (optional) set+get": ("a.state = 's'; a.state", "a = cls()"),
    "construction (no arguments)": ("cls()", ""),
    "construction (3 keywords)": ("cls(client_id=1, scopes='openid', state='s')", ""),
}


def _ns_per_op(stmt: str, setup: str, cls: type, number: int, repeat: int) -> list[float]:
    timer = timeit.Timer(stmt, setup, globals={"cls": cls})
    return [t / number * 1e9 for t in timer.repeat(repeat=repeat, number=number)]


def run(number: int = 200_000, repeat: int = 7) -> list[tuple[str, float, float]]:
    rows = []
    for name, (stmt, setup) in CASES.items():
        binding, baseline = [], []
        for _ in range(repeat):  # interleaved so that drift in machine load hits both alike
            binding += _ns_per_op(stmt, setup, platformpp.AuthorizationArgs, number, 1)
            baseline += _ns_per_op(stmt, setup, PurePythonArgs, number, 1)
        rows.append((name, statistics.median(binding), statistics.median(baseline)))
    return rows


def report(rows: list[tuple[str, float, float]]) -> str:
    lines = [f"Machine: {describe()}", "",
             "| operation | platformpp (ns, median) | pure Python (ns, median) | ratio |",
             "|---|---:|---:|---:|"]
    lines += [f"| {name} | {ours:.0f} | {base:.0f} | {ours / base:.2f} |" for name, ours, base in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="append the report to benchmarks/results/binding.md")
    parser.add_argument("--number", type=int, default=200_000)
    options = parser.parse_args()
    text = report(run(number=options.number))
    print(text)
    if options.record:
        results = Path(__file__).parent / "results" / "binding.md"
        with results.open("a") as out:
            out.write("\n" + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
