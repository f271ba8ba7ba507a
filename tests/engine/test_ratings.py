"""Stats and skill ratings (issue 13): written by the commit that finishes a match, in its transaction;
the stored numbers are openskill's own for the same games; draws, resignations and computer seats."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from engine import ratings
from engine.games.ugah import RULES
from engine.match import Matches

GUILD = 1
ALICE, BOB, CAROL = 100, 200, 300
OPTIONS = {"variant": "basic", "rolling": "multi"}


@pytest.fixture
async def engine(open_engine):
    matches, _ = await open_engine("ratings.db", 3600)
    return matches


def pick(state, seat: int, rng: random.Random) -> str:
    legal = RULES.legal_actions(state, seat)
    return legal[0] if len(legal) == 1 else rng.choice(legal)


async def start(
    matches: Matches, channel: int, seed: int, humans: list[int], ai: tuple[str, ...] = ()
) -> int:
    u = await matches.open_lobby("ugah", GUILD, channel, humans[0], "p0", dict(OPTIONS), seed=seed)
    mid = u.match.id
    for user in humans[1:]:
        u = await matches.lobby(mid, u.match.version, user, f"p{user}", "join")
    for level in ai:
        u = await matches.lobby(mid, u.match.version, humans[0], "p0", f"ai.{level}")
    await matches.lobby(mid, u.match.version, humans[0], "p0", "start")
    return mid


async def play_out(matches: Matches, mid: int, rng: random.Random) -> None:
    """Humans click a legal move (by ``pick``); computer seats play through the engine's own timer."""
    for _ in range(2000):
        m, state = await matches.get(mid)
        if m.status != "active":
            return
        seat = state.current
        if m.seats[seat].ai:
            await matches.firing.tick(mid)
            continue
        await matches.act(mid, m.public_version, m.seats[seat].user_id, pick(state, seat, rng))
    raise AssertionError("the game did not finish")


def expected_ranks(m, outcome) -> list[int]:
    """Winners share rank 1, the others follow by score (competition ranking)."""
    key = [(0, 0) if i in outcome.winners else (1, -outcome.scores[i]) for i in range(len(m.seats))]
    return [1 + sum(k < mine for k in key) for mine in key]


async def stored(matches: Matches, player: str) -> ratings.Standing | None:
    return (await matches.store.standings(GUILD, player)).get("ugah")


def close_to(standing: ratings.Standing, rating) -> bool:
    return standing.mu == pytest.approx(rating.mu, abs=1e-9) and standing.sigma == pytest.approx(
        rating.sigma, abs=1e-9
    )


async def test_ratings_after_seeded_games_equal_openskills_own_numbers(engine):
    matches = engine
    model = PlackettLuce()
    book = {p: model.rating(name=p) for p in ("100", "200", "300")}
    wins = dict.fromkeys(book, 0)
    played = dict.fromkeys(book, 0)
    lineups = [[ALICE, BOB], [BOB, ALICE], [ALICE, BOB, CAROL], [CAROL, ALICE]]
    for n, humans in enumerate(lineups):
        mid = await start(matches, 10 + n, seed=n, humans=humans)
        await play_out(matches, mid, random.Random(n))
        m, state = await matches.get(mid)
        assert m.status == "finished"
        outcome = matches.outcome(m, state)
        keys = [str(s.user_id) for s in m.seats]
        rated = model.rate([[book[k]] for k in keys], ranks=expected_ranks(m, outcome))
        for i, k in enumerate(keys):
            book[k] = rated[i][0]
            played[k] += 1
            wins[k] += i in outcome.winners
    for k, rating in book.items():
        s = await stored(matches, k)
        assert s is not None and close_to(s, rating), (k, s, rating)
        assert (s.played, s.wins) == (played[k], wins[k])
    board = await matches.store.leaderboard(GUILD, "ugah")
    assert [s.player for s in board] == sorted(book, key=lambda k: -book[k].ordinal())
    assert await matches.store.standings(GUILD + 1, "100") == {}  # another server: nothing


