"""The parts of bot.surfaces on their own: custom_ids decoded once (ids of today's format route), the
reconciler's promises (serialised, latest wins, coalescing, retries that honour retry_after, answers
never buried), fingerprints, Discord error verdicts, and addresses claimed once across processes."""

from __future__ import annotations

import asyncio
import functools

import discord
import pytest

from bot.components import (
    ACT,
    CHOOSE,
    DISPLAY,
    DISPLAY_CHOICE,
    LOBBY,
    OPEN,
    PRIVATE_SURFACE,
    PUBLIC_SURFACE,
    REPLAY_SURFACE,
    STEP,
    decode,
    kind_for,
)
from bot.i18n import translator
from bot.messages import Board
from bot.surfaces import reconciler
from bot.surfaces.content import Shown, fingerprint, image_key
from bot.surfaces.reconciler import Reconciler, Retry
from bot.surfaces.send import (
    CHANNEL_GONE,
    DMS_SHUT,
    EXPIRED,
    FORBIDDEN,
    HURRY_SECONDS,
    MESSAGE_GONE,
    RETRY,
    DiscordSend,
    hurried,
    verdict,
)
from engine.store import SurfaceRow
from engine.store.open import open_store

# ids exactly as every earlier version wrote them: each still decodes to its surface and intent
TODAYS_IDS = {
    "l:12:3:join": (PUBLIC_SURFACE, LOBBY),
    "l:12:0:rematch": (PUBLIC_SURFACE, LOBBY),
    "g:12:7:pick.mammoth.bird": (PUBLIC_SURFACE, ACT),
    "s:12:7:pick": (PUBLIC_SURFACE, CHOOSE),
    "v:12:7:sel.c3": (PUBLIC_SURFACE, DISPLAY),
    "x:12:7:d": (PUBLIC_SURFACE, DISPLAY_CHOICE),
    "h:12:0:hand": (PUBLIC_SURFACE, OPEN),
    "p:12:9:place.I3.0.1.2": (PRIVATE_SURFACE, ACT),
    "q:12:9:place": (PRIVATE_SURFACE, CHOOSE),
    "w:12:9:pc.I3": (PRIVATE_SURFACE, DISPLAY),
    "y:12:9:d": (PRIVATE_SURFACE, DISPLAY_CHOICE),
    "r:12:4:next": (REPLAY_SURFACE, STEP),
}


@pytest.mark.parametrize(("raw", "meaning"), sorted(TODAYS_IDS.items()))
def test_todays_custom_ids_decode_once_into_surface_and_intent(raw, meaning):
    click = decode(raw)
    assert click is not None and (click.surface, click.intent) == meaning
    assert str(click) == raw, "encoding gives the same id back"
    assert kind_for(*meaning) == raw[0]
    assert click.match_id == 12


@pytest.mark.parametrize("raw", ["z:1:1:x", "g:1:x:a", "g:1:1:a b", "", "g:1:1:" + "a" * 81, "g:-1:1:a"])
def test_foreign_or_forged_ids_decode_to_nothing(raw):
    assert decode(raw) is None


def test_a_display_choice_takes_the_chosen_option():
    click = decode("y:1:2:d")
    assert click is not None
    chosen = type(click)(click.kind, 1, 2, "d", ("pc.L4",))
    assert chosen.display == "pc.L4"
    assert decode("w:1:2:pc.T4").display == "pc.T4"


def _draw(n: int) -> bytes:
    return bytes([n])


def test_fingerprint_sees_text_controls_and_image_inputs_but_not_new_objects():
    tr = translator("de")
    a = Board("x", None, functools.partial(_draw, 1), alt="a")
    same = Board("x", None, functools.partial(_draw, 1), alt="a")
    assert fingerprint(a) == fingerprint(same), "equal inputs, equal fingerprint: not drawn again"
    assert fingerprint(a) != fingerprint(Board("y", None, functools.partial(_draw, 1), alt="a"))
    assert fingerprint(a) != fingerprint(Board("x", None, functools.partial(_draw, 2), alt="a"))
    assert translator("de") is tr, "one translator per language, so closures over it compare equal"
    assert image_key(lambda: _draw(len(tr("game.ugah")))) == image_key(lambda: _draw(len(tr("game.ugah"))))


class _Resp:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "x"


