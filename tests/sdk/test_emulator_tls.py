"""The SDK against an emulator serving TLS (docs/emulator.md, "TLS"): sign-in over HTTPS, the Gateway over
WSS, and a lobby call whose voice gateway the SDK reaches with wss:// because its API base is https://,
all trusting the emulator's authority through SSL_CERT_FILE and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from call_helpers import Ear, Tone, shared_lobby
from sdk_support import GAME_ID, Outcome, pump_until, ready_player

import platformpp
from platformpp.emulator import Emulator, local_certificate

ALICE = 1100000000000000001


@pytest.fixture
def tls_emulator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    certificate = local_certificate(tmp_path)
    # OpenSSL reads it when the Client makes its TLS context: the SDK trusts the authority like the system's.
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate.ca_file))
    monkeypatch.setenv("PLATFORMPP_AUDIO_BACKEND", "null")
    with Emulator(tls=certificate) as emu:
        yield emu


def test_sign_in_gateway_and_an_encrypted_call_over_tls(tls_emulator: Emulator) -> None:
    assert tls_emulator.api_base.startswith("https://")
    alice, bob = ready_player(tls_emulator, "alice"), ready_player(tls_emulator, "bob")
    lobby_id = shared_lobby(alice, bob, "tls-voice")
    alice_call = alice.start_call_with_audio_callbacks(lobby_id, None, Tone())
    ear = Ear(ALICE)
    bob_call = bob.start_call_with_audio_callbacks(lobby_id, ear, None)
    for call in (alice_call, bob_call):
        pump_until(lambda: call.get_status() == platformpp.Call.Status.Connected)
    pump_until(lambda: bool(alice_call.get_e2ee_epoch_authenticator())
               and alice_call.get_e2ee_epoch_authenticator() == bob_call.get_e2ee_epoch_authenticator())
    # One second heard once the group is up; the frequency is read from its last half.
    heard = ear.count()
    pump_until(lambda: ear.count() >= heard + 50, timeout=15)
    assert abs(ear.frequency() - 440.0) <= 5.0
    assert alice_call.get_e2ee_protocol_version() == 1


def token_exchange(emu: Emulator) -> platformpp.ClientResult:
    """A token exchange with a made-up code: the emulator refuses it (400, invalid_grant) when the SDK
    reaches it."""
    client = platformpp.Client(emu.api_base, emu.web_base)
    outcome = Outcome()
    client.get_token(GAME_ID, "not-a-code", "v" * 43, f"platform-{GAME_ID}:/authorize/callback", outcome)
    return outcome.wait()[0]


def test_the_sdk_trusts_the_emulator_only_through_its_authority(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    certificate = local_certificate(tmp_path / "tls")
    other = local_certificate(tmp_path / "other")   # an authority that did not sign the emulator's certificate
    with Emulator(tls=certificate) as emu:
        monkeypatch.setenv("SSL_CERT_FILE", str(certificate.ca_file))
        reached = token_exchange(emu)
        assert reached.type == platformpp.ErrorType.AuthorizationFailed and reached.status == 400
        monkeypatch.setenv("SSL_CERT_FILE", str(other.ca_file))
        refused = token_exchange(emu)
        assert refused.type == platformpp.ErrorType.NetworkError
