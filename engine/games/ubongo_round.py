"""Ubongo round machinery (R17-R32, V3-V5): dealing, solving, ending a round or a solo task, and the
outcome. Every helper mutates the copy that ``UbongoRules.apply``/``setup`` made; validation happens
before, never here."""

from __future__ import annotations

from engine.core import Event, Outcome, Seat
from engine.games.ubongo_data import ROUNDS, card_tasks
from engine.games.ubongo_pieces import canonical
from engine.games.ubongo_solver import is_solution
from engine.games.ubongo_state import UbongoState, countdown_seconds, covered, need, points, task_cells
from engine.rng import Rng


def start_race_round(s: UbongoState, ev: list[Event]) -> None:
    """R18/R19: from the starter clockwise each seat draws the top card; all are revealed together."""
    s.round += 1
    for i in range(s.n):
        seat = (s.starter + i) % s.n
        s.cards[seat] = s.stack.pop(0)
    _reveal(s)
    ev.append(Event("round_started", {"round": s.round, "starter": s.starter, "sides": list(s.sides)}))


def _reveal(s: UbongoState) -> None:
    s.tasks = [list(card_tasks()[s.cards[i]][s.sides[i]]) for i in range(s.n)]
    s.placed = [{} for _ in range(s.n)]
    s.solved = []
    s.phase = "solving"


def solo_draw(s: UbongoState, ev: list[Event]) -> None:
    """V4/V5: draw the next card; house: set-aside cards are shuffled back when the stack is empty."""
    if not s.stack and s.aside:
        rng = Rng(s.rng)
        s.stack, s.aside = list(s.aside), []
        rng.shuffle(s.stack)
        s.rng = rng.state
    if not s.stack:  # all 32 tasks solved: nothing left to draw
        game_over(s, ev, "stack")
        return
    s.round += 1
    s.cards[0] = s.stack.pop(0)
    _reveal(s)
    ev.append(Event("task_started", {"number": s.round, "side": s.sides[0]}))


def record_round(s: UbongoState, reason: str, gained: list[int]) -> None:
    """Keep the finished round (or solo task) public: tasks and solutions are face up now."""
    s.history.append(
        {
            "round": s.round,
            "reason": reason,
            "cards": list(s.cards),
            "sides": list(s.sides),
            "tasks": [list(t) for t in s.tasks],
            "placed": [{p: list(v) for p, v in pl.items()} for pl in s.placed],
            "solved": list(s.solved),
            "gained": gained,
        }
    )


def _solve(s: UbongoState, seat: Seat, ev: list[Event]) -> None:
    """R20/R21 satisfied: record the solve; the first one calls "Ubongo!" (R23)."""
    s.solved.append(seat)
    ev.append(Event("solved", {"seat": seat, "order": len(s.solved), "round": s.round}))
    if s.mode != "race":
        s.done += 1
        record_round(s, "solved", [1])
        if s.mode == "tasks" and s.done >= s.solo_size:  # V5: the run is complete
            game_over(s, ev, "done")
        else:
            solo_draw(s, ev)
        return
    if len(s.solved) == 1:
        s.phase = "countdown"
        ev.append(Event("ubongo", {"seat": seat, "round": s.round, "seconds": countdown_seconds(s)}))
    if len(s.solved) == s.n:  # house: nobody is left solving, so the countdown has nothing to wait for
        end_round(s, "all_solved", ev)


def end_round(s: UbongoState, reason: str, ev: list[Event]) -> None:
    """R25-R28 (V3): hand out the cards, pick the next starter, deal again or end the game (R30)."""
    gained = [0] * s.n
    if s.solved:
        first = s.solved[0]
        for seat in s.solved:  # R25: every solver keeps their own card
            s.won[seat].append(s.cards[seat])
            gained[seat] += 1
        losers = [seat for seat in range(s.n) if seat not in s.solved]
        if s.gems:  # V3: one gem for the first solver; the non-solvers' cards are discarded
            s.gems_won[first] += 1
            gained[first] += 1
        else:  # R26: the first solver also takes every non-solver's card
            s.won[first].extend(s.cards[seat] for seat in losers)
            gained[first] += len(losers)
        next_starter = (first + 1) % s.n  # R28: left of the first solver
    else:  # R27: nobody solved: the cards leave the game and nobody scores
        next_starter = (s.starter + 1) % s.n  # R28 / A7: left of the previous starter
    record_round(s, reason, gained)
    ev.append(
        Event("round_over", {"round": s.round, "reason": reason, "solved": list(s.solved), "gained": gained})
    )
    s.starter = next_starter
    if s.round >= ROUNDS:  # R30
        game_over(s, ev, "rounds")
    else:
        start_race_round(s, ev)


def game_over(s: UbongoState, ev: list[Event], why: str) -> None:
    s.phase = "over"
    result = outcome(s)
    assert result is not None
    ev.append(Event("game_over", {"why": why, "scores": result.scores, "winners": result.winners}))


def place(s: UbongoState, seat: Seat, piece: str, o: int, x: int, y: int, ev: list[Event]) -> None:
    o = canonical(piece, o)  # R22 lets any index 0-7 name a shape; store one spelling of it
    s.placed[seat][piece] = [o, x, y]
    ev.append(Event("placed", {"seat": seat, "piece": piece, "o": o, "x": x, "y": y}, to=(seat,)))
    cells = task_cells(s, seat)
    if len(covered(s, seat)) != len(cells):
        return
    placements = [(p, v[0], v[1], v[2]) for p, v in s.placed[seat].items()]
    if is_solution(cells, placements, need(s, seat)):
        _solve(s, seat, ev)
    else:  # R21 / E2: covered, but with the wrong number of pieces
        ev.append(Event("not_a_solution", {"seat": seat, "pieces": len(placements)}, to=(seat,)))


def outcome(s: UbongoState) -> Outcome | None:
    if s.phase != "over":
        return None
    if s.mode != "race":  # solo: the tasks solved are the score; the player always "wins"
        return Outcome([s.done], [0])
    pts = points(s)
    return Outcome(pts, [seat for seat in range(s.n) if pts[seat] == max(pts)])  # R31/R32
