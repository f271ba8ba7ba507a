"""The steps of ``python -m bench``, each run in a process of its own (bench.__main__)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from bench import (
    Row,
    bucket,
    budget,
    clicks,
    discord_roundtrip,
    engine,
    honga,
    platform,
    redraws,
    render,
    scale,
    store,
    ubongo,
    uonga,
)
from bench import load as load_step
from bot import render_pool
from bot.games import SPECS
from engine import collector, compute, cores

# a game's own bench (bench/<game>.py: its (metric, result, aim) rows), for the games that have one
GAME_BENCHES: dict[str, Callable[[], list[tuple[str, str, str]]]] = {
    "ubongo": ubongo.run,
    "honga": honga.run,
    "uonga": uonga.run,
}


def game_rows(rows: list[tuple[str, str, str]]) -> list[Row]:
    """A game module's (metric, result, aim) rows; the aim is judged by the module's own table."""
    return [Row(metric, result, aim) for metric, result, aim in rows]


def _game_step(run: Callable[[], list[tuple[str, str, str]]]) -> list[Row]:
    return game_rows(run())


SCALE = "scale on one machine (SQLite, PostgreSQL, 1-4 processes)"


def as_a_bot(pinned: bool = True) -> None:
    """This process set up as ``python -m bot`` sets up a bot on SQLite: its event loop's core
    (engine.cores), its collector (engine.collector), its drawing processes ready."""
    if pinned:
        cores.pin_loop()
    collector.tune()
    render_pool.warm_up()
    collector.settle()


def run_step(name: str, quick: bool) -> list[Row]:
    # a fresh process set up as a bot, unpinned for the step that starts several bot processes of its
    # own (they would inherit the pin); its drawing processes ready first, as in a bot that has run a
    # while (cold, the render threads draw alone for the first second: "loop delay while rendering"
    # read 7-11 ms against 5-6 ms warm)
    as_a_bot(pinned=name != SCALE)
    try:
        return steps(quick)[name]()
    finally:  # a step's computers (engine.compute) and drawing processes: or its process never exits
        compute.shutdown()
        render_pool.shutdown()


def steps(quick: bool) -> dict[str, Callable[[], list[Row]]]:
    def views() -> list[dict]:
        return render.public_views(8 if quick else 16)

    return {
        "every game's move click against its floors": lambda: clicks.run(quick),
        "render": lambda: render.render_time(views(), 3 if quick else 10),
        "every game's render": lambda: render.per_game(60 if quick else 240),
        "pictures sent again unchanged": lambda: redraws.run(quick),
        "bot-token requests a click": lambda: budget.run(quick),
        "the request budget under load (scale model)": lambda: bucket.run(quick),
        "store": lambda: store.commit_time(500 if quick else 3000),
        "discord round trip": lambda: discord_roundtrip.roundtrip(60 if quick else 300),
        "event loop": lambda: render.loop_stall(views(), 3 if quick else 20),
        "computer vs random": lambda: engine.ai_vs_random(200 if quick else 1000),
        "playouts": lambda: engine.playouts(200 if quick else 1000),
        "four seats at once": lambda: platform.four_seats(10 if quick else 40),
        "loop delay during a search": lambda: platform.loop_delay(1.0 if quick else 3.0),
        "uonga clicks": lambda: platform.grid_roundtrip("uonga", 40 if quick else 150),
        **{game: functools.partial(_game_step, GAME_BENCHES[game]) for game in SPECS if game in GAME_BENCHES},
        "load (SQLite, PostgreSQL)": lambda: load_step.run(quick),
        SCALE: lambda: scale.run(quick),
    }
