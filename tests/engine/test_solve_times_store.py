"""The store's side of tools.solve_times (SQLite and PostgreSQL): games that are over, and when each
logged action was committed."""

from __future__ import annotations

from engine.games.ubongo_ai import COMPUTER
from engine.match import PRIVATE
from tools.solve_times import Timed, collect, timed_tasks


async def test_a_persons_solve_is_timed_from_the_store(open_engine, backend, tmp_path):
    matches, clock = await open_engine("t.db")
    u = await matches.open_lobby("ubongo", 1, 10, 100, "alice", {"side": "A"}, seed=5)
    u = await matches.lobby(u.match.id, u.match.version, 200, "bob", "join")
    u = await matches.lobby(u.match.id, u.match.version, 100, "alice", "start")
    mid = u.match.id
    clock.t += 12.5
    while True:
        m, state = await matches.get(mid)
        if 0 not in state.solved:
            action = COMPUTER.choose(state, 0, "hard")
            await matches.act(mid, m.seats[0].version, 100, action, surface=PRIVATE)
            continue
        break
    await matches.end(mid, 100, moderator=False)
    assert [g.id for g in await matches.store.finished_of("ubongo")] == [mid]
    assert await matches.store.finished_of("ugah") == []
    times = await matches.store.action_times(mid)
    assert times and set(times) == {clock.t}
    m, _ = await matches.get(mid)
    steps = await matches.history(mid)
    assert timed_tasks(steps, times, m.meta.started_at, {0, 1}) == [Timed("A", 12.5), Timed("A", None)]
    if backend == "sqlite":
        await matches.store.close()
        assert await collect(str(tmp_path / "t.db")) == [Timed("A", 12.5), Timed("A", None)]
