"""The emulator over TLS (docs/emulator.md, "TLS"): HTTPS, the Gateway over WSS, and the voice gateway over
WSS with end-to-end encrypted media, as platform clients that hard-code ``wss://`` need. Real sockets, real
certificates from the emulator's own authority, checked by Python's ssl module against that authority only."""

from __future__ import annotations

import asyncio
import json
import ssl
import stat
import sys
from pathlib import Path

import httpx
import pytest
import websockets
from cryptography import x509
from emulator_world import BOT_ID, GUILD_ID, bot_headers
from platformpp.emulator import Emulator, ServerCertificate, TlsSetupError, local_certificate
from platformpp.emulator.areas.voice_states import calls as voice_calls

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "emulator_voice"))
from voice_client import VoiceClient  # noqa: E402
from voice_helpers import agreed, executed_last, hears, run, until  # noqa: E402

LOUNGE = 1200000000000000201


@pytest.fixture(scope="module")
def tls_emulator(tmp_path_factory: pytest.TempPathFactory) -> Emulator:
    with Emulator(tls=local_certificate(tmp_path_factory.mktemp("tls"))) as emu:
        yield emu


def test_https_with_the_emulators_authority_and_refused_without_it(tls_emulator: Emulator) -> None:
    emu = tls_emulator
    assert emu.base_url.startswith("https://127.0.0.1:")
    answer = httpx.get(emu.api_base + "/users/@me", headers=bot_headers(), verify=emu.client_tls_context())
    assert answer.status_code == 200 and answer.json()["id"] == str(BOT_ID)
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        httpx.get(emu.api_base + "/users/@me", headers=bot_headers(), verify=ssl.create_default_context())
    with pytest.raises(httpx.RemoteProtocolError):   # plain HTTP to a TLS port
        httpx.get(emu.api_base.replace("https://", "http://") + "/users/@me", headers=bot_headers())


def test_the_gateway_url_is_wss_and_answers_hello(tls_emulator: Emulator) -> None:
    emu = tls_emulator
    url = httpx.get(emu.api_base + "/gateway/bot", headers=bot_headers(), verify=emu.client_tls_context()).json()["url"]
    assert url == emu.base_url.replace("https://", "wss://") + "/gateway"

    async def hello() -> dict[str, object]:
        async with websockets.connect(url + "/?v=10&encoding=json", ssl=emu.client_tls_context()) as ws:
            return dict(json.loads(await ws.recv()))

    assert run(hello())["op"] == 10


def test_voice_over_wss_with_dave_media_between_two_clients(tls_emulator: Emulator) -> None:
    emu = tls_emulator
    voice = voice_calls.running_service(emu.state)   # as the first call starts it

    def client(user: int) -> VoiceClient:
        token, endpoint = voice.allocate(GUILD_ID, LOUNGE, user, f"tls-{user}")
        assert "://" not in endpoint     # as the platform's VOICE_SERVER_UPDATE: clients add wss://
        c = VoiceClient(endpoint, GUILD_ID, user, f"tls-{user}", token, tls=emu.client_tls_context())
        c.enable_dave(LOUNGE)
        return c

    async def scenario() -> None:
        a, b = client(7001), client(7002)
        ready = await a.join()
        assert ready["dave_protocol_version"] == 1
        await a.speak()
        await b.join()
        await b.speak()
        await until(lambda: agreed([a, b]))
        await executed_last(a, [a, b])
        assert await hears(b, a) and await hears(a, b)
        # ws:// to the same endpoint is not a voice gateway: the TLS port does not speak plain WebSocket.
        with pytest.raises((websockets.exceptions.InvalidMessage, ConnectionError, OSError)):
            async with websockets.connect(f"ws://{a.endpoint}/?v=8", open_timeout=3):
                pass
        for c in (a, b):
            await c.close()

    run(scenario())


def test_the_authority_is_kept_and_the_server_certificate_follows_the_host_names(tmp_path: Path) -> None:
    first = local_certificate(tmp_path)
    authority = first.ca_file.read_bytes() if first.ca_file else b""
    server = first.cert_file.read_bytes()
    names = x509.load_pem_x509_certificate(server).extensions.get_extension_for_class(x509.SubjectAlternativeName)
    assert {str(n) for n in names.value.get_values_for_type(x509.IPAddress)} == {"127.0.0.1", "::1"}
    assert names.value.get_values_for_type(x509.DNSName) == ["localhost"]
    for key in (tmp_path / "ca-key.pem", first.key_file):
        assert stat.S_IMODE(key.stat().st_mode) == 0o600

    again = local_certificate(tmp_path)
    assert again.cert_file.read_bytes() == server and again.ca_file and again.ca_file.read_bytes() == authority

    wider = local_certificate(tmp_path, ["game.test"])
    assert wider.ca_file and wider.ca_file.read_bytes() == authority     # clients keep trusting the same file
    renamed = x509.load_pem_x509_certificate(wider.cert_file.read_bytes())
    assert "game.test" in renamed.extensions.get_extension_for_class(x509.SubjectAlternativeName).value \
        .get_values_for_type(x509.DNSName)


def test_a_missing_certificate_fails_at_start_naming_the_file(tmp_path: Path) -> None:
    missing = ServerCertificate(tmp_path / "nope.pem", tmp_path / "nope-key.pem")
    emu = Emulator(tls=missing)
    with pytest.raises(TlsSetupError, match="nope.pem"):
        emu.start()
    with pytest.raises(RuntimeError, match="not running"):
        emu.port
