"""Tournaments through SimCord, as a server's organiser and its players use them (issue 36, part 1):
a 9-player Swiss Uonga of 4 rounds played to the end, an 8-player Honga at tables of 4 with a restart
in round 2 and a dropped player, and a knockout of 8 with a no-show."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

import discord
import pytest

from bot.i18n import translator
from bot.tournament.texts import points as shown_points
from engine.games.honga_turn import raw_total
from engine.tournament.model import FINISHED, RUNNING
from tests.bot.helpers import board, button_id, custom_ids, forge_first_button, restart
from tests.conftest import create_database
from tests.kit_honga import HongaKit
from tests.kit_uonga import UongaKit

TR = translator("en")


@pytest.fixture
async def db_path(request, tmp_path):
    """The bot's database: SQLite by default; ``postgres`` (indirect parametrization) a fresh database
    on the tests' PostgreSQL server."""
    if getattr(request, "param", "sqlite") == "postgres":
        return await create_database(
            request.getfixturevalue("postgres_url"), request.getfixturevalue("pg_schema")
        )
    return str(tmp_path / "games.db")


MINUTE = 60


def tournament_message(channel: Any, tid: int) -> discord.Message:
    return next(
        m for m in reversed(channel.history()) if any(c.startswith(f"t:{tid}:") for c in custom_ids(m))
    )


def standings_posts(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if m.attachments and m.attachments[0].filename == "standings.png"]


def organiser(env: Any, n: int, *, game_names: str = "p") -> tuple[Any, Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("tournaments")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[managers])
    players = [guild.add_member(env.create_user(f"{game_names}{i}")) for i in range(n)]
    return guild, channel, boss, players


async def create(env: Any, channel: Any, boss: Any, players: list[Any], **options: Any) -> int:
    r = await boss.slash(channel, "tournament create", **options)
    assert not r.ephemeral, r.response and r.response.content
    tid = int(custom_ids(r.response.message, "t:")[0].split(":")[1])
    for p in players:
        msg = tournament_message(channel, tid)
        r = await p.click(msg, custom_id=button_id(msg, "join", "t"))
        assert not r.ephemeral, r.response and r.response.content
    return tid


async def start(env: Any, channel: Any, boss: Any, tid: int) -> None:
    msg = tournament_message(channel, tid)
    r = await boss.click(msg, custom_id=button_id(msg, "start", "t"))
    assert not r.ephemeral, r.response and r.response.content


def member(players: list[Any], user_id: int) -> Any:
    return next(p for p in players if p.id == user_id)


def thread(channel: Any, thread_id: int) -> Any:
    return next(t for t in channel.threads if t.id == thread_id)


async def resign(env: Any, channel: Any, players: list[Any], match_id: int, user_id: int) -> None:
    m, _ = await env.bot.matches.get(match_id)
    r = await member(players, user_id).slash(thread(channel, m.channel_id), "game resign", confirm=True)
    assert r.ephemeral and r.response.content in (TR("done.resigned_lost"), TR("done.resigned"))