def _http(cls: type[discord.HTTPException], status: int, code: int = 0) -> discord.HTTPException:
    return cls(_Resp(status), {"code": code, "message": "m"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("err", "what"),
    [
        (_http(discord.HTTPException, 429), RETRY),
        (_http(discord.HTTPException, 503), RETRY),
        (_http(discord.NotFound, 404, 10008), MESSAGE_GONE),
        (_http(discord.NotFound, 404, 10003), CHANNEL_GONE),
        (_http(discord.NotFound, 404, 10015), EXPIRED),
        (_http(discord.HTTPException, 401, 50027), EXPIRED),
        (_http(discord.Forbidden, 403, 50007), DMS_SHUT),
        (_http(discord.Forbidden, 403, 50013), FORBIDDEN),
    ],
)
def test_every_discord_error_gets_the_handling_it_deserves(err, what):
    assert verdict(err).what == what


async def test_hurried_hears_a_429_at_once_only_for_the_calls_within():
    """discord.py raises RateLimited on a 429 whose retry_after exceeds max_ratelimit_timeout, read
    on each 429: a moment within hurried(), the client's own elsewhere (None: sleep it out). A bucket
    made within keeps the client's own: it serves every later call on its route."""
    client = discord.Client(intents=discord.Intents.none())
    DiscordSend(client)
    http = client.http
    assert http.max_ratelimit_timeout is None
    with hurried():
        assert http.max_ratelimit_timeout == HURRY_SECONDS
        bucket = http.get_ratelimit("PATCH /channels/{channel_id}/messages/{message_id}:1")
    assert http.max_ratelimit_timeout is None
    assert bucket._max_ratelimit_timeout is None
    await client.close()


class _Clock:
    t = 0.0

    def __call__(self) -> float:
        return self.t


async def test_reconciler_serialises_coalesces_and_lets_the_latest_win():
    """Ten pokes while a slow edit is in flight: two edits in all, the last showing the latest."""
    latest, shown, running = [0], [], [0]
    release = asyncio.Event()

    async def step(rec: Reconciler) -> None:
        running[0] += 1
        assert running[0] == 1, "never two edits of one surface at once"
        v = latest[0]
        if not shown:
            await release.wait()
        shown.append(v)
        rec.showed(Shown(v, bytes([v])))
        running[0] -= 1

    rec = Reconciler(1, "board", -1, step, _Clock())
    rec.poke()
    await asyncio.sleep(0)
    for v in range(1, 11):
        latest[0] = v
        rec.poke()
    release.set()
    await rec.wait()
    assert shown == [0, 10]
    assert rec.shown is not None and rec.shown.version == 10


async def test_reconciler_retries_after_what_a_rate_limit_says_and_never_shows_older_over_newer(monkeypatch):
    waits: list[float] = []
    attempts = [0]
    real_sleep = asyncio.sleep

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    async def step(rec: Reconciler) -> None:
        attempts[0] += 1
        if attempts[0] <= 3:
            raise Retry(2.5 if attempts[0] == 1 else None)
        rec.showed(Shown(3, b"three"))

    rec = Reconciler(1, "dm", 0, step, _Clock())
    rec.answered(Shown(5, b"five"))  # a click's answer drew a newer version meanwhile
    monkeypatch.setattr(reconciler.asyncio, "sleep", fake_sleep)
    rec.poke()
    await rec.wait()
    assert attempts[0] == 4 and waits == [2.5, 0.5, 1.0], "what the rate limit said, then a growing backoff"
    assert rec.shown is not None and rec.shown.version == 5, "the older edit is not recorded over the newer"


async def test_an_answer_landing_during_an_edit_is_not_buried():
    """A click's answer while the worker's own (older) edit is in flight: the worker goes round once
    more, so whatever landed last, the surface ends with the latest."""
    calls: list[int] = []
    gate = asyncio.Event()

    async def step(rec: Reconciler) -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            await gate.wait()
        rec.showed(Shown(1, b"old" if len(calls) == 1 else b"new"))

    rec = Reconciler(1, "dm", 0, step, _Clock())
    rec.poke()
    await asyncio.sleep(0)
    rec.answered(Shown(2, b"answer"))
    gate.set()
    await rec.wait()
    assert len(calls) == 2


async def test_a_claim_is_won_once_across_two_processes(tmp_path):
    path = str(tmp_path / "s.db")
    a, b = open_store(path), open_store(path, exclusive=False)
    await a.open()
    await b.open()
    try:
        row = SurfaceRow(7, "ping", -1, 1, None, version=4, at=1.0)
        won = [await a.claim_surface(row), await b.claim_surface(row)]
        assert won == [True, False], "one ping per turn, whichever process gets there first"
        assert await b.claim_surface(SurfaceRow(7, "ping", -1, 1, 99, version=5, at=2.0))
        assert [r.message_id for r in await a.surfaces(7)] == [99]
    finally:
        await a.close()
        await b.close()


async def test_a_persons_quiet_waits_for_their_own_clicks_only(simcord_env):
    """Four seats placing at once: each text answer waits for its own person's clicks on their way
    to a commit, not for the others' (the match-wide quiet, before an image, waits for all)."""
    hub, mid, alice, bob = simcord_env.bot.surfaces, 4242, 1, 2
    with hub.acting(mid, bob):
        await asyncio.wait_for(hub.quiet(mid, alice), 0.05)  # at once: only bob's click is on its way
        bobs, everyones = asyncio.create_task(hub.quiet(mid, bob)), asyncio.create_task(hub.quiet(mid))
        for _ in range(5):
            await asyncio.sleep(0)
        assert not bobs.done() and not everyones.done()
    await asyncio.wait_for(asyncio.gather(bobs, everyones), 0.05)  # his click landed: both go on


async def test_a_commit_s_poke_leaves_a_surface_already_in_line_with_it_alone():
    """Four clicks landing at once fan out four times: a surface whose answer (or an earlier step)
    showed that version is not rebuilt to find it unchanged; a newer commit, or a poke without a
    version (something besides a commit changed it), still brings it in line."""
    steps: list[int] = []

    async def step(rec: Reconciler) -> None:
        steps.append(rec.checked)

    rec = Reconciler(1, "dm", 0, step, _Clock())
    rec.answered(Shown(4, b"four"))  # the click's own answer drew version 4
    for version in (2, 3, 4):
        rec.poke(version)
        await rec.wait()
    assert steps == [], "commits it already shows: nothing to do"
    rec.poke(5)
    await rec.wait()
    rec.poke(5)
    await rec.wait()
    assert len(steps) == 1 and rec.checked == 5, "a newer commit: looked at once"
    rec.poke()
    await rec.wait()
    assert len(steps) == 2, "an unversioned poke always looks"
    rec.forget()
    assert rec.shown is None and rec.checked == -1, "after forget, what it shows is unknown"
    await rec.wait()
    assert len(steps) == 3, "... so it is looked at again"
