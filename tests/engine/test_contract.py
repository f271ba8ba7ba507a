"""The contract every game plugs into (engine.core.Rules), checked over all registered games."""

from __future__ import annotations

import json
import random

import pytest

from engine import options as typed_options
from engine.core import SYSTEM, Choice, Flag, Integer
from engine.errors import EngineError
from engine.registry import COMPUTERS, GAMES

GAME_NAMES = sorted(GAMES)


def options_for(rules, rng: random.Random) -> dict[str, object]:
    """A random valid value for every option (integers near their default: a bound like a 999-turn
    draw limit would make playouts needlessly long)."""
    out: dict[str, object] = {}
    for o in rules.options:
        if isinstance(o, Choice):
            out[o.name] = rng.choice(o.choices)
        elif isinstance(o, Flag):
            out[o.name] = rng.random() < 0.5
        elif isinstance(o, Integer):  # near the default, or (a default meaning "by the rules" lies
            # outside [low, high]) the default or the lowest values a player may choose
            low, high = max(o.low, o.default - 2), min(o.high, o.default + 2)
            near = list(range(low, high + 1)) or [o.default, o.low, o.low + 1]
            out[o.name] = rng.choice(near)
    return typed_options.resolve(rules.options, out)


def timer_actions(rules, state) -> list[str]:
    """Actions the rules' own timers would take now (applied as the SYSTEM seat)."""
    return [t.action for t in rules.timers(state) if t.action is not None]


def playout(rules, seed: int, max_steps: int = 5000):
    """Random legal moves by random seats to move; now and then a declared timer runs out."""
    rng = random.Random(seed)
    n = rng.randint(rules.min_players, rules.max_players)
    options = options_for(rules, rng)
    state = rules.setup(n, seed, options)
    log = []
    for _ in range(max_steps):
        movers = sorted(rules.to_move(state))
        if not movers:
            return n, options, state, log
        timed = timer_actions(rules, state)
        if timed and rng.random() < 0.05:
            seat, action = SYSTEM, rng.choice(timed)
        else:
            seat = rng.choice(movers)
            action = rng.choice(rules.legal_actions(state, seat))
        state, _events = rules.apply(state, seat, action)
        log.append((seat, action))
    raise AssertionError(f"no end after {max_steps} steps")


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", range(12))
def test_random_playouts_terminate_with_an_outcome(game, seed):
    rules = GAMES[game]
    n, _, state, _ = playout(rules, seed)
    outcome = rules.outcome(state)
    assert outcome is not None and len(outcome.scores) == n and outcome.winners


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", range(4))
def test_replay_of_seed_and_log_reproduces_the_state(game, seed):
    rules = GAMES[game]
    n, options, state, log = playout(rules, seed)
    replayed = rules.setup(n, seed, options)
    for seat, action in log:
        replayed, _ = rules.apply(replayed, seat, action)
    assert replayed == state


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_legal_action_applies_and_dump_load_round_trips(game):
    rules = GAMES[game]
    rng = random.Random(99)
    state = rules.setup(rules.min_players, 99, options_for(rules, rng))
    for _ in range(200):
        movers = sorted(rules.to_move(state))
        if not movers:
            break
        seat = movers[0]
        dumped = rules.dump(state)
        assert rules.load(json.loads(json.dumps(dumped))) == state
        for action in rules.legal_actions(state, seat):
            rules.apply(state, seat, action)  # must not raise
        assert rules.dump(state) == dumped, "apply must not mutate its input"
        state, _ = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize(
    "bad", ["", "nonsense", "pick", "pick.unicorn", "keep.mm.99", "x" * 200, "first.", "🦴"]
)
def test_illegal_or_malformed_actions_raise_and_change_nothing(game, bad):
    rules = GAMES[game]
    state = rules.setup(rules.min_players, 5, typed_options.resolve(rules.options, {}))
    before = rules.dump(state)
    seat = sorted(rules.to_move(state))[0]
    with pytest.raises(EngineError):
        rules.apply(state, seat, bad)
    idle = [s for s in range(rules.max_players) if s not in rules.to_move(state)] + [rules.max_players + 3]
    for other in idle:  # a seat that may not act now (or does not exist) is refused
        with pytest.raises(EngineError):
            rules.apply(state, other, rules.legal_actions(state, seat)[0])
    for action in timer_actions(rules, state):  # the rules' timer actions are the SYSTEM seat's alone
        with pytest.raises(EngineError):
            rules.apply(state, seat, action)
    assert rules.dump(state) == before


@pytest.mark.parametrize("game", GAME_NAMES)
def test_computer_actions_are_legal(game):
    rules, computer = GAMES[game], COMPUTERS[game]
    for seed in range(3):
        level = computer.levels[seed % len(computer.levels)]
        state = rules.setup(rules.max_players, seed, typed_options.resolve(rules.options, {}))
        for _ in range(120):
            movers = sorted(rules.to_move(state))
            if not movers:
                break
            seat = movers[seed % len(movers)]
            assert computer.think_seconds(state, seat, level) >= 0
            action = computer.choose(state, seat, level)
            assert action in rules.legal_actions(state, seat)
            state, _ = rules.apply(state, seat, action)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_views_are_json_safe_for_every_seat_and_spectators(game):
    rules = GAMES[game]
    n, _, state, _ = playout(rules, 1)
    for seat in [None, *range(n)]:
        json.dumps(rules.view(state, seat))
