"""bot.render_pool's drawing processes: the same bytes as a drawing made here, and every way a
drawing may not reach a process (not started yet, a closure, a dead process, an error) still draws
or says why. Drawings are asked for from this test's own thread, which meets the first process
(nothing else is drawing)."""

from __future__ import annotations

import asyncio
import functools
import os
import pickle
import time

import pytest

from bot import render_pool
from bot.games import SPECS, UIS
from bot.i18n import translator
from bot.messages import game_picture, private
from engine.games.ugah import RULES as UGAH
from engine.registry import rules_for
from engine.store import MatchRow, SeatInfo


def _ugah_picture(seed: int = 3) -> functools.partial[bytes]:
    state = UGAH.setup(3, seed, {})
    view = UGAH.view(state, None)
    return functools.partial(
        UIS["ugah"].render, view, ["alice", "bob", "carol"], "a caption", translator("de")
    )


def _fails() -> bytes:
    raise ValueError("no picture")


def _ready_process() -> render_pool._Child:
    """This thread's drawing process, waited for until it is ready (it starts in the background)."""
    deadline = time.monotonic() + 60
    while (child := render_pool._child()) is None:
        assert time.monotonic() < deadline, "the drawing process never became ready"
        time.sleep(0.05)
    return child


@pytest.fixture(autouse=True)
def processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_pool, "PROCESSES", True)
    monkeypatch.setattr(render_pool, "_lost", [0])


def test_a_drawing_made_in_a_process_is_the_drawing_made_here() -> None:
    draw = _ugah_picture()
    _ready_process()
    before = render_pool.child_cpu()
    out = render_pool.draw(draw)
    assert out == draw() and out.startswith(b"\x89PNG")
    assert render_pool.child_cpu() > before, "drawn in the process, whose CPU is counted"


def test_before_its_process_is_ready_a_thread_draws_itself() -> None:
    render_pool._slots[0] = None
    draw = _ugah_picture(4)
    before = render_pool.child_cpu()
    assert render_pool.draw(draw) == draw()  # the process was only just started
    assert render_pool.child_cpu() == before
    assert render_pool._slots[0] is not None and render_pool._slots[0].alive()


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_drawings_one_after_another_all_meet_the_first_process() -> None:
    """A click alone meets the process that drew its match's last picture, whose kept bands hold
    what the move left alone (taken in turn, each of two processes missed half of them)."""
    render_pool.warm_up()
    first = render_pool._slots[0]
    assert first is not None
    pids = [render_pool.RENDER_POOL.submit(render_pool.draw, os.getpid).result() for _ in range(12)]
    assert set(pids) == {first.process.pid}


def test_drawings_at_once_are_drawn_in_both_processes() -> None:
    render_pool.warm_up()
    jobs = [
        render_pool.RENDER_POOL.submit(render_pool.draw, functools.partial(_pid_after, 0.3)) for _ in range(2)
    ]
    pids = {job.result() for job in jobs}
    assert pids == {child.process.pid for child in render_pool._slots if child is not None}
    assert len(pids) == 2 and os.getpid() not in pids


async def test_a_drawing_from_the_event_loop_goes_to_a_process_with_no_thread_between(monkeypatch) -> None:
    """The loop sends its drawing and reads the answer itself: a render thread carrying it took the
    interpreter lock from the busy loop at both ends (0.3-0.4 ms of CPU a drawing)."""
    draw = _ugah_picture(6)
    render_pool.warm_up()

    def no_thread(*_: object) -> None:
        raise AssertionError("a render thread was asked to draw")

    monkeypatch.setattr(render_pool, "_in_thread", no_thread)
    before = render_pool.child_cpu()
    assert await render_pool.off_loop(draw) == draw()
    assert render_pool.child_cpu() > before
    with pytest.raises(ValueError, match="no picture"):
        await render_pool.off_loop(_fails)
    assert not any(render_pool._busy), "every process is free again"