async def test_a_failed_finishing_commit_leaves_ratings_unchanged(engine, monkeypatch):
    matches = engine
    first = await start(matches, 10, seed=1, humans=[ALICE, BOB])
    await play_out(matches, first, random.Random(1))
    before = {k: await stored(matches, k) for k in ("100", "200")}
    mid = await start(matches, 11, seed=2, humans=[ALICE, BOB])
    real = matches.store._write_ratings

    async def written_then_crash(*args, **kwargs):
        await real(*args, **kwargs)  # the rating rows are written, then the disk fails
        raise OSError("disk I/O error")

    monkeypatch.setattr(matches.store, "_write_ratings", written_then_crash)
    m, state = await matches.get(mid)
    with pytest.raises(OSError):
        await matches.resign(mid, m.seats[state.current].user_id)  # 2 seats: this finishes the game
    assert {k: await stored(matches, k) for k in ("100", "200")} == before
    assert (await matches.get(mid))[0].status == "active"
    assert (await matches.store.get(mid)).status == "active"
    monkeypatch.setattr(matches.store, "_write_ratings", real)
    m, state = await matches.get(mid)
    loser = m.seats[state.current].user_id
    await matches.resign(mid, loser)  # again: now it commits, ratings and all
    model = PlackettLuce()
    rated = model.rate(
        [[model.rating(mu=before[str(s.user_id)].mu, sigma=before[str(s.user_id)].sigma)] for s in m.seats],
        ranks=[2 if s.user_id == loser else 1 for s in m.seats],
    )
    for i, s in enumerate(m.seats):
        after = await stored(matches, str(s.user_id))
        assert close_to(after, rated[i][0]) and after.played == before[str(s.user_id)].played + 1
    assert (await stored(matches, str(loser))).wins == before[str(loser)].wins  # resigning is a loss


async def test_a_draw_shares_rank_one(engine):
    matches = engine
    # a seed whose random game ends level, found with the pure rules (the engine plays the same moves)
    for seed in range(500):
        state = RULES.setup(2, seed, OPTIONS | {"turn_seconds": 3600})
        rng = random.Random(seed)
        while RULES.outcome(state) is None:
            state, _ = RULES.apply(state, state.current, pick(state, state.current, rng))
        if len(RULES.outcome(state).winners) == 2:
            break
    else:
        pytest.skip("no drawn game among the seeds tried")
    mid = await start(matches, 10, seed=seed, humans=[ALICE, BOB])
    await play_out(matches, mid, random.Random(seed))
    m, state = await matches.get(mid)
    assert matches.outcome(m, state).winners == [0, 1]
    model = PlackettLuce()
    rated = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])
    for k, r in zip(("100", "200"), rated, strict=True):
        s = await stored(matches, k)
        assert close_to(s, r[0]) and (s.played, s.wins) == (1, 1)
    assert s.mu == pytest.approx(25.0)  # equals drawing with equals: only the uncertainty shrinks


async def test_computer_seats_are_rated_per_game_and_level(engine):
    matches = engine
    model = PlackettLuce()
    book = {
        "100": model.rating(),
        "computer:ugah:normal": model.rating(),
        "computer:ugah:easy": model.rating(),
    }
    for n in range(2):
        mid = await start(matches, 10 + n, seed=n, humans=[ALICE], ai=("normal", "easy"))
        await play_out(matches, mid, random.Random(n))
        m, state = await matches.get(mid)
        keys = ["100", "computer:ugah:normal", "computer:ugah:easy"]
        assert [s.level for s in m.seats[1:]] == ["normal", "easy"]
        rated = model.rate([[book[k]] for k in keys], ranks=expected_ranks(m, matches.outcome(m, state)))
        book = {k: rated[i][0] for i, k in enumerate(keys)}
    for k, rating in book.items():
        s = await stored(matches, k)
        assert close_to(s, rating) and s.played == 2
    names = {s.player for s in await matches.store.leaderboard(GUILD, "ugah")}
    assert names == set(book)


async def test_resigner_is_last_and_cancelled_games_count_nothing(engine):
    matches = engine
    mid = await start(matches, 10, seed=3, humans=[ALICE, BOB, CAROL])
    _, state = await matches.get(mid)
    leaver = (state.current + 1) % 3
    m, _ = await matches.get(mid)
    await matches.resign(mid, m.seats[leaver].user_id)  # 3 seats: the computer plays on for them
    await play_out(matches, mid, random.Random(3))
    m, state = await matches.get(mid)
    result = ratings.result_of(m, matches.final(m, state), lambda seat: matches.level_of(m, seat))
    assert result.players[leaver] == str(m.seats[leaver].user_id)  # still the member's seat, not a computer
    assert result.ranks[leaver] == 3 and not result.won[leaver]
    assert (await stored(matches, result.players[leaver])).wins == 0

    cancelled = await start(matches, 11, seed=4, humans=[ALICE, BOB])
    before = await matches.store.leaderboard(GUILD, "ugah")
    await matches.end(cancelled, ALICE, moderator=False)
    assert await matches.store.leaderboard(GUILD, "ugah") == before
