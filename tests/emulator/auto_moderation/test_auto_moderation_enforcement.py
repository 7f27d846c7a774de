"""Auto moderation enforced on guild messages and thread titles: a blocking rule refuses the message
(400 / 200000, a title 200001) and stores nothing; an alert rule posts a type 24 message in its
channel; a timeout rule times the member out; each action is heard as AUTO_MODERATION_ACTION_EXECUTION
by bots with MANAGE_GUILD (content only with MESSAGE_CONTENT) and written to the audit log (143-145).
Keywords follow the platform's wildcard rules, regex patterns, allow lists, presets and mention counts;
bots, the owner, MANAGE_GUILD holders, exempt roles and exempt channels are not screened."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from automod_helpers import (
    AUTOMOD_CONFIGURATION,
    AUTOMOD_EXECUTION,
    GUILD_MESSAGES,
    GUILDS,
    MESSAGE_CONTENT,
    call,
    keyword_rule,
    rules_path,
)
from channel_helpers import (
    BOT_ROLE,
    DEFAULT_EVERYONE,
    GENERAL,
    MODERATOR_ROLE,
    MODERATORS,
    grant_bot,
    set_message_content,
    user_posts,
)
from emulator_world import ALICE, APP_ID, BOB, BOT_TOKEN, CAROL, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.areas.channel_messages import store as channel_messages
from platformpp.emulator.areas.channel_messages.attachments import Writer
from platformpp.emulator.areas.channel_messages.body import read_message_input
from platformpp.emulator.core.errors import ApiError
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.events.outbox import Outbox
from social_helpers import GatewayClient

TEXT_CATEGORY = 1200000000000000100
MANAGER = Permission.MANAGE_GUILD | Permission.MODERATE_MEMBERS | Permission.VIEW_AUDIT_LOG


def make_rule(emu: Emulator, body: dict[str, Any]) -> dict[str, Any]:
    grant_bot(emu, MANAGER)
    response = call(emu, "POST", rules_path(), body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def messages_in(emu: Emulator, channel_id: int) -> list[Any]:
    return emu.state.db.query("SELECT * FROM channel_messages WHERE channel_id = ? ORDER BY id", (channel_id,))


def audit_entries(emu: Emulator, action_type: int) -> list[dict[str, Any]]:
    response = call(emu, "GET", f"/guilds/{GUILD_ID}/audit-logs?action_type={action_type}")
    assert response.status_code == 200, response.text
    return list(response.json()["audit_log_entries"])


def blocked(response: httpx.Response, code: int = 200000) -> bool:
    return response.status_code == 400 and response.json()["code"] == code


def test_a_blocked_message_is_refused_stored_nowhere_and_reported(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_message_content(emu, APP_ID, True)
    rule = make_rule(emu, keyword_rule(["*cake*"], actions=[
        {"type": 1, "metadata": {"custom_message": "No cake talk"}},
        {"type": 2, "metadata": {"channel_id": str(MODERATORS)}},
        {"type": 3, "metadata": {"duration_seconds": 600}}]))
    grant_bot(emu, Permission.ADMINISTRATOR)   # the moderators' channel is hidden from @everyone

    async def scenario() -> None:
        reader = await GatewayClient.connect(emu)
        await reader.identify(BOT_TOKEN, intents=GUILDS | GUILD_MESSAGES | AUTOMOD_EXECUTION | MESSAGE_CONTENT)
        blind = await GatewayClient.connect(emu)   # no MESSAGE_CONTENT: the content is left out
        await blind.identify(BOT_TOKEN, intents=GUILDS | AUTOMOD_EXECUTION)
        posted = await asyncio.to_thread(user_posts, emu, GENERAL, BOB, content="I baked a Cheesecake today")
        assert blocked(posted), posted.text
        assert posted.json()["message"] == "Message was blocked by automatic moderation"

        alert, executions = None, []
        while len(executions) < 3:   # in order: each action's own dispatch, then its execution
            frame = await reader.recv()
            if frame.get("t") == "MESSAGE_CREATE":
                alert = frame["d"]
            elif frame.get("t") == "AUTO_MODERATION_ACTION_EXECUTION":
                executions.append(frame["d"])
        assert alert is not None
        assert alert["channel_id"] == str(MODERATORS) and alert["type"] == 24
        assert alert["author"]["id"] == str(BOB) and alert["content"] == ""
        embed = alert["embeds"][0]
        assert embed["type"] == "auto_moderation_message" and embed["description"] == "I baked a Cheesecake today"
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields["rule_name"] == "Keyword rule" and fields["channel_id"] == str(GENERAL)
        assert fields["keyword"] == "*cake*" and fields["keyword_matched_content"] == "Cheesecake"
        assert fields["decision_outcome"] == "blocked" and fields["timeout_duration"] == "600"

        assert [e["action"]["type"] for e in executions] == [1, 2, 3]
        for execution in executions:
            assert execution["rule_id"] == rule["id"] and execution["rule_trigger_type"] == 1
            assert execution["user_id"] == str(BOB) and execution["channel_id"] == str(GENERAL)
            assert execution["guild_id"] == str(GUILD_ID) and "message_id" not in execution
            assert execution["content"] == "I baked a Cheesecake today"
            assert execution["matched_keyword"] == "*cake*" and execution["matched_content"] == "Cheesecake"
        assert executions[1]["alert_system_message_id"] == alert["id"]
        assert executions[0]["action"]["metadata"] == {"custom_message": "No cake talk"}

        hidden = (await blind.dispatch("AUTO_MODERATION_ACTION_EXECUTION"))["d"]
        assert hidden["content"] == "" and hidden["matched_content"] == ""
        assert hidden["matched_keyword"] == "*cake*"
        for client in (reader, blind):
            await client.close()

    asyncio.run(scenario())
    assert [row["content"] for row in messages_in(emu, GENERAL)] == []
    member = call(emu, "GET", f"/guilds/{GUILD_ID}/members/{BOB}").json()
    assert member["communication_disabled_until"] is not None
    for action_type in (143, 144, 145):
        entries = audit_entries(emu, action_type)
        assert len(entries) == 1, action_type
        assert entries[0]["user_id"] == str(BOB) and entries[0]["target_id"] == str(BOB)
        assert entries[0]["options"] == {"auto_moderation_rule_name": "Keyword rule",
                                         "auto_moderation_rule_trigger_type": "1", "channel_id": str(GENERAL)}
    # timed out, Bob cannot post at all now
    assert user_posts(emu, GENERAL, BOB, content="hello").status_code == 403


def test_an_alert_only_rule_keeps_the_message_and_points_at_it(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_rule(emu, keyword_rule(["spoon"], actions=[{"type": 2, "metadata": {"channel_id": str(MODERATORS)}}]))

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | AUTOMOD_EXECUTION)
        posted = await asyncio.to_thread(user_posts, emu, GENERAL, BOB, content="pass the spoon, please")
        assert posted.status_code == 200, posted.text
        execution = (await client.dispatch("AUTO_MODERATION_ACTION_EXECUTION"))["d"]
        assert execution["message_id"] == posted.json()["id"] and execution["action"]["type"] == 2
        await client.close()

    asyncio.run(scenario())
    alert = messages_in(emu, MODERATORS)[-1]
    assert alert["type"] == 24 and posted_id_in(alert["embeds"])
    assert audit_entries(emu, 143) == [] and len(audit_entries(emu, 144)) == 1


def posted_id_in(embeds: str) -> bool:
    return '"flagged_message_id"' in embeds and '"flagged"' in embeds


def test_keyword_wildcards_regex_and_allow_list(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_rule(emu, keyword_rule(["spoon", "fork*", "*knife"], regex=[r"\bw+o+w+\b"], allow=["forklift"]))
    cases = {
        "a spoon here": True, "SPOON!": True, "spoonful": False, "teaspoon": False,   # whole word
        "forks and forking": True, "pitchfork": False,                                   # prefix
        "a penknife": True, "knifes": False,                                            # suffix
        "wwooow": True, "wow-ish": True, "wowza": False,                                # regex
        "the forklift": False,                                                          # allowed
        "nothing here": False,
    }
    for content, refused in cases.items():
        response = user_posts(emu, GENERAL, BOB, content=content)
        assert blocked(response) == refused, (content, response.text)
        assert refused or response.status_code == 200, (content, response.text)
    assert {row["content"] for row in messages_in(emu, GENERAL)} == {c for c, r in cases.items() if not r}


def test_a_pattern_a_backtracking_engine_chokes_on_is_accepted_and_matched_in_linear_time(
        platformpp_emulator: Emulator) -> None:
    # Rust's engine (the platform's) accepts (a+)+b and runs it in linear time; so does the emulator's.
    # With a backtracking engine the first message would take some 2^1999 steps.
    emu = platformpp_emulator
    make_rule(emu, keyword_rule([], regex=["(a+)+b"]))
    started = time.monotonic()
    kept = user_posts(emu, GENERAL, BOB, content="a" * 1999 + "!")
    assert kept.status_code == 200, kept.text
    assert time.monotonic() - started < 10
    assert blocked(user_posts(emu, GENERAL, BOB, content="aaab"))


def test_presets_and_mention_spam(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_rule(emu, {"name": "Presets", "event_type": 1, "trigger_type": 4, "enabled": True,
                    "trigger_metadata": {"presets": [1], "allow_list": ["crap"]}, "actions": [{"type": 1}]})
    assert blocked(user_posts(emu, GENERAL, BOB, content="well damn"))
    assert user_posts(emu, GENERAL, BOB, content="oh crap").status_code == 200      # on the allow list
    assert user_posts(emu, GENERAL, BOB, content="porn").status_code == 200         # preset 2 not chosen

    make_rule(emu, {"name": "Mentions", "event_type": 1, "trigger_type": 5, "enabled": True,
                    "trigger_metadata": {"mention_total_limit": 2}, "actions": [{"type": 1}]})
    two = f"<@{ALICE}> <@{CAROL}> <@{ALICE}>"   # the same user twice counts once
    assert user_posts(emu, GENERAL, BOB, content=two).status_code == 200
    three = f"<@{ALICE}> <@{CAROL}> <@&{MODERATOR_ROLE}>"
    assert blocked(user_posts(emu, GENERAL, BOB, content=three))


def test_who_and_where_is_not_screened(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    rule = make_rule(emu, keyword_rule(["spoon"], exempt_channels=[str(TEXT_CATEGORY)]))
    assert user_posts(emu, GENERAL, ALICE, content="spoon").status_code == 200        # the owner
    with httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {BOT_TOKEN}"}) as bot:
        grant_bot(emu, 0)
        assert bot.post(f"/channels/{GENERAL}/messages", json={"content": "spoon"}).status_code == 200   # bots
    assert user_posts(emu, GENERAL, BOB, content="spoon").status_code == 200          # an exempt category
    grant_bot(emu, MANAGER)
    assert call(emu, "PATCH", rules_path(rule["id"]), {"exempt_channels": []}).status_code == 200
    assert blocked(user_posts(emu, GENERAL, BOB, content="spoon"))
    # an exempt role; then MANAGE_GUILD through a role
    grant_bot(emu, MANAGER)
    assert call(emu, "PATCH", rules_path(rule["id"]), {"exempt_roles": [str(BOT_ROLE)]}).status_code == 200
    emu.state.db.execute("UPDATE members SET roles = ? WHERE guild_id = ? AND user_id = ?",
                         (f'["{BOT_ROLE}"]', GUILD_ID, CAROL))
    assert user_posts(emu, GENERAL, CAROL, content="spoon").status_code == 200
    emu.state.db.execute("UPDATE members SET roles = ? WHERE guild_id = ? AND user_id = ?",
                         (f'["{MODERATOR_ROLE}"]', GUILD_ID, CAROL))
    assert blocked(user_posts(emu, GENERAL, CAROL, content="spoon"))
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?",
                         (str(int(Permission.MANAGE_GUILD | Permission.SEND_MESSAGES | Permission.VIEW_CHANNEL)),
                          MODERATOR_ROLE))
    assert user_posts(emu, GENERAL, CAROL, content="spoon").status_code == 200
    # a disabled rule does nothing
    assert call(emu, "PATCH", rules_path(rule["id"]), {"enabled": False}).status_code == 200
    assert user_posts(emu, GENERAL, BOB, content="spoon").status_code == 200


def test_an_edit_into_a_blocked_word_is_refused_and_leaves_the_message(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_rule(emu, keyword_rule(["spoon"]))
    posted = user_posts(emu, GENERAL, BOB, content="a fork")
    assert posted.status_code == 200
    message_id = int(posted.json()["id"])
    state = emu.state
    # No route lets a user (rather than a bot) edit; the store's edit is what such a route would run.
    try:
        with state.db.transaction() as conn:
            channel_messages.edit(state, conn, Outbox(state), Writer(state), channel_id=GENERAL,
                                  editor=channel_messages.Author(BOB, False), message_id=message_id,
                                  body=read_message_input({"content": "a spoon"}, editing=True), files=[],
                                  base_url=emu.base_url)
    except ApiError as error:
        assert error.status == 400 and error.code == 200000
    else:
        raise AssertionError("the edit was not blocked")
    assert messages_in(emu, GENERAL)[0]["content"] == "a fork"
    assert len(audit_entries(emu, 143)) == 1   # the block is recorded though the edit rolled back


def test_a_thread_title_is_screened(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_rule(emu, keyword_rule(["spoon"]))
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?",   # members may start threads
                         (str(int(DEFAULT_EVERYONE | Permission.CREATE_PUBLIC_THREADS)), GUILD_ID))
    start = f"{emu.base_url}/_emulator/channels/{GENERAL}/threads"
    refused = httpx.post(start, json={"author_id": str(BOB), "name": "Spoon club", "type": 11})
    assert blocked(refused, 200001), refused.text
    assert refused.json()["message"] == "Title was blocked by automatic moderation"
    assert emu.state.db.query_one("SELECT COUNT(*) FROM channels WHERE type IN (10, 11, 12)")[0] == 0
    made = httpx.post(start, json={"author_id": str(BOB), "name": "Fork club", "type": 11})
    assert made.status_code == 201, made.text

    # a forum post: its title, then its first message; either blocked leaves no post behind
    grant_bot(emu, MANAGER | Permission.MANAGE_CHANNELS)
    forum = call(emu, "POST", f"/guilds/{GUILD_ID}/channels", {"name": "ideas", "type": 15})
    assert forum.status_code == 201, forum.text
    post = f"{emu.base_url}/_emulator/channels/{forum.json()['id']}/threads"
    titled = httpx.post(post, json={"author_id": str(BOB), "name": "Spoon ideas", "message": {"content": "hi"}})
    assert blocked(titled, 200001), titled.text
    said = httpx.post(post, json={"author_id": str(BOB), "name": "Cutlery", "message": {"content": "spoon"}})
    assert blocked(said), said.text
    assert emu.state.db.query_one("SELECT COUNT(*) FROM channels WHERE parent_id = ?", (int(forum.json()["id"]),))[0] == 0
    fine = httpx.post(post, json={"author_id": str(BOB), "name": "Cutlery", "message": {"content": "fork"}})
    assert fine.status_code == 201 and fine.json()["message"]["content"] == "fork", fine.text
    assert len(audit_entries(emu, 143)) == 3


def test_rule_events_need_the_configuration_intent(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | AUTOMOD_EXECUTION)
        await asyncio.to_thread(make_rule, emu, keyword_rule(["spoon"]))
        await client.no_dispatch("AUTO_MODERATION_RULE_CREATE")
        assert blocked(await asyncio.to_thread(user_posts, emu, GENERAL, BOB, content="spoon"))
        assert (await client.dispatch("AUTO_MODERATION_ACTION_EXECUTION"))["d"]["action"]["type"] == 1
        await client.close()
        configured = await GatewayClient.connect(emu)
        await configured.identify(BOT_TOKEN, intents=GUILDS | AUTOMOD_CONFIGURATION)
        assert blocked(await asyncio.to_thread(user_posts, emu, GENERAL, BOB, content="spoon"))
        await configured.no_dispatch("AUTO_MODERATION_ACTION_EXECUTION")
        await configured.close()

    asyncio.run(scenario())


def test_a_member_profile_rule_quarantines_a_nickname_until_it_passes(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    rule = make_rule(emu, {"name": "Names", "event_type": 2, "trigger_type": 6, "enabled": True,
                           "trigger_metadata": {"keyword_filter": ["*spoon*"]},
                           "actions": [{"type": 4}, {"type": 2, "metadata": {"channel_id": str(GENERAL)}}]})
    grant_bot(emu, MANAGER | Permission.MANAGE_NICKNAMES)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | AUTOMOD_EXECUTION | MESSAGE_CONTENT)
        renamed = await asyncio.to_thread(call, emu, "PATCH", f"/guilds/{GUILD_ID}/members/{BOB}",
                                          {"nick": "Teaspoon Tim"})
        assert renamed.status_code == 200, renamed.text
        executions = [(await client.dispatch("AUTO_MODERATION_ACTION_EXECUTION"))["d"] for _ in range(2)]
        assert [e["action"]["type"] for e in executions] == [4, 2]
        assert executions[0]["rule_id"] == rule["id"] and executions[0]["rule_trigger_type"] == 6
        assert executions[0]["content"] == "Teaspoon Tim" and executions[0]["matched_content"] == "Teaspoon"
        assert "channel_id" not in executions[0] and "alert_system_message_id" in executions[1]
        await client.close()

    set_message_content(emu, APP_ID, True)
    asyncio.run(scenario())
    member = call(emu, "GET", f"/guilds/{GUILD_ID}/members/{BOB}").json()
    assert member["flags"] & (1 << 7)
    entries = audit_entries(emu, 146)
    assert len(entries) == 1 and entries[0]["target_id"] == str(BOB)
    assert entries[0]["options"] == {"auto_moderation_rule_name": "Names", "auto_moderation_rule_trigger_type": "6"}
    # a nickname that passes lets the member out
    assert call(emu, "PATCH", f"/guilds/{GUILD_ID}/members/{BOB}", {"nick": "Tim"}).status_code == 200
    assert not call(emu, "GET", f"/guilds/{GUILD_ID}/members/{BOB}").json()["flags"] & (1 << 7)