async def test_loop_drawings_beyond_the_processes_wait_for_one_rather_than_a_thread() -> None:
    """A burst: the third and fourth drawing wait for a free process; drawn in a render thread they
    would take the interpreter lock from the loop for the whole drawing."""
    render_pool.warm_up()
    pids = await asyncio.gather(*(render_pool.off_loop(functools.partial(_pid_after, 0.2)) for _ in range(4)))
    processes = {child.process.pid for child in render_pool._slots if child is not None}
    assert set(pids) == processes and len(processes) == 2 and os.getpid() not in pids
    assert not render_pool._queued and not any(render_pool._busy)


async def test_a_process_killed_while_the_loop_waits_loses_no_drawing() -> None:
    draw = _ugah_picture(7)
    child = _ready_process()
    drawing = asyncio.ensure_future(render_pool.off_loop(functools.partial(_pid_after, 2.0)))
    await asyncio.sleep(0.3)
    child.process.kill()
    assert await asyncio.wait_for(drawing, 10) == os.getpid(), "drawn again in a render thread"
    assert render_pool._lost == [1] and not any(render_pool._busy)
    assert await render_pool.off_loop(draw) == draw()


async def test_a_drawing_out_when_the_processes_are_shut_down_is_drawn_and_none_is_lost() -> None:
    """A bot stopping (shutdown) while the loop waits for a drawing: it is drawn in a render thread,
    and the processes it ended are not counted as lost (they would not be started again after three)."""
    _ready_process()
    drawing = asyncio.ensure_future(render_pool.off_loop(functools.partial(_pid_after, 2.0)))
    await asyncio.sleep(0.3)
    render_pool.shutdown()
    assert await asyncio.wait_for(drawing, 10) == os.getpid()
    assert render_pool._lost == [0] and not any(render_pool._busy)


def test_a_drawing_a_thread_waits_for_when_the_processes_are_shut_down_is_drawn_and_none_is_lost() -> None:
    _ready_process()
    drawing = render_pool.RENDER_POOL.submit(render_pool.draw, functools.partial(_pid_after, 2.0))
    time.sleep(0.3)
    render_pool.shutdown()
    assert drawing.result(10) == os.getpid(), "drawn again in the render thread"
    assert render_pool._lost == [0]


def test_an_answer_no_loop_will_read_frees_its_process_for_the_next_drawing() -> None:
    """A loop closed while its drawing was out (a bot stopped mid-drawing): that process's answer
    would meet the next drawing sent to it, so the process goes and another takes its place."""
    render_pool.warm_up()
    old = render_pool._slots[0]

    async def send() -> None:
        render_pool._begin(functools.partial(_pid_after, 0.3))

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(send())
    finally:
        loop.close()
    assert render_pool._busy[0], "its answer is still to come"
    draw = _ugah_picture(8)
    assert render_pool.draw(draw) == draw()
    assert old is not None and old.stopped and render_pool._lost == [0], "ended, not lost"
    assert not render_pool._busy[0]
    _ready_process()
    assert (
        render_pool.RENDER_POOL.submit(render_pool.draw, os.getpid).result()
        == render_pool._slots[0].process.pid
    )


def test_the_translator_travels_as_its_language() -> None:
    tr = translator("es")
    assert pickle.loads(pickle.dumps(tr)) is tr
    assert repr(tr) == "tr[es]"


def test_a_closure_is_drawn_in_the_render_thread() -> None:
    draw = _ugah_picture()
    _ready_process()
    before = render_pool.child_cpu()
    assert render_pool.draw(lambda: draw()) == draw()
    assert render_pool.child_cpu() == before


def test_an_error_in_the_process_is_raised_where_the_drawing_was_asked_for() -> None:
    _ready_process()
    with pytest.raises(ValueError, match="no picture"):
        render_pool.draw(_fails)
    assert render_pool.draw(_ugah_picture()) == _ugah_picture()(), "the process goes on drawing"


def test_a_killed_drawing_process_loses_no_drawing_and_is_started_again() -> None:
    draw, expected = _ugah_picture(5), _ugah_picture(5)()
    child = _ready_process()
    child.process.kill()
    child.process.wait()
    assert render_pool.draw(draw) == expected  # drawn in the thread: the pipe is broken
    assert render_pool._lost == [1]
    again = _ready_process()
    assert again is not child and again.alive()
    before = render_pool.child_cpu()
    assert render_pool.draw(draw) == expected and render_pool.child_cpu() > before


