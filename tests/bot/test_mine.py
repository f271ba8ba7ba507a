"""/game mine (issue 36, part 2): a player's live games in every server and channel, privately, in their
language: the game, the others, whose turn, the time left and a jump link to each board; nothing for a
spectator; the same after a restart; a long list cut politely within Discord's 2,000 characters."""

from __future__ import annotations

import re

from bot import mine
from bot.i18n import translator
from tests.bot.helpers import board, button_id, open_and_start, restart
from tests.bot.test_i18n_bot import user_locales  # noqa: F401  (a fixture)

EN, DE = translator("en"), translator("de")


async def tables(env):
    """Two servers. In A: alice and bob play Ugah in #games, alice's Honga lobby in #more (carol
    joined). In B: bob and alice play Ugah. dave sits in A and plays nothing."""
    a, b = env.create_guild(), env.create_guild()
    users = {n: env.create_user(n) for n in ("alice", "bob", "carol", "dave")}
    in_a = {n: a.add_member(u) for n, u in users.items()}
    in_b = {n: b.add_member(users[n]) for n in ("alice", "bob")}
    games, more, games_b = (
        a.create_text_channel("games"),
        a.create_text_channel("more"),
        b.create_text_channel("games"),
    )
    first = await open_and_start(env, games, [in_a["alice"], in_a["bob"]], variant="basic")
    r = await in_a["alice"].slash(more, "honga start", target="short")
    assert not r.ephemeral
    await in_a["carol"].click(board(more), custom_id=button_id(board(more), "join", "l"))
    lobby = (await env.bot.matches.live_in_channel(more.id)).id
    second = await open_and_start(env, games_b, [in_b["bob"], in_b["alice"]], variant="basic")
    return in_a, in_b, {"first": (a, games, first), "lobby": (a, more, lobby), "second": (b, games_b, second)}


async def expected(env, place, seat: int, tr) -> str:
    guild, channel, mid = place
    m, state = await env.bot.matches.get(mid)
    link = f"https://discord.com/channels/{guild.id}/{channel.id}/{board(channel).id}"
    return mine.line(m, state, seat, link, tr)


async def test_each_player_sees_their_own_live_games_in_every_server(simcord_env, bot_factory, user_locales):  # noqa: F811
    env = simcord_env
    members, _, places = await tables(env)
    alice, bob, carol, dave = (members[n] for n in ("alice", "bob", "carol", "dave"))
    user_locales[bob.id] = "de"
    channel = places["first"][1]
    for round_ in ("before", "after a restart"):
        r = await alice.slash(channel, "game mine")
        assert r.ephemeral, round_
        text = r.response.content
        lines = text.split("\n")
        assert lines[0] == EN("mine.title", n=3), text
        want = {
            await expected(env, places["first"], 0, EN),
            await expected(env, places["lobby"], 0, EN),
            await expected(env, places["second"], 1, EN),
        }
        assert set(lines[1:]) == want, (round_, text)
        for line in lines[1:]:  # every line: a live time and a link to a board of hers
            assert re.search(r"<t:\d+:R>", line) and "https://discord.com/channels/" in line, line
        assert "bob" in lines[1] or "carol" in lines[1]
        lobby_line = next(x for x in lines if "Honga" in x)
        assert "carol" in lobby_line and EN("mine.lobby") in lobby_line
        _, state = await env.bot.matches.get(places["first"][2])
        first_line = next(x for x in lines if f"/{places['first'][1].id}/" in x)
        assert (EN("mine.your_turn") in first_line) == (state.current == 0), first_line
        if state.current == 0:
            assert lines[1] == first_line, "your turn comes first"

        r = await bob.slash(channel, "game mine")  # bob: the two Ugah games, in German
        assert r.ephemeral and r.response.content.split("\n")[0] == DE("mine.title", n=2)
        assert set(r.response.content.split("\n")[1:]) == {
            await expected(env, places["first"], 1, DE),
            await expected(env, places["second"], 0, DE),
        }
        r = await carol.slash(channel, "game mine")  # carol: the lobby she joined only
        assert r.response.content.split("\n")[1:] == [await expected(env, places["lobby"], 1, EN)]
        r = await dave.slash(channel, "game mine")  # dave watches: nothing
        assert r.ephemeral and r.response.content == EN("mine.none")
        if round_ == "before":
            await restart(env, bot_factory)


async def test_a_game_left_or_over_is_no_longer_listed(simcord_env):
    env = simcord_env
    members, in_b, places = await tables(env)
    alice = members["alice"]
    more = places["lobby"][1]
    await alice.click(board(more), custom_id=button_id(board(more), "cancel", "l"))
    r = await in_b["alice"].slash(places["second"][1], "game resign", confirm=True)  # two seats: it is over
    assert r.ephemeral
    r = await alice.slash(more, "game mine")
    assert r.response.content.split("\n") == [
        EN("mine.title", n=1),
        await expected(env, places["first"], 0, EN),
    ]


def test_a_long_list_is_cut_politely_within_discords_limit():
    lines = [
        f"• **Honga** with someone · your turn · [board](https://discord.com/channels/1/2/{i})"
        for i in range(80)
    ]
    text = mine.listing(lines, EN)
    assert len(text) <= mine.LIMIT
    shown = text.split("\n")[1:-1]
    assert shown == lines[: len(shown)] and text.endswith(EN("mine.more", n=80 - len(shown)))
    assert mine.listing(lines[:3], EN).split("\n")[1:] == lines[:3], "what fits is listed whole"
    for n in range(1, 80):  # never over the limit, whatever the count
        assert len(mine.listing(lines[:n], EN, limit=600)) <= 600
