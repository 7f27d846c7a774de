"""DAVE end to end with `davey` (an independent implementation) as every client: the voice gateway as
MLS delivery service and external sender, encrypted Opus frames through the relay over real UDP."""

from __future__ import annotations

import asyncio

import davey
import pytest
from voice_helpers import BEFORE_E2EE, agreed, executed_last, hears, opus_frame, run, until
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from voice_client import AES, XCHACHA, VoiceClient

from platformpp.emulator.voice.service import VoiceService

GUILD, CHANNEL = 61771983423143937, 327121515262115840


def client(voice: VoiceService, user_id: int) -> VoiceClient:
    token, endpoint = voice.allocate(GUILD, CHANNEL, user_id, f"s{user_id}")
    c = VoiceClient(endpoint, GUILD, user_id, f"s{user_id}", token)
    c.enable_dave(CHANNEL)
    return c


def test_two_then_three_join_talk_one_leaves_and_the_group_rekeys(voice, new_user) -> None:
    a_id, b_id, c_id = new_user(), new_user(), new_user()

    async def scenario() -> None:
        a, b = client(voice, a_id), client(voice, b_id)
        desc = await a.join(mode=AES)
        assert desc["dave_protocol_version"] == 1
        await a.speak()
        await b.join(mode=XCHACHA)
        await b.speak()
        await until(lambda: agreed([a, b]))
        await executed_last(a, [a, b])
        epoch_two = a.dave.epoch
        assert await hears(b, a) and await hears(a, b)

        c = client(voice, c_id)
        await c.join(mode=AES)
        await c.speak()
        await until(lambda: agreed([a, b, c]))
        await executed_last(c, [a, b, c])
        assert a.dave.epoch == epoch_two + 1
        assert any(kind == "welcome" for kind, _ in c.transitions)
        for receiver, sender in ((a, c), (c, b), (b, c)):
            assert await hears(receiver, sender)
        assert a.dave.get_epoch_authenticator() == c.dave.get_epoch_authenticator()

        assert voice.disconnect(GUILD, c_id)            # c leaves the channel
        await until(lambda: agreed([a, b]) and a.dave.epoch == epoch_two + 2)
        await executed_last(a, [a, b])
        assert await hears(a, b) and await hears(b, a)

        # c kept its old group state; it cannot decrypt what is sent in the new epoch.
        frame = opus_frame()
        e2ee = b.dave.encrypt_opus(frame)
        with pytest.raises(Exception):
            if c.dave.decrypt(b_id, davey.MediaType.audio, e2ee) != frame:
                raise ValueError("decrypted to something else")
        for x in (a, b, c):
            await x.close()

    run(scenario())


def test_no_key_the_emulator_holds_decrypts_the_media(voice, new_user) -> None:
    a_id, b_id = new_user(), new_user()

    async def scenario() -> None:
        a, b = client(voice, a_id), client(voice, b_id)
        await a.join()
        await a.speak()
        await b.join()
        await b.speak()
        await until(lambda: agreed([a, b]))
        await executed_last(a, [a, b])
        frame = opus_frame()
        inside_transport = a.send_audio(frame)    # what the relay sees after removing the transport layer
        ssrc, _, relayed, _ = b.receive()
        assert relayed == inside_transport and frame not in relayed and frame[1:20] not in relayed
        assert relayed.endswith(b"\xfa\xfa")       # a DAVE protocol frame
        # Every symmetric key the emulator holds: both transport keys. None opens the E2EE frame
        # (DAVE uses AES-128-GCM with an 8-byte truncated tag over the frame; the emulator holds no
        # 16-byte sender key at all, and its 32-byte keys fail as AES-GCM keys on it).
        body, tag = relayed[:len(frame)], relayed[len(frame):len(frame) + 8]
        for key in (a.key, b.key):
            for size in (16, 32):
                with pytest.raises(InvalidTag):
                    AESGCM(key[:size]).decrypt(bytes(12), body + tag + bytes(8), b"")
        # A DAVE session built from everything the emulator knows (user id, channel, its external
        # sender package) is not in the group and cannot decrypt.
        outsider = davey.DaveSession(1, a_id, CHANNEL)
        outsider.set_external_sender(voice.external_sender.package())
        with pytest.raises(Exception):
            if outsider.decrypt(a_id, davey.MediaType.audio, relayed) != frame:
                raise ValueError("not the frame")
        assert b.dave.decrypt(a_id, davey.MediaType.audio, relayed) == frame
        for x in (a, b):
            await x.close()

    run(scenario())


def test_invalid_commit_is_dropped_and_invalid_welcome_report_recovers(voice, new_user) -> None:
    a_id, b_id = new_user(), new_user()

    async def scenario() -> None:
        a, b = client(voice, a_id), client(voice, b_id)
        await a.join()
        await a.speak()
        await b.join()
        await b.speak()
        await until(lambda: agreed([a, b]))
        await executed_last(a, [a, b])
        epoch = a.dave.epoch
        rejected = voice.stats()["calls"][CHANNEL]["commits_rejected"]
        assert a.ws is not None
        await a.ws.send(bytes([28]) + b"\x00\x01\x00\x01garbage")     # an unparseable commit
        await asyncio.sleep(0.2)
        assert voice.stats()["calls"][CHANNEL]["commits_rejected"] == rejected + 1
        assert "framed_content.group_id" in voice.stats()["calls"][CHANNEL]["last_rejection"]
        assert await hears(b, a)                                     # the call goes on
        # b reports that it could not process the last transition; the gateway removes and re-adds it.
        await b.send(31, {"transition_id": b.transitions[-1][1]})
        b._reset_and_send_key_package()
        await until(lambda: agreed([a, b]) and a.dave.epoch > epoch, timeout=8)
        await executed_last(a, [a, b])
        assert await hears(a, b) and await hears(b, a)
        for x in (a, b):
            await x.close()

    run(scenario())


def test_downgrade_before_the_e2ee_instant_and_upgrade_when_the_last_non_dave_client_leaves(
        voice, clock, new_user) -> None:
    clock.instant = BEFORE_E2EE
    a_id, b_id, legacy_id = new_user(), new_user(), new_user()

    async def scenario() -> None:
        a, b = client(voice, a_id), client(voice, b_id)
        await a.join()
        await a.speak()
        await b.join()
        await b.speak()
        await until(lambda: agreed([a, b]))
        token, endpoint = voice.allocate(GUILD, CHANNEL, legacy_id, "legacy")
        legacy = VoiceClient(endpoint, GUILD, legacy_id, "legacy", token)
        description = await legacy.join(max_dave=0)
        assert description["dave_protocol_version"] == 0
        prepare = await a.expect(21)
        assert prepare["d"]["protocol_version"] == 0 and prepare["d"]["transition_id"] > 0
        await until(lambda: prepare["d"]["transition_id"] in a.executed)
        assert voice.stats()["calls"][CHANNEL]["version"] == 0
        before_upgrade = len(a.transitions)
        assert voice.disconnect(GUILD, legacy_id)
        upgrade = await a.expect(24)
        assert upgrade["d"] == {"protocol_version": 1, "epoch": 1}
        await until(lambda: agreed([a, b]))
        assert voice.stats()["calls"][CHANNEL]["version"] == 1
        await until(lambda: len(a.transitions) > before_upgrade)     # the new group's transition
        await executed_last(a, [a, b])
        assert await hears(b, a)
        for x in (a, b, legacy):
            await x.close()

    run(scenario())
