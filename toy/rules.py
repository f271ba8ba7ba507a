"""Tally: every seat adds 1 or 2 to its own secret counter, all at once. The first to reach TARGET
starts a countdown; when it runs out (or everyone has finished) the game ends. Highest count wins."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.core import SYSTEM, Event, Integer, Outcome, Rules, Seat, Timer
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.registry import EngineSpec

TARGET = 6
COUNTDOWN = 30.0
ROUND = 600.0
THINK = 40.0


@dataclass(frozen=True)
class ToyState:
    n: int
    counts: tuple[int, ...]
    target: int = TARGET
    finished: tuple[Seat, ...] = ()  # in race order
    phase: str = "race"  # race | countdown | over
    moves: tuple[int, ...] = field(default=())


class ToyRules(Rules[ToyState]):
    name = "toy"
    min_players = 1
    max_players = 4
    options = (Integer("target", TARGET, 2, 40),)
    auto_single = False

    def setup(self, n_players: int, seed: int, options: dict[str, Any]) -> ToyState:
        if not 1 <= n_players <= 4:
            raise IllegalAction("bad setup")
        return ToyState(
            n_players, (0,) * n_players, int(options.get("target", TARGET)), moves=(0,) * n_players
        )

    def to_move(self, s: ToyState) -> frozenset[Seat]:
        if s.phase == "over":
            return frozenset()
        return frozenset(i for i in range(s.n) if i not in s.finished)

    def legal_actions(self, s: ToyState, seat: Seat) -> list[str]:
        return ["add.1", "add.2"] if seat in self.to_move(s) else []

    def apply(self, s: ToyState, seat: Seat, action: str) -> tuple[ToyState, list[Event]]:
        if action not in ("add.1", "add.2", "close"):
            raise BadActionCode(action)
        if s.phase == "over":
            raise MatchOver()
        if action == "close":
            if seat != SYSTEM:
                raise IllegalAction(action)
            return replace(s, phase="over"), [Event("closed")]
        if seat not in self.to_move(s):
            raise NotYourTurn()
        counts = list(s.counts)
        counts[seat] += int(action[-1])
        moves = list(s.moves)
        moves[seat] += 1
        t = replace(s, counts=tuple(counts), moves=tuple(moves))
        events = [Event("added", {"seat": seat, "value": counts[seat]}, to=(seat,))]
        if counts[seat] >= s.target:
            t = replace(t, finished=(*s.finished, seat), phase="countdown")
            events.append(Event("finished", {"seat": seat, "place": len(t.finished)}))
            if len(t.finished) == s.n:
                t = replace(t, phase="over")
        return t, events

    def timers(self, s: ToyState) -> list[Timer]:
        if s.phase == "race":
            return [Timer("round", seconds=ROUND, action="close")]
        if s.phase == "countdown":
            return [Timer("countdown", seconds=COUNTDOWN, action="close")]
        return []

    def outcome(self, s: ToyState) -> Outcome | None:
        if s.phase != "over":
            return None
        best = max(s.counts)
        return Outcome(list(s.counts), [i for i, c in enumerate(s.counts) if c == best])

    def view(self, s: ToyState, seat: Seat | None) -> dict[str, Any]:
        return {
            "phase": s.phase,
            "finished": list(s.finished),
            "n": s.n,
            "count": s.counts[seat] if seat is not None and 0 <= seat < s.n else None,
            "counts": list(s.counts) if s.phase == "over" else None,
        }

    def dump(self, s: ToyState) -> dict[str, Any]:
        return {"n": s.n, "counts": list(s.counts), "target": s.target, "finished": list(s.finished),
                "phase": s.phase, "moves": list(s.moves)}  # fmt: skip

    def load(self, d: dict[str, Any]) -> ToyState:
        return ToyState(
            d["n"], tuple(d["counts"]), d["target"], tuple(d["finished"]), d["phase"], tuple(d["moves"])
        )


class ToyComputer:
    levels = ("steady",)

    def choose(self, s: ToyState, seat: Seat, level: str) -> str:
        return "add.1"

    def think_seconds(self, s: ToyState, seat: Seat, level: str) -> float:
        return THINK


RULES = ToyRules()
COMPUTER = ToyComputer()
ENGINE = EngineSpec(RULES, COMPUTER)  # the engine's part of its registration (toy.ui.SPEC)
