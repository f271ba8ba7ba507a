"""/stats and /leaderboard through SimCord (issue 13): after two quick games (a resignation ends a
two-player game at once) the private replies show each player's games, wins and openskill rating."""

from __future__ import annotations

from openskill.models import PlackettLuce

from tests.bot.helpers import open_and_start, setup_table


async def test_stats_and_leaderboard_after_two_quick_games(simcord_env):
    env = simcord_env
    guild, channel, (alice, bob) = setup_table(env, 2)
    carol = guild.add_member(env.create_user("carol"))
    r = await alice.slash(channel, "stats")
    assert r.ephemeral and "no finished games" in r.response.content
    r = await alice.slash(channel, "leaderboard", game="ugah")
    assert r.ephemeral and "Nobody has finished a game of Ugah Ugah!" in r.response.content

    for _ in range(2):  # bob resigns twice: alice wins both
        mid = await open_and_start(env, channel, [alice, bob])
        r = await bob.slash(channel, "game resign", confirm=True)
        assert r.ephemeral and "opponent wins" in r.response.content
        assert (await env.bot.matches.get(mid))[0].status == "finished"

    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    for _ in range(2):
        [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])

    r = await alice.slash(channel, "stats")
    text = r.response.content
    assert r.ephemeral and "alice" in text and "Ugah Ugah!" in text
    assert f"rating **{a.ordinal():.1f}**" in text and "games: 2 · wins: 2" in text

    r = await carol.slash(channel, "stats", member=bob)  # someone else's, privately
    text = r.response.content
    assert r.ephemeral and "bob" in text and f"rating **{b.ordinal():.1f}**" in text
    assert "games: 2 · wins: 0" in text

    r = await carol.slash(channel, "leaderboard", game="ugah")
    text = r.response.content
    assert r.ephemeral and "Ugah Ugah!" in text
    first, second = text.splitlines()[1:3]
    assert first.startswith(f"1. <@{alice.id}>") and f"{a.ordinal():.1f}" in first
    assert second.startswith(f"2. <@{bob.id}>") and f"{b.ordinal():.1f}" in second

    r = await alice.slash(channel, "leaderboard", game="uonga")
    assert r.ephemeral and "Nobody has finished a game of Uonga" in r.response.content
