"""What a due timer does: a computer seat's move, a turn limit (the computer plays the turn of whoever
is away), a rules timer (a round's clock), a lobby that expired. Computer decisions are made in the
worker process (engine.compute) while no lock is held; then the writer commits them, one step per
commit, until nothing is due."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine import compute, pace, staleness, timers
from engine.core import SYSTEM, Event, Outcome
from engine.registry import computer_for, rules_for
from engine.signals import Update
from engine.store import LIVE, MatchRow
from engine.writer import Writer

Chooser = Callable[..., Awaitable[Any]]


class Firing:
    def __init__(self, writer: Writer, run: Chooser = compute.run) -> None:
        self.writer = writer
        self.run = run  # where computer decisions are made (a process pool by default)
        self._decided: dict[int, tuple[int, str, list[str]]] = {}  # a firing's decisions until committed

    async def tick(self, match_id: int) -> Update | None:
        """Fire whatever is due, one step per commit, until nothing is; returns the last update."""
        w, last = self.writer, None
        while not w.clock.closing:
            m, state = await w.get(match_id)
            if m.status not in LIVE:
                break
            key = timers.due(m.timers, w.now())
            if key is None:
                break
            # decided with no lock held (a long search blocks nobody), once per version and timer: a
            # firing retried while the database fails does not search again every second
            kept = self._decided.get(match_id)
            if kept is not None and kept[:2] == (m.version, key):
                decided = kept[2]
            else:
                decided = await self._decide(m, state, key)
                self._decided[match_id] = (m.version, key, decided)
            async with w.writing(match_id) as (row, current):
                if row.version != m.version:
                    continue  # a click landed meanwhile: look again
                last = await self._fire(row, current, key, decided)
            self._decided.pop(match_id, None)
        return last

    async def _decide(self, m: MatchRow, state: Any, key: str) -> list[str]:
        """The computer's decisions a due timer needs (outside the lock, in the worker process)."""
        name, _, seat_text = key.partition(":")
        if m.status != "active" or not seat_text:
            return []
        seat = int(seat_text)
        level_of = self.writer.level_of
        if name == "ai" and seat in rules_for(m.game).to_move(state):
            computer = computer_for(m.game)
            return [await self.run(compute.choose, computer, state, seat, level_of(m, seat))]
        declared = {t.key: t for t in rules_for(m.game).timers(state)}
        timer = declared.get(key)
        if timer is not None and timer.action is None and timer.seat is not None:
            level = level_of(m, timer.seat)
            return await self.run(
                compute.play_turn, rules_for(m.game), computer_for(m.game), state, timer.seat, level
            )
        return []

    async def _fire(self, m: MatchRow, state: Any, key: str, decided: list[str]) -> Update:
        read, log = m.version, staleness.log_action
        if key == timers.LOBBY_KEY:
            return await self.writer.cancel(m, None, Event("lobby_expired"), read)
        rules = rules_for(m.game)
        name, _, seat_text = key.partition(":")
        if name == pace.REMIND:
            return await self._remind(m, state, key, seat_text)
        timer = {t.key: t for t in rules.timers(state)}.get(key)
        new, events, logged, acted = state, [], [], None
        if name == "ai" and decided:
            acted = int(seat_text)
            new, events = rules.apply(state, acted, decided[0])
            logged = [log(m, acted, decided[0], "computer")]
        elif timer is not None and timer.action is not None:
            new, events = rules.apply(state, SYSTEM, timer.action)
            logged = [log(m, SYSTEM, timer.action, "timer")]
            if rules.outcome(new) is None:  # a clock that ends the game leaves nothing to ping for
                events.extend(staleness.gone_away(m, rules.to_move(state)))
        elif timer is not None and timer.seat is not None:  # a turn limit: the computer plays the turn
            acted = timer.seat
            m.seats[acted].away = not pace.keeps_full_turns(m.options)  # (else their next turns are short)
            m.meta.timed_out = sorted({*m.meta.timed_out, acted})  # the result says so (engine.result)
            events = [Event("timeout", {"seat": acted})]
            if pace.forfeits(m.options):
                m.meta.strikes = [*m.meta.strikes, acted]
                if m.meta.strikes.count(acted) >= pace.STRIKES:
                    return await self._forfeit(m, state, acted, events, read)
            for action in decided:
                new, more = rules.apply(new, acted, action)
                events.extend(more)
                logged.append(log(m, acted, action, "timeout"))
        else:  # a timer the state no longer declares: drop it (re-planned in the commit)
            m.timers.pop(key, None)
        return await self.writer.commit_moves(m, state, new, events, logged, read, acted=acted, human=False)

    async def _remind(self, m: MatchRow, state: Any, key: str, seat_text: str) -> Update:
        """A daily turn's reminder (engine.pace): no move; the commit names the seat to remind
        (``meta.reminded``, which the bot tells), and the reminder is not planned again."""
        read = m.version
        m.timers.pop(key, None)
        seat = int(seat_text) if seat_text.isdigit() else -1
        m.meta.reminded = [seat] if 0 <= seat < len(m.seats) and not m.seats[seat].ai else []
        m.meta.new_turn = []
        m.version += 1
        await self.writer.commit(m, state, [], read)
        return Update(m, state, [])

    async def _forfeit(self, m: MatchRow, state: Any, seat: int, events: list[Event], read: int) -> Update:
        """A player's second time-out with ``timeout: forfeit``: their seat is resigned, as
        ``/game resign`` does it (with two seats the other wins; else the computer plays it on and
        it never wins, engine.result)."""
        w = self.writer
        m.meta.resigned = sorted({*m.meta.resigned, seat})
        resigned = Event("resigned", {"seat": seat})
        events.append(resigned)
        if len(m.seats) == 2:
            m.status = "finished"
            m.meta.result = Outcome([0, 0], [1 - seat], "resignation")
            return await w.commit_moves(m, state, state, events, [], read, acted=None, human=False)
        m.seats[seat].ai, m.seats[seat].level, m.seats[seat].away = True, None, False
        if not any(not s.ai for s in m.seats):
            return await w.cancel(m, state, resigned, read)
        return await w.commit_moves(m, state, state, events, [], read, acted=None, human=False)
