"""The ways a game ends agree on every surface (issue 33): a member who resigned is never named the
winner (board, thread line, /stats), still owns their decisions (🎓), and is said to have resigned;
resign in a lobby says Leave; a rematch never waits on a player who asked to be forgotten; a game in
its own thread is reached from the channel it was started in."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import engine.lobby
from bot.cogs.stats import line
from bot.games.base import Ctx
from bot.i18n import translator
from engine import ratings
from engine.games.honga import RULES as HONGA
from engine.games.ubongo import RULES as UBONGO
from engine.games.ugah import RULES as UGAH
from tests.bot.helpers import board, button_id, custom_ids, restart, setup_table
from tests.kit_ubongo import dm_board

TR = translator(None)
TURN = 10  # seconds: nobody clicks, so every turn runs out and the computer plays it


@pytest.fixture
def seed(monkeypatch):
    """``seed(n)``: the next matches are dealt from ``n`` (then n+1...)."""

    def use(n: int) -> None:
        seeds = iter(range(n, n + 100))
        monkeypatch.setattr(engine.lobby, "_new_seed", lambda: next(seeds))

    return use


def answered(r: Any) -> Any:
    assert r.acknowledged, f"unanswered: {r!r}"
    return r


async def lobby_of_three(env: Any, **options: Any) -> tuple[Any, Any, list[Any], int]:
    """alice opens Ugah, bob and carol join; (guild, channel, players, match id) of the lobby."""
    guild, channel, players = setup_table(env, 3)
    r = answered(await players[0].slash(channel, "ugah start", **options))
    assert not r.ephemeral, r.response.content
    for p in players[1:]:
        answered(await p.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    m = await env.bot.matches.live_in_channel(channel.id)
    return guild, channel, players, m.id


async def run_out(env: Any, mid: int, limit: int = 600) -> Any:
    """Virtual time runs on until the match is over; its row."""
    for _ in range(limit):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        await env.advance_time(TURN + 1)
    await env.bot.surfaces.settle(mid)
    m, _ = await env.bot.matches.get(mid)
    return m


async def test_a_resigned_member_is_never_the_winner_and_keeps_their_lessons(simcord_env, seed):
    """Ugah with three seats in its own thread (seed 2): bob resigns at once, the computer plays his
    seat and, as it happens, scores most (22, 23, 18). The board, the line in the channel and /stats
    agree: alice wins, bob resigned and the computer played his seat; bob's 🎓 finds his seat."""
    env = simcord_env
    seed(2)
    _, channel, (alice, bob, carol), mid = await lobby_of_three(env, thread=True, turn_seconds=TURN)
    line_id = board(channel).id
    answered(await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    [thread] = channel.threads
    r = answered(await bob.slash(thread, "game resign", confirm=True))
    assert r.response.content == TR("done.resigned")
    await env.bot.surfaces.settle(mid)
    game_button = next(c for c in custom_ids(board(thread), "g:"))
    r = answered(await bob.click(board(thread), custom_id=game_button))  # he no longer plays here
    assert r.ephemeral and TR("error.not_in_match") in r.response.content, r.response.content
    m = await run_out(env, mid)
    _, state = await env.bot.matches.get(mid)
    assert m.status == "finished" and UGAH.outcome(state).winners == [1], "the count names bob's seat"
    final = board(thread)
    assert "Winner: alice." in final.content and "Winner: bob" not in final.content, final.content
    note = TR("match.resigned_played", names="bob")
    assert note in final.content
    timed = TR("match.timed_out_played", names="alice & carol")  # nobody clicked: their turns ran out
    assert f"{note} {timed}" in final.content, final.content
    assert Ctx(m, state, TR).view()["winners"] == [0], "the picture is drawn from the decided winners"
    channel_line = next(x for x in channel.history() if x.id == line_id)
    assert "Winner: alice." in channel_line.content and f"{note} {timed}" in channel_line.content
    # /stats: alice won, bob did not (and says so in the same words as the ratings)
    for who, wins in ((alice, 1), (bob, 0), (carol, 0)):
        standing = (await env.bot.store.standings(m.guild_id, ratings.user_key(who.id)))["ugah"]
        assert (standing.played, standing.wins) == (1, wins), who.user.name
        r = answered(await who.slash(channel, "stats"))
        assert line(TR, standing) in r.response.content
    # /replay's last step says how it ended, as the board does
    r = answered(await carol.slash(channel, "replay", match=mid))
    msg = r.response.message
    r = answered(await carol.click(msg, custom_id=button_id(msg, "last", "r")))
    last = r.response.message.content if r.response else r.followups[-1].content
    assert "Winner: alice." in last and f"{note} {timed}" in last, last
    # 🎓: bob's seat is still his, though the computer played it (he made no decision himself)
    r = answered(await bob.click(final, custom_id=f"h:{mid}:0:lessons"))
    text = (r.followups[-1] if r.followups else r.response).content
    assert TR("error.not_in_match") not in text
    assert TR("lessons.no_decisions") in text, text


async def test_resign_in_a_lobby_says_to_use_leave_before_it_is_confirmed(simcord_env):
    env = simcord_env
    _, channel, (alice, bob, _carol), mid = await lobby_of_three(env)
    for confirm in (False, True):
        r = answered(await bob.slash(channel, "game resign", confirm=confirm))
        assert r.ephemeral and r.response.content == TR("lobby.use_leave"), (confirm, r.response.content)
        r = answered(await alice.slash(channel, "game resign", confirm=confirm))  # the host cannot leave
        assert r.ephemeral and r.response.content == TR("lobby.use_cancel"), (confirm, r.response.content)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "lobby" and len(m.seats) == 3


async def finished_with_forgotten(env: Any, seats: int) -> tuple[Any, list[Any], int]:
    """Ugah of ``seats`` people, played out by the computer as every turn runs out; then bob asks to
    be forgotten. (channel, players, match id)."""
    _, channel, players = setup_table(env, seats)
    answered(await players[0].slash(channel, "ugah start", turn_seconds=TURN))
    for p in players[1:]:
        answered(await p.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    answered(await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    mid = (await env.bot.matches.live_in_channel(channel.id)).id
    assert (await run_out(env, mid)).status == "finished"
    r = answered(await players[1].slash(channel, "privacy forget-me", confirm=True))
    m, _ = await env.bot.matches.get(mid)
    assert m.seats[1].user_id is None, r.response.content
    return channel, players, mid


async def test_a_rematch_leaves_out_a_player_who_asked_to_be_forgotten(simcord_env):
    """Three seats, bob forgotten: alice's rematch waits only for carol (never on "a former player
    ⏳"), and carol's Accept starts it with the two of them."""
    env = simcord_env
    channel, (alice, _bob, carol), mid = await finished_with_forgotten(env, 3)
    answered(await alice.click(board(channel), custom_id=f"l:{mid}:0:rematch"))
    offer = await env.bot.matches.live_in_channel(channel.id)
    assert [s.user_id for s in offer.seats] == [alice.id, carol.id]
    assert offer.meta.pending == [carol.id] and TR("seat.forgotten") not in board(channel).content
    answered(await carol.click(board(channel), custom_id=button_id(board(channel), "accept", "l")))
    m, _ = await env.bot.matches.get(offer.id)
    assert m.status == "active" and [s.user_id for s in m.seats] == [alice.id, carol.id]


async def test_a_two_seat_rematch_without_its_forgotten_player_says_so_at_once(simcord_env):
    env = simcord_env
    channel, (alice, _bob), mid = await finished_with_forgotten(env, 2)
    r = answered(await alice.click(board(channel), custom_id=f"l:{mid}:0:rematch"))
    assert r.ephemeral and r.response.content == TR("rematch.forgotten", game="ugah", min=2)
    assert await env.bot.matches.live_in_channel(channel.id) is None, "no offer waits on a former player"


async def test_a_rematch_seats_the_computer_for_a_member_who_resigned(simcord_env):
    """bob resigned a three-seat game: the rematch does not wait for him (he left) and does not call
    the computer that played his seat "bob"."""
    env = simcord_env
    _, channel, (alice, bob, carol), mid = await lobby_of_three(env, turn_seconds=TURN)
    answered(await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    answered(await bob.slash(channel, "game resign", confirm=True))
    assert (await run_out(env, mid)).status == "finished"
    answered(await alice.click(board(channel), custom_id=f"l:{mid}:0:rematch"))
    offer = await env.bot.matches.live_in_channel(channel.id)
    assert [(s.user_id, s.name, s.ai) for s in offer.seats] == [
        (alice.id, "alice", False), (None, "Computer 1", True), (carol.id, "carol", False)
    ]  # fmt: skip
    assert offer.meta.pending == [carol.id]


async def thread_game(env: Any, channel: Any, host: Any, guest: Any) -> tuple[int, Any]:
    """``host`` starts Ugah in its own thread from ``channel``, ``guest`` joins: (match id, thread)."""
    answered(await host.slash(channel, "ugah start", thread=True))
    answered(await guest.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    before = {t.id for t in channel.threads}
    answered(await host.click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    [thread] = [t for t in channel.threads if t.id not in before]
    return (await env.bot.matches.live_in_channel(thread.id)).id, thread


async def test_a_game_in_its_thread_is_reached_from_the_channel_it_was_started_in(simcord_env, bot_factory):
    """/game board, resign and end in the channel act on the user's game in a thread started there;
    a moderator's /game end acts on the only one, and lists the threads when there are several."""
    env = simcord_env
    guild, channel, (alice, bob, carol, dave) = setup_table(env, 4)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("modkate"), roles=[mods])
    first, thread1 = await thread_game(env, channel, alice, bob)
    second, thread2 = await thread_game(env, channel, carol, dave)
    r = answered(await alice.slash(channel, "game hand"))  # a hand is shown where its game is: pointed to
    assert r.ephemeral and r.response.content == TR("error.no_match_threads", threads=f"<#{thread1.id}>")
    r = answered(await bob.slash(channel, "game resign"))
    assert r.response.content == TR("resign.ask_lost", name="alice"), r.response.content
    r = answered(await carol.slash(channel, "game board"))
    assert (r.followups[-1] if r.followups else r.response).content == TR("done.reposted")
    await restart(env, bot_factory)  # the threads are known after a restart too
    r = answered(await mod.slash(channel, "game end"))
    assert f"<#{thread1.id}>" in r.response.content and f"<#{thread2.id}>" in r.response.content
    assert [(await env.bot.matches.get(x))[0].status for x in (first, second)] == ["active", "active"]
    r = answered(await alice.slash(channel, "game end"))
    assert r.response.content == TR("done.ended")
    await env.bot.surfaces.settle(first)
    assert "ended by alice" in board(thread1).content
    r = answered(await mod.slash(channel, "game end"))  # one left: the moderator ends it
    assert r.response.content == TR("done.ended")
    m, _ = await env.bot.matches.get(second)
    assert m.status == "cancelled" and m.meta.ended_by_name == "modkate"
    r = answered(await alice.slash(channel, "game end"))
    assert r.response.content == TR("error.no_match")


async def resigned_three(
    env: Any, game: str, *, done: bool = True, **options: Any
) -> tuple[Any, list[Any], int]:
    """``game`` with alice, bob and carol; bob resigns at once and nobody clicks again: the computer
    plays every turn to the end (unless not ``done``). (channel, players, match id)."""
    _, channel, players = setup_table(env, 3)
    answered(await players[0].slash(channel, f"{game} start", **options))
    for p in players[1:]:
        answered(await p.click(board(channel), custom_id=button_id(board(channel), "join", "l")))
    answered(await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l")))
    mid = (await env.bot.matches.live_in_channel(channel.id)).id
    answered(await players[1].slash(channel, "game resign", confirm=True))
    await env.bot.surfaces.settle(mid)
    if done:
        assert (await run_out(env, mid, limit=1500)).status == "finished"
    return channel, players, mid


async def test_honga_a_resigned_member_never_wins_and_the_tiebreak_follows(simcord_env, seed):
    """Honga (seed 1): the computer's count for bob's seat is the best (21, 28, 13); alice wins, by
    most points, on the board, its picture's words and every player's view."""
    env = simcord_env
    seed(1)
    channel, _players, mid = await resigned_three(env, "honga", target="short", turn_seconds=TURN)
    m, state = await env.bot.matches.get(mid)
    assert HONGA.outcome(state).winners == [1]
    final = board(channel)
    winner = TR("honga.status.over", winners="alice", tiebreak=TR("honga.tiebreak.score"), scores="")
    assert winner.split(". Scores")[0] in final.content, final.content
    assert TR("match.resigned_played", names="bob") in final.content
    assert TR("honga.alt.over", winners="alice") in final.attachments[0].description
    for seat in (None, 0, 1, 2):
        view = Ctx(m, state, TR, seat=seat).view()
        assert (view["winners"], view["tiebreak"]) == ([0], "score"), seat


async def test_ubongo_a_resigned_member_never_wins_and_their_dm_says_so(simcord_env, seed):
    """Ubongo: bob resigns, the computer solves his puzzles while alice and carol let every round run
    out: by the count his seat wins (0, 24, 0); alice and carol share the win on the board, in every
    DM and on /stats. Bob's DM stops offering his puzzle at once, and shows the result at the end."""
    env = simcord_env
    seed(1)
    channel, (alice, bob, carol), mid = await resigned_three(env, "ubongo", done=False, side="A")
    m, _ = await env.bot.matches.get(mid)
    assert dm_board(bob).content == TR("private.resigned", game=TR(f"game.{m.game}"))
    assert dm_board(bob).components == [], "nothing to click in a seat the computer plays"
    assert (await run_out(env, mid, limit=1500)).status == "finished"
    m, state = await env.bot.matches.get(mid)
    assert UBONGO.outcome(state).winners == [1]
    winner = "Winner: alice & carol."
    note = TR("match.resigned_played", names="bob")
    assert winner in board(channel).content and note in board(channel).content, board(channel).content
    for p in (alice, bob, carol):
        assert winner in dm_board(p).content and note in dm_board(p).content, (
            p.user.name,
            dm_board(p).content,
        )
    for who, wins in ((alice, 1), (bob, 0), (carol, 1)):
        standing = (await env.bot.store.standings(m.guild_id, ratings.user_key(who.id)))["ubongo"]
        assert standing.wins == wins, who.user.name


async def test_a_game_ended_early_names_who_ended_it_and_whom_the_computer_played_for(simcord_env):
    """bob resigned a three-seat game, then the host ended it: the board says both."""
    env = simcord_env
    channel, (alice, _bob, _carol), mid = await resigned_three(env, "ugah", done=False)
    answered(await alice.slash(channel, "game end"))
    await env.bot.surfaces.settle(mid)
    text = f"{TR('match.ended', name='alice')} · {TR('match.resigned_played', names='bob')}"
    assert text in board(channel).content, board(channel).content


async def test_a_deleted_thread_closes_its_game_and_the_line_says_why(simcord_env):
    """The thread of a game is deleted: the game closes, and its line in the channel says the bot
    closed it because its channel was deleted (it was never "ended by ?")."""
    env = simcord_env
    _, channel, (alice, bob, *_) = setup_table(env, 2)
    mid, thread = await thread_game(env, channel, alice, bob)
    line_id = next(x.id for x in channel.history() if x.type is not discord.MessageType.thread_created)
    env.backend.delete_channel(thread.id)
    await env.advance_time(1)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled"
    await env.bot.surfaces.settle(mid)
    line_text = next(x for x in channel.history() if x.id == line_id).content
    assert TR("match.closed_channel_gone") in line_text, line_text


async def test_forget_me_after_resigning_says_to_wait_for_the_end_not_to_resign(simcord_env):
    """bob resigned a three-seat game that runs on: forget-me waits for its end and says so (it does
    not tell him to resign, which he did); once it has ended, it forgets him."""
    env = simcord_env
    channel, (_alice, bob, _carol), mid = await resigned_three(env, "ugah", done=False, turn_seconds=TURN)
    r = answered(await bob.slash(channel, "privacy forget-me", confirm=True))
    assert r.ephemeral and r.response.content == TR("error.forget_resigned", n=1), r.response.content
    assert (await run_out(env, mid)).status == "finished"
    r = answered(await bob.slash(channel, "privacy forget-me", confirm=True))
    m, _ = await env.bot.matches.get(mid)
    assert m.seats[1].user_id is None and m.meta.resigned == [1], r.response.content


async def test_hand_after_resigning_says_the_member_left_not_that_they_never_played(simcord_env):
    """bob resigned a three-seat game the computer plays on: his /game hand says he left it (nothing
    to show); someone who never sat there is told they aren't playing; nothing changes."""
    env = simcord_env
    channel, (_alice, bob, _carol), mid = await resigned_three(env, "ugah", done=False, turn_seconds=TURN)
    stranger = channel.guild.add_member(env.create_user("dave"))
    version = (await env.bot.matches.get(mid))[0].version
    r = answered(await bob.slash(channel, "game hand"))
    assert r.ephemeral and r.response.content == TR("error.left_game"), r.response.content
    r = answered(await stranger.slash(channel, "game hand"))
    assert r.ephemeral and r.response.content == TR("error.not_in_match"), r.response.content
    assert (await env.bot.matches.get(mid))[0].version == version, "nothing changed"


async def test_the_last_player_resigning_ends_the_game_and_it_says_so(simcord_env):
    env = simcord_env
    channel, (alice, _bob, carol), mid = await resigned_three(env, "ugah", done=False)
    answered(await carol.slash(channel, "game resign", confirm=True))
    answered(await alice.slash(channel, "game resign", confirm=True))
    await env.bot.surfaces.settle(mid)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled"
    text = f"{TR('match.last_resigned', name='alice')} · {TR('match.resigned_played', names='bob & carol')}"
    assert text in board(channel).content, board(channel).content