def test_after_processes_kept_dying_the_threads_draw_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_pool, "_lost", [render_pool.MAX_LOST])
    render_pool._slots[0] = None
    draw = _ugah_picture()
    assert render_pool.draw(draw) == draw()
    assert render_pool._slots[0] is None, "no process started again"


def test_a_board_picture_pickles_with_its_translator() -> None:
    """What bot.messages hands to the render pool is picklable (a partial of a game's render)."""
    state = UGAH.setup(2, 1, {})
    seats = [SeatInfo(1, "alice"), SeatInfo(2, "bob")]
    m = MatchRow(1, "ugah", 1, 1, 1, "active", 1, 1, seats, {"locale": "de"}, UGAH.dump(state))
    draw = game_picture(m, state).draw
    assert draw is not None
    assert pickle.loads(pickle.dumps(draw))() == draw()


@pytest.mark.parametrize("game", list(SPECS))
def test_every_game_s_pictures_reach_a_drawing_process(game: str) -> None:
    """The board's picture and each seat's private one (a DM workspace, a hand) pickle, and draw
    the same there: a drawing that does not pickle is quietly drawn in a render thread, beside the
    event loop. Ubongo's workspace once carried a read-only label mapping, so every DM drawing
    stayed in the threads."""
    rules = rules_for(game)
    n = 2 if game == "uonga" else 3
    state = rules.setup(n, 5, {})
    seats = [SeatInfo(i + 1, name) for i, name in enumerate(["alice", "bob", "carol"][:n])]
    m = MatchRow(1, game, 1, 1, 1, "active", 1, 1, seats, {"locale": "de"}, rules.dump(state))
    pictures = [game_picture(m, state).draw] + [
        private(m, state, seat, translator("fr")).draw for seat in range(n)
    ]
    child = _ready_process()
    for draw in pictures:
        if draw is None:  # a private surface without an image
            continue
        payload = pickle.dumps((render_pool._forgotten[0], draw))
        answer = child.run(payload)
        assert answer is not None, f"{game}: the drawing process could not unpickle {draw!r}"
        assert answer[0] == draw()


def test_a_drawing_its_process_cannot_unpickle_is_drawn_in_the_thread() -> None:
    """A function of the bot's __main__ pickles here but not in the drawing process: that process
    says so, keeps going, and the thread draws."""
    import __main__

    draw = _ugah_picture()

    def main_drawing() -> bytes:
        return draw()

    main_drawing.__module__, main_drawing.__qualname__ = "__main__", "main_drawing_for_test"
    __main__.main_drawing_for_test = main_drawing  # type: ignore[attr-defined]
    try:
        child = _ready_process()
        before = render_pool.child_cpu()
        assert render_pool.draw(main_drawing) == draw()
        assert render_pool.child_cpu() == before and render_pool._lost == [0]
        assert render_pool._child() is child, "the same process goes on"
        assert render_pool.draw(draw) == draw() and render_pool.child_cpu() > before
    finally:
        del __main__.main_drawing_for_test  # type: ignore[attr-defined]


def test_warming_up_readies_a_process_for_every_render_thread() -> None:
    render_pool.warm_up()
    ready = render_pool.RENDER_POOL.submit(lambda: render_pool._child() is not None)
    assert ready.result()
    assert sum(1 for c in render_pool._children if c.ready and c.alive()) >= 2


async def test_a_game_played_through_simcord_shows_the_boards_its_processes_drew(simcord_env) -> None:
    import random

    from tests.bot.helpers import board, open_and_start, play_one, setup_table

    env = simcord_env
    render_pool.warm_up()
    before = render_pool.child_cpu()
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(1)
    for _ in range(4):
        await play_one(env, channel, players, mid, rng)
    assert render_pool.child_cpu() > before, "the boards were drawn in the drawing processes"
    m, state = await env.bot.matches.get(mid)
    shown = await board(channel).attachments[0].read()
    assert shown == game_picture(m, state).draw(), "the board shows its state's picture, byte for byte"
