"""The contract every game plugs into (engine.core.Rules), checked over all registered games."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import EngineError
from engine.registry import GAMES

GAME_NAMES = sorted(GAMES)


def options_for(rules, rng: random.Random) -> dict[str, str]:
    return {o.name: rng.choice(o.choices) for o in rules.options}


def playout(rules, seed: int, max_steps: int = 5000):
    rng = random.Random(seed)
    n = rng.randint(rules.min_players, rules.max_players)
    options = options_for(rules, rng)
    state = rules.setup(n, seed, options)
    log = []
    for _ in range(max_steps):
        movers = sorted(rules.to_move(state))
        if not movers:
            return n, options, state, log
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
    state = rules.setup(rules.min_players, 5, {})
    before = rules.dump(state)
    seat = sorted(rules.to_move(state))[0]
    with pytest.raises(EngineError):
        rules.apply(state, seat, bad)
    other = (seat + 1) % rules.min_players
    with pytest.raises(EngineError):
        rules.apply(state, other, rules.legal_actions(state, seat)[0])
    assert rules.dump(state) == before


@pytest.mark.parametrize("game", GAME_NAMES)
def test_computer_actions_are_legal(game):
    rules = GAMES[game]
    for seed in range(5):
        state = rules.setup(rules.max_players, seed, {})
        for _ in range(300):
            movers = sorted(rules.to_move(state))
            if not movers:
                break
            action = rules.computer_action(state, movers[0])
            assert action in rules.legal_actions(state, movers[0])
            state, _ = rules.apply(state, movers[0], action)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_views_are_json_safe_for_every_seat_and_spectators(game):
    rules = GAMES[game]
    n, _, state, _ = playout(rules, 1)
    for seat in [None, *range(n)]:
        json.dumps(rules.view(state, seat))
