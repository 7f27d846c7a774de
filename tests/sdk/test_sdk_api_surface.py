"""The API surface gate: the areas listed here have every member of the platform SDK's surface
(sdk-api.tsv) in the C++ headers and in the Python module and stub (tools/sdk_api_surface.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

# Areas that are complete: every area of the reference, in C++, the module and the stub; each must
# stay there.
COMPLETE_AREAS: list[str] = ["audio", "auth", "client", "guilds", "lobbies", "messages", "misc", "presence",
                             "relationships", "users", "voice"]

ROOT = Path(__file__).resolve().parents[2]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sdk_api_surface", ROOT / "tools" / "sdk_api_surface.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sdk_api_surface"] = module
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def missing_list(reports: dict, lang: str) -> list[str]:
    attr = "cpp_missing" if lang == "cpp" else "py_missing"
    return [f"{area}: {row.label()} -> {why}" for area, r in reports.items() for row, why in getattr(r, attr)]


@pytest.mark.parametrize("python", ["module", "stub"])
def test_complete_areas_stay_complete(python: str) -> None:
    reports = tool.run(COMPLETE_AREAS, python)
    assert set(reports) == set(COMPLETE_AREAS), "an area in COMPLETE_AREAS is not in the reference"
    assert missing_list(reports, "cpp") == []
    assert missing_list(reports, "py") == []


REFERENCE_HEADER = "area\tclass\tmember\tkind\tsignature\tsince\n"


def write_reference(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "sdk-api.tsv"
    path.write_text(REFERENCE_HEADER + "".join(row + "\n" for row in rows))
    return path


def test_gate_counts_present_members_and_names_missing_ones(tmp_path: Path) -> None:
    tsv = write_reference(tmp_path, [
        "t\tClient\tGetApplicationId\tmethod\tuint64_t GetApplicationId()\t1.9",
        "t\tClient\tNoSuchMember\tmethod\tvoid NoSuchMember(int32_t x)\t1.9",
        "t\tClient::Status\tReady\tenum-value\tReady = 3\t1.9",
        "t\tClient::Status\tReady\tenum-value\tReady = 4\t1.9",
    ])
    report = tool.run(None, "stub", tsv)["t"]
    assert report.total == 4
    cpp = {row.signature: why for row, why in report.cpp_missing}
    assert set(cpp) == {"void NoSuchMember(int32_t x)", "Ready = 4"}
    assert "not declared" in cpp["void NoSuchMember(int32_t x)"]
    assert "is 3" in cpp["Ready = 4"]
    py = {row.signature: why for row, why in report.py_missing}
    assert py == {"void NoSuchMember(int32_t x)": "no attribute Client.no_such_member"}


def test_gate_checks_types_not_only_names(tmp_path: Path) -> None:
    # ClientResult::ErrorCode exists, but not returning a string: a wrong type is a missing member.
    tsv = write_reference(tmp_path, [
        "t\tClientResult\tErrorCode\tmethod\tstd::string ErrorCode() const\t1.9",
        "t\tClientResult\tErrorCode\tmethod\tint32_t ErrorCode() const\t1.9",
        "t\tClient\tRefreshToken\tmethod\tvoid RefreshToken(uint64_t applicationId, std::string const& "
        "refreshToken, platformpp::Client::TokenExchangeCallback callback)\t1.9",
    ])
    report = tool.run(None, "none", tsv)["t"]
    assert [row.signature for row, _ in report.cpp_missing] == ["std::string ErrorCode() const"]


def test_gate_maps_python_names() -> None:
    assert tool.snake("GetPTTActive") == "get_ptt_active"
    assert tool.snake("GetCurrentUserV2") == "get_current_user_v2"
    assert tool.py_enum_member("None") == "None_"
    assert tool.name_variants("AcceptPlatformFriendRequest") == ["AcceptPlatformFriendRequest",
                                                                 "AcceptFriendRequest"]


def test_gate_prints_the_missing_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tsv = write_reference(tmp_path, ["t\tClient\tNoSuchMember\tmethod\tvoid NoSuchMember()\t1.9"])
    assert tool.main(["--tsv", str(tsv), "--python", "stub"]) == 1
    out = capsys.readouterr().out
    assert "t: missing in C++ (1)" in out and "Client::NoSuchMember" in out
    assert "no attribute Client.no_such_member" in out