class Hand:
    """The standings worked out by hand from what the test made happen: points (win 1, draw ½, bye 1),
    Buchholz (the sum of the final points of each opponent; a bye adds 0) and Sonneborn-Berger (the
    final points of each opponent beaten, half of each drawn)."""

    def __init__(self) -> None:
        self.games: list[tuple[int, int, Fraction]] = []  # (a, b, a's score)
        self.byes: list[int] = []

    def points(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for a, b, score in self.games:
            out[a] = out.get(a, Fraction(0)) + score
            out[b] = out.get(b, Fraction(0)) + 1 - score
        for p in self.byes:
            out[p] = out.get(p, Fraction(0)) + 1
        return out

    def tiebreaks(self, player: int) -> tuple[Fraction, Fraction]:
        pts = self.points()
        bh = sb = Fraction(0)
        for a, b, score in self.games:
            if player in (a, b):
                other, mine = (b, score) if player == a else (a, 1 - score)
                bh += pts[other]
                sb += pts[other] * mine
        return bh, sb


@pytest.mark.parametrize("db_path", ["sqlite", "postgres"], indirect=True)
async def test_a_nine_player_swiss_uonga_of_four_rounds(simcord_env, bot_factory):
    """Played to the end, with a restart of the bot in round 3 (on SQLite and on PostgreSQL)."""
    env = simcord_env
    _, channel, boss, players = organiser(env, 9)
    tid = await create(
        env, channel, boss, players, game="uonga", format="swiss", rounds=4, title="Spring Swiss"
    )
    text = tournament_message(channel, tid).content
    assert "Spring Swiss" in text and "p8" in text and TR("tournament.players", n=9, names="")[:12] in text
    await start(env, channel, boss, tid)
    rng, hand, kit = random.Random(5), Hand(), UongaKit()
    met: set[frozenset[int]] = set()
    sides: dict[int, int] = {p.id: 0 for p in players}  # Cavemen games minus Mastodons games
    for round_no in range(1, 5):
        t = await env.bot.tournaments.get(tid)
        assert t.status == RUNNING and t.round == round_no
        tables = [g for g in t.of_round(round_no) if not g.bye]
        byes = [g.players[0] for g in t.of_round(round_no) if g.bye]
        assert len(tables) == 4 and len(byes) == 1, "one bye per round"
        assert byes[0] not in hand.byes, "never the same player's bye twice"
        hand.byes.extend(byes)
        for g in tables:
            pair = frozenset(g.players)
            assert pair not in met, "no repeated pairing"
            met.add(pair)
            m, state = await env.bot.matches.get(g.match_id)
            here = thread(channel, g.thread_id)
            assert m.channel_id == g.thread_id and m.meta.tournament == tid and m.status == "active"
            assert here.name == TR("tournament.thread", round=round_no, table=g.table, title="Spring Swiss")
            assert [s.user_id for s in m.seats] == g.players and state.cav_seat == 0, "seat 0: the Cavemen"
            assert custom_ids(board(here), "g:") or custom_ids(board(here), "v:"), (
                "the board is in the thread"
            )
            assert all(f"<@{u}>" in here.history()[0].content for u in g.players), "the players are called"
            sides[g.players[0]] += 1
            sides[g.players[1]] -= 1
        if round_no == 3:  # the bot restarts mid-round: the tournament and its matches go on
            await restart(env, bot_factory)
        # the first table plays a few moves by clicking in its thread; then one player resigns each
        # table (the loser), except a table per round that the organiser ends (a draw, by the rule)
        first = tables[0]
        here = thread(channel, first.thread_id)
        for _ in range(4):
            await (await kit.next_click(env, here, players, first.match_id, rng))()
        drawn = tables[-1] if round_no % 2 == 0 else None
        for g in tables:
            if g is drawn:
                r = await boss.slash(thread(channel, g.thread_id), "game end")
                assert r.ephemeral and r.response.content == TR("done.ended")
                hand.games.append((g.players[0], g.players[1], Fraction(1, 2)))
                continue
            loser = rng.choice(g.players)
            await resign(env, channel, players, g.match_id, loser)
            hand.games.append((g.players[0], g.players[1], Fraction(int(loser == g.players[1]))))
        posted = standings_posts(channel)
        if round_no < 4:
            assert len(posted) == round_no, "the standings after each round"
            assert posted[-1].content.startswith(
                TR("tournament.standings_text", round=round_no, rounds=4, lines="")
            )
    t = await env.bot.tournaments.get(tid)
    assert t.status == FINISHED and t.round == 4
    assert all(abs(v) <= 1 for v in sides.values()), f"sides balanced: {sides}"
    final = standings_posts(channel)[-1]
    assert final.content.startswith(TR("tournament.final_text", title="Spring Swiss", lines="").strip())
    # the posted final standings equal the hand computation, line by line
    pts = hand.points()
    lines = final.content.splitlines()[1:]
    assert len(lines) == 9
    seen_order = []
    for line in lines:
        found = re.fullmatch(r"=?(\d+)\. (\S+): (\S+) \((\S+) · (\S+) · (\d+)\) (\d+)-(\d+)-(\d+)", line)
        assert found, line
        user = next(p for p in players if p.name == found[2])
        bh, sb = hand.tiebreaks(user.id)
        assert found[3] == shown_points(pts[user.id]), (line, pts[user.id])
        assert (found[4], found[5]) == (shown_points(bh), shown_points(sb)), (line, bh, sb)
        seen_order.append((-pts[user.id], -bh, -sb))
    assert seen_order == sorted(seen_order), "ranked by points, then Buchholz, then Sonneborn-Berger"
    msg = tournament_message(channel, tid)
    assert TR("tournament.finished", names="")[:10] in msg.content


async def finish_round(
    env: Any,
    channel: Any,
    tid: int,
    round_no: int,
    players: list[Any] = (),
    present: set[int] = frozenset(),
    step: float = 60,
    limit: int = 2000,
) -> None:
    """Let virtual time run until round ``round_no`` is over. The ``present`` players take each of
    their turns (a random click) until the round's time is up; the others never come (their second
    time-out forfeits their seat), and once the time is up the computer plays every turn nobody takes."""
    rng, kit = random.Random(round_no), HongaKit()
    for _ in range(limit):
        t = await env.bot.tournaments.get(tid)
        if t.round > round_no or t.status == FINISHED:
            return
        clicked = False
        for g in t.of_round(round_no) if t.round_deadline is not None else ():
            if g.match_id is None or g.places is not None:
                continue
            m, state = await env.bot.matches.get(g.match_id)
            seat = getattr(state, "current", None) if m.status == "active" else None
            if seat is not None and m.seats[seat].user_id in present and not m.seats[seat].ai:
                await (
                    await kit.next_click(
                        env, thread(channel, g.thread_id), players, g.match_id, rng, cards=False
                    )
                )()
                clicked = True
        if not clicked:
            await env.advance_time(step)
    raise AssertionError(f"round {round_no} did not end")


def placements_points(m: Any, state: Any, final: Any) -> dict[int, Fraction]:
    """By hand: the share of the table a player beat (winners first, then points, then Honga's raw
    materials; whoever resigned or forfeited after those who stayed)."""
    n = len(m.seats)
    if final is None:  # every player forfeited: nobody beat anybody, a draw
        return {s.user_id: Fraction(1, 2) for s in m.seats}

    def key(i: int) -> tuple[int, int, int, int]:
        won = i in final.winners
        return (
            won,
            i not in final.resigned,
            0 if won else final.scores[i],
            0 if won else raw_total(state, i),
        )

    out = {}
    for i, s in enumerate(m.seats):
        beaten = sum(1 for j in range(n) if key(j) < key(i))
        tied = sum(1 for j in range(n) if j != i and key(j) == key(i))
        out[s.user_id] = (beaten + Fraction(tied, 2)) / (n - 1)
    return out


async def test_an_eight_player_honga_at_tables_of_four_with_a_restart_and_a_drop(simcord_env, bot_factory):
    env = simcord_env
    _, channel, boss, players = organiser(env, 8, game_names="h")
    tid = await create(env, channel, boss, players, game="honga", format="swiss", rounds=3, table_size=4,
                       round_minutes=10)  # fmt: skip
    await start(env, channel, boss, tid)
    hand: dict[int, Fraction] = {p.id: Fraction(0) for p in players}

    async def score_round(round_no: int) -> None:
        t = await env.bot.tournaments.get(tid)
        for g in t.of_round(round_no):
            m, state = await env.bot.matches.get(g.match_id)
            assert m.status in ("finished", "cancelled"), "over: played, or every player forfeited"
            for user, pts in placements_points(m, state, env.bot.matches.final(m, state)).items():
                hand[user] += pts

    t = await env.bot.tournaments.get(tid)
    assert [len(g.players) for g in t.of_round(1)] == [4, 4]
    assert all(thread(channel, g.thread_id).name.startswith("R1 T") for g in t.of_round(1))
    present = {p.id for p in players[:2]} | {players[4].id}  # the others never come
    await finish_round(env, channel, tid, 1, players, present)
    await score_round(1)
    assert len(standings_posts(channel)) == 1
    # round 2: restart the bot while its matches run, then drop a player
    t = await env.bot.tournaments.get(tid)
    assert t.round == 2 and all(g.match_id for g in t.of_round(2))
    await env.advance_time(5 * MINUTE)
    await restart(env, bot_factory)
    dropped = players[3]
    r = await boss.slash(channel, "tournament drop", player=dropped)
    assert r.ephemeral and r.response.content == TR("tournament.done.dropped", name=dropped.name)
    r = await dropped.slash(channel, "tournament leave")
    assert r.ephemeral and r.response.content == TR("tournament.already_left")
    await finish_round(env, channel, tid, 2, players, present)
    await score_round(2)
    t = await env.bot.tournaments.get(tid)
    assert t.round == 3 and sorted(len(g.players) for g in t.of_round(3)) == [3, 4], "7 players: 4 and 3"
    assert all(dropped.id not in g.players for g in t.of_round(3)), "a dropped player plays no further round"
    await finish_round(env, channel, tid, 3, players, present)
    await score_round(3)
    t = await env.bot.tournaments.get(tid)
    assert t.status == FINISHED
    # the posted standings: the points of each player equal the hand computation
    final = standings_posts(channel)[-1].content.splitlines()[1:]
    by_name = {p.name: p.id for p in players}
    for line in final:
        found = re.fullmatch(r"=?\d+\. (\S+)( \(dropped\))?: (\S+) .*", line)
        assert found, line
        assert found[3] == shown_points(hand[by_name[found[1]]]), (line, hand[by_name[found[1]]])
        assert (found[2] is not None) == (found[1] == dropped.name)
    # the games count in the server's ratings as any others do
    stats = await env.bot.store.standings(channel.guild.id, str(players[0].id))
    assert stats["honga"].played == 3


async def test_a_knockout_of_eight_with_a_no_show(simcord_env):
    env = simcord_env
    _, channel, boss, players = organiser(env, 8, game_names="k")
    tid = await create(env, channel, boss, players, game="uonga", format="knockout", round_minutes=30)
    await start(env, channel, boss, tid)
    t = await env.bot.tournaments.get(tid)
    assert t.rounds == 3 and len(t.of_round(1)) == 4
    ghost = players[5].id  # never clicks anything
    rng = random.Random(3)
    for round_no in (1, 2, 3):
        t = await env.bot.tournaments.get(tid)
        assert t.round == round_no and len(t.of_round(round_no)) == 4 // 2 ** (round_no - 1)
        for g in t.of_round(round_no):
            if ghost in g.players:
                continue  # the ghost's turns run out: the computer plays the first, the second forfeits
            await resign(env, channel, players, g.match_id, rng.choice(g.players))
        if round_no == 1:
            ghost_game = next(g for g in t.of_round(1) if ghost in g.players)
            await finish_round(env, channel, tid, 1, step=MINUTE)
            m, _ = await env.bot.matches.get(ghost_game.match_id)
            assert m.meta.result is not None and m.meta.result.reason == "resignation"
            assert m.meta.strikes.count(m.seats.index(next(s for s in m.seats if s.user_id == ghost))) == 2
            assert (
                ghost
                not in (await env.bot.tournaments.get(tid)).of_round(2)[0].players
                + (await env.bot.tournaments.get(tid)).of_round(2)[1].players
            ), "the no-show is out"
    t = await env.bot.tournaments.get(tid)
    assert t.status == FINISHED
    final = standings_posts(channel)[-1]
    assert final.content.startswith(TR("tournament.final_text", title=t.title, lines="").strip())
    first = final.content.splitlines()[1]
    champion = next(g for g in t.of_round(3)).places
    assert first.startswith("1. ") and champion is not None


async def test_signup_closes_by_itself_and_managing_is_for_managers(simcord_env):
    """The sign-up deadline starts a tournament with enough players and closes one without; only its
    creator or a server manager starts, cancels, drops, pauses, resumes or ends it; bad clicks and
    commands say why privately and change nothing. Two tournaments in two servers run at once."""
    env = simcord_env
    _, ch1, boss1, (a, b, c) = organiser(env, 3, game_names="a")
    _, ch2, boss2, (d,) = organiser(env, 1, game_names="d")
    # a member who is not a manager may not create one, until the server allows it
    r = await a.slash(ch1, "tournament create", game="uonga")
    assert r.ephemeral and r.response.content == TR("tournament.create_managers")
    r = await boss1.slash(ch1, "tournament anyone", on=True)
    assert r.response.content == TR("tournament.done.anyone_on")
    t1 = await create(env, ch1, a, [a, b, c], game="uonga", format="knockout", signup_minutes=10)
    t2 = await create(env, ch2, boss2, [d], game="ugah", format="swiss", signup_minutes=10)
    r = await b.slash(ch1, "tournament create", game="uonga")
    assert r.ephemeral and r.response.content.startswith(TR("tournament.one_per_channel", link="")[:20])
    msg = tournament_message(ch1, t1)
    r = await b.click(msg, custom_id=button_id(msg, "join", "t"))
    assert r.ephemeral and r.response.content == TR("tournament.already_in")
    r = await b.click(msg, custom_id=button_id(msg, "start", "t"))
    assert r.ephemeral and r.response.content == TR("tournament.managers_only")
    r = await b.slash(ch1, "tournament drop", player=c)
    assert r.ephemeral and r.response.content == TR("tournament.managers_only")
    await env.advance_time(11 * MINUTE)
    one, two = await env.bot.tournaments.get(t1), await env.bot.tournaments.get(t2)
    assert one.status == RUNNING and one.round == 1 and len(one.of_round(1)) == 2, "3 players: a table, a bye"
    shown = next(m for m in ch2.history() if m.id == two.message_id)
    assert two.status == "cancelled" and TR("tournament.expired", n=1, min=2) in shown.content
    assert custom_ids(shown) == [], "a closed sign-up has no buttons left"
    # the creator (not a manager) manages their own tournament
    r = await a.slash(ch1, "tournament pause")
    assert r.response.content == TR("tournament.done.paused")
    assert (await env.bot.tournaments.get(t1)).round_deadline is None
    await env.advance_time(120 * MINUTE)
    assert (await env.bot.tournaments.get(t1)).round == 1, "a paused round's clock stands still"
    r = await a.slash(ch1, "tournament resume")
    assert r.response.content == TR("tournament.done.resumed")
    left = (await env.bot.tournaments.get(t1)).round_deadline - env.now().timestamp()
    assert 59 * MINUTE <= left <= 60 * MINUTE, left
    r = await c.slash(ch1, "tournament pause")
    assert r.response.content == TR("tournament.managers_only")
    r = await boss1.slash(ch1, "tournament end")
    assert r.response.content == TR("tournament.done.ended")
    t = await env.bot.tournaments.get(t1)
    assert t.status == FINISHED and t.ended_by == boss1.id
    assert standings_posts(ch1), "the final standings are posted when a manager ends it"
    r = await a.slash(ch1, "tournament standings")
    assert r.ephemeral and r.response.message.attachments


async def test_an_ubongo_race_as_a_tournament_table(simcord_env):
    """A real-time game plays a tournament's table like any other: its puzzles go by DM to the seated
    players, and a player who resigns is last at the table."""
    env = simcord_env
    _, channel, boss, players = organiser(env, 3, game_names="u")
    tid = await create(env, channel, boss, players, game="ubongo", format="knockout", table_size=3)
    await start(env, channel, boss, tid)
    t = await env.bot.tournaments.get(tid)
    [g] = t.of_round(1)
    assert len(g.players) == 3
    m, _ = await env.bot.matches.get(g.match_id)
    assert m.status == "active" and m.meta.tournament == tid
    for p in players:
        dm = p.user.dm_channel
        assert dm is not None and dm.history(), "each seat's puzzle by DM"
    for loser in g.players[1:]:
        await resign(env, channel, players, g.match_id, loser)
    m, _ = await env.bot.matches.get(g.match_id)
    assert m.status == "active" and m.seats[1].ai and m.seats[2].ai, "the computer races for who left"
    r = await boss.slash(thread(channel, g.thread_id), "game end")
    assert r.response.content == TR("done.ended")
    t = await env.bot.tournaments.get(tid)
    assert t.status == FINISHED and t.of_round(1)[0].places == [0, 0, 0], "ended without a result: a draw"
    champion = standings_posts(channel)[-1].content.splitlines()[1]
    assert champion.startswith("1. "), "a drawn knockout table: the better seed goes on"


async def test_a_deleted_channel_ends_its_tournament_and_its_matches(simcord_env):
    env = simcord_env
    _, channel, boss, players = organiser(env, 2, game_names="x")
    tid = await create(env, channel, boss, players, game="uonga", format="swiss", rounds=2)
    await start(env, channel, boss, tid)
    [g] = (await env.bot.tournaments.get(tid)).of_round(1)
    env.backend.delete_channel(channel.id)
    await env.advance_time(1)
    t = await env.bot.tournaments.get(tid)
    assert t.status == FINISHED and t.deadline is None, "nothing left to run: no timer, no retries"
    m, _ = await env.bot.matches.get(g.match_id)
    assert m.status == "cancelled" and m.timers == {}, "its match went with its thread"


@pytest.mark.simcord(check_errors=False)
async def test_discord_failing_while_a_round_opens_loses_nothing_and_opens_nothing_twice(simcord_env):
    """Thread creation and posts refused (Discord's 500s): the runner tries again; each table ends up
    with one thread, one match and its board, and every match opened is the table's."""
    env = simcord_env
    _, channel, boss, players = organiser(env, 4, game_names="f")
    tid = await create(env, channel, boss, players, game="uonga", format="swiss", rounds=1)
    env.inject_error("POST", "/channels/*/threads", status=500, times=1)
    env.inject_error("POST", "/channels/*/messages", status=500, times=3)
    await start(env, channel, boss, tid)
    for _ in range(10):
        await env.advance_time(10)
    t = await env.bot.tournaments.get(tid)
    tables = t.of_round(1)
    assert len(tables) == 2 and all(g.match_id and g.thread_id for g in tables)
    assert len({g.thread_id for g in tables}) == 2 and len(channel.threads) == 2, "no thread twice"
    for g in tables:
        here = thread(channel, g.thread_id)
        assert custom_ids(board(here), "g:") or custom_ids(board(here), "v:"), "each table has its board"
        assert (await env.bot.surfaces.board_row((await env.bot.matches.get(g.match_id))[0])).message_id
    opened = [
        mid for mid in await env.bot.store.live_ids() if (await env.bot.matches.get(mid))[0].meta.tournament
    ]
    assert sorted(opened) == sorted(g.match_id for g in tables), "no match opened twice"


async def test_forget_me_takes_a_player_off_the_tournament_message_at_once(simcord_env):
    """Data deletion reaches the tournament's message now, not at its next change: a player who
    signed up and asks to be forgotten is no longer named there."""
    env = simcord_env
    _, channel, boss, players = organiser(env, 3, game_names="zed")
    tid = await create(env, channel, boss, players, game="uonga", format="swiss", signup_minutes=60)
    gone = players[1]
    assert "zed1" in tournament_message(channel, tid).content
    r = await gone.slash(channel, "privacy forget-me", confirm=True)
    assert r.ephemeral and r.response.content.startswith(TR("privacy.done_me", user=gone.id, matches=0,
                                                            ratings=0, records=0)[:12])  # fmt: skip
    shown = tournament_message(channel, tid).content
    assert "zed1" not in shown, shown
    assert "zed0" in shown and "zed2" in shown


async def test_a_tournament_game_over_offers_no_rematch(simcord_env):
    """The tournament pairs the next round: a finished table's board has no Rematch button, and a
    rematch click on it (an old board's, a forged one) is refused, saying why, and opens nothing."""
    env = simcord_env
    _, channel, boss, players = organiser(env, 2, game_names="r")
    tid = await create(env, channel, boss, players, game="uonga", format="knockout")
    await start(env, channel, boss, tid)
    [g] = (await env.bot.tournaments.get(tid)).of_round(1)
    await resign(env, channel, players, g.match_id, g.players[0])
    m, _ = await env.bot.matches.get(g.match_id)
    assert m.status == "finished" and m.meta.tournament == tid
    where = thread(channel, g.thread_id)
    final = board(where)
    assert not any(c.endswith(":rematch") for c in custom_ids(final)), custom_ids(final)
    forge_first_button(env, where, f"l:{m.id}:0:rematch")  # an old board's, or a hand-made click
    final = board(where)
    r = await member(players, g.players[1]).click(final, custom_id=f"l:{m.id}:0:rematch")
    assert r.ephemeral and r.response.content == TR("rematch.tournament")
    m, _ = await env.bot.matches.get(g.match_id)
    assert m.meta.rematch is None and board(where).id == final.id, "no rematch was opened"
