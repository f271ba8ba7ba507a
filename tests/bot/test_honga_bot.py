"""Honga end to end through SimCord: people and computers to the end by clicking (public message and
the mover's panel), a restart in the middle of a turn, the panel's secrets, refusals, the turn limit."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import discord
import pytest

from bot.games.base import Ctx
from bot.games.honga import HongaUI
from bot.games.honga_panel import distinct_codes
from bot.i18n import translator
from bot.locales.en_honga import MESSAGES
from engine.core import Event
from engine.games.honga import RULES
from engine.games.honga_data import BONUS_CARDS, DISKS, FIELDS, SPACES
from harness.sim import components
from render.honga import EN_LABELS
from tests.bot.helpers import board, button_id, custom_ids, restart, setup_table
from tests.kit_honga import HongaKit, open_panel
from tests.replayed import replayed

KIT = HongaKit()
DAY = 86400  # a turn limit that never runs out while virtual time jumps ahead
# discord.py gives every ephemeral panel's view the token's 15 minutes; SimCord's settle scans each
# pending timer on every poll, so a test that opens many panels lets them expire now and then
PANEL_LIFETIME = 15 * 60 + 1
CARD_NAMES = {k: MESSAGES[f"honga.card.{k}"] for k in BONUS_CARDS}


async def start(env, humans=2, ai=(), **options):
    """/honga start (short target) by the first person, the others join, computer seats, start."""
    _, channel, players = setup_table(env, humans)
    host = players[0]
    r = await host.slash(channel, "honga start", **{"target": "short", **options})
    assert not r.ephemeral, r.response and r.response.content
    for p in players[1:]:
        await p.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    for level in ai:
        await host.click(board(channel), custom_id=button_id(board(channel), f"ai.{level}", "l"))
    await host.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    m = await env.bot.matches.live_in_channel(channel.id)
    return channel, players, m.id


async def mover(env, players, mid):
    m, state = await env.bot.matches.get(mid)
    return next(p for p in players if p.id == m.seats[state.current].user_id), state


async def snapshot(env, mid):
    m, state = await env.bot.matches.get(mid)
    return m.version, RULES.dump(state)


@pytest.mark.parametrize("humans", [1, 2], ids=["one person", "two people"])
async def test_people_and_computers_play_to_the_end(simcord_env, humans):
    """One person (the issue's case) or two, with two computers, click to the end."""
    env = simcord_env
    channel, players, mid = await start(env, humans, ("medium", "easy"))
    m, _ = await env.bot.matches.get(mid)
    assert [s.ai for s in m.seats] == [False] * humans + [True, True]
    first = board(channel)
    assert first.attachments[0].filename == "honga.png"
    rng = random.Random(4)
    for _ in range(900):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        assert not m.seats[state.current].ai, "computers move on their own after a click is answered"
        r = await (await KIT.next_click(env, channel, players, mid, rng))()
        assert r.acknowledged and not r.ephemeral, r.response and r.response.content
    assert m.status == "finished"
    final = board(channel)
    assert final.id == first.id and "Game over" in final.content
    assert custom_ids(final) == [f"l:{m.id}:0:rematch", f"h:{m.id}:0:lessons"], (
        "a finished game offers a rematch and its lessons, and no game control"
    )
    assert (await final.attachments[0].read()).startswith(b"\x89PNG")
    assert "winners" in final.attachments[0].description
    actions = await env.bot.store.actions(mid)
    assert {a.source for a in actions} >= {"player", "computer"}
    assert await replayed(env.bot.matches, mid) == state


async def test_a_restart_in_the_middle_of_a_turn_resumes_there(simcord_env, bot_factory):
    env = simcord_env
    channel, players, mid = await start(env, 2)
    actor, state = await mover(env, players, mid)
    place = custom_ids(board(channel), "s:")[0]
    await actor.select(board(channel), ["place.se.1"], custom_id=place)
    _, state = await env.bot.matches.get(mid)
    assert state.phase == "act" and state.placed[:2] == ["se", 1]
    old = board(channel)
    end = button_id(old, "end")
    before = await snapshot(env, mid)
    await restart(env, bot_factory)
    assert await snapshot(env, mid) == before, "the same decision of the same turn"
    panel = await open_panel(channel, actor)
    assert "It is your turn" in panel.content and custom_ids(panel, "p:")
    r = await actor.click(old, custom_id=end)  # a button drawn by the old process
    assert not r.ephemeral, r.response and r.response.content
    _, after = await env.bot.matches.get(mid)
    assert after.current != state.current and after.phase == "place"


async def test_the_panel_shows_only_the_seats_own_secrets(simcord_env):
    env = simcord_env
    channel, players, mid = await start(env, 2, turn_seconds=DAY)
    rng = random.Random(2)
    seen_cards = False
    for i in range(150):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active" or (seen_cards and i >= 40):
            break
        if i % 10 == 9:  # let the panels opened so far expire (see PANEL_LIFETIME)
            await env.advance_time(PANEL_LIFETIME)
        actor, state = await mover(env, players, mid)
        waiting = next(p for p in players if p is not actor)
        panel = await open_panel(channel, waiting)
        assert "It is " in panel.content and custom_ids(panel) == [], "nothing to do out of turn"
        if state.disk[1 - state.current] is not None:
            assert "Your disk" in panel.content and "quarter 1:" in panel.content
        public = board(channel)
        for text in (public.content, public.attachments[0].description):
            assert "quarter 1:" not in text and "Your" not in text
        for row in public.components:  # the public controls never offer cards or the disks to keep
            for c in row.children:
                values = [o.value for o in getattr(c, "options", None) or []]
                assert not any(v.startswith(("card.", "keep.")) for v in values)
                assert ":card." not in c.custom_id and ":keep." not in c.custom_id
        playable = any(a.startswith("card.") for a in RULES.legal_actions(state, state.current))
        if state.phase == "act" and playable:
            seen_cards = True
            own = await open_panel(channel, actor)
            assert CARD_NAMES[state.cards[state.current][0]] in own.content
            values = [
                o.value for row in own.components for c in row.children for o in getattr(c, "options", [])
            ]
            assert any(v.startswith("card.") for v in values), "the mover plays cards from the panel"
        await (await KIT.next_click(env, channel, players, mid, rng))()
    assert seen_cards, "a mover held bonus cards during the test"


async def test_refusals_are_ephemeral_and_change_nothing(simcord_env):
    env = simcord_env
    channel, players, mid = await start(env, 2)
    eve = channel.guild.add_member(env.create_user("eve"))
    actor, state = await mover(env, players, mid)
    waiting = next(p for p in players if p is not actor)
    place = custom_ids(board(channel), "s:")[0]
    before = await snapshot(env, mid)
    r = await waiting.select(board(channel), ["place.nw.0"], custom_id=place)
    assert r.ephemeral and "isn't your turn" in r.response.content
    r = await eve.select(board(channel), ["place.nw.0"], custom_id=place)
    assert r.ephemeral and "aren't playing" in r.response.content
    assert await snapshot(env, mid) == before
    await actor.select(board(channel), ["place.sw.0"], custom_id=place)
    m, state = await env.bot.matches.get(mid)
    before = await snapshot(env, mid)
    unaffordable = ["lure.fbm" if state.res[state.current][:3] == [0, 0, 0] else "lure.ffffbbbbmmmm"]
    unaffordable += ["trade.1.ffffffbbbbbbmmmmmm", "fish" if "lake" not in state.left else "draw.2"]
    forged = ["place.zz.9", "card.vp2" if "vp2" not in state.cards[state.current] else "card.nope", "end.now"]
    for code in unaffordable + forged:
        cid = f"g:{mid}:{m.public_version}:{code}"
        stored = env.backend.get_message(channel.id, board(channel).id)
        stored.components[0]["components"][0]["custom_id"] = cid
        r = await actor.click(board(channel), custom_id=cid)
        assert r.ephemeral and r.response.content, code
        assert "Nothing was changed" in r.response.content, (code, r.response.content)
        assert await snapshot(env, mid) == before, code


async def test_the_turn_limit_hands_an_absent_turn_to_the_computer(simcord_env):
    env = simcord_env
    channel, _, mid = await start(env, 2, turn_seconds=30)
    m, state = await env.bot.matches.get(mid)
    slow, turn = m.seats[state.current].name, state.turn
    for _ in range(12):  # every decision has its own limit; the computer plays the turn out
        await env.advance_time(31)
        m, state = await env.bot.matches.get(mid)
        if state.turn > turn:
            break
    assert state.turn > turn or m.status == "finished"
    assert any(a.source == "timeout" for a in await env.bot.store.actions(mid))
    assert slow in board(channel).content


def _ctx(state, seat=None, display="", lang=None):
    """A Ctx over a bare state (no database): enough for the UI's builders."""
    seats = [SimpleNamespace(name=f"P{i}", ai=False, version=7) for i in range(state.n)]
    m = SimpleNamespace(id=1, game="honga", public_version=7, seats=seats)
    return Ctx(m, state, translator(lang), seat=seat, display=display)


def _rich_state():
    """Step 3 with a trade and a mammoth hand, full tracks, mammoths everywhere and every card kind
    in hand: more payments than one select can hold."""
    s = RULES.setup(3, 5, {})
    s = RULES.apply(s, s.current, "place.se.2")[0]
    me = s.current
    s.res = [[9, 9, 9, 9] for _ in range(s.n)]
    s.board[me], s.herd = 3, [me, me, (me + 1) % 3]
    s.slots = ["T23", "T21", "T32"]
    s.left = {"trade": 2, "mammoths": 1, "lake": 1, "spring": 1}
    s.cards[me] = sorted(BONUS_CARDS)
    return s


def test_every_surface_fits_discord_limits_and_pages_long_selects():
    ui, s = HongaUI(), _rich_state()
    legal = RULES.legal_actions(s, s.current)
    for display in ("", "page.1", "page.2"):
        for ctx in (_ctx(s, display=display), _ctx(s, s.current, display)):
            items = ui.controls(ctx) if ctx.seat is None else ui.private_surface(ctx).items
            view = discord.ui.View(timeout=None)
            for item in items:
                view.add_item(item)  # raises past 5 rows or 25 components
            selects = [i for i in items if hasattr(i, "item") and isinstance(i.item, discord.ui.Select)]
            assert all(len(x.item.options) <= 25 for x in selects)
    offered = set()
    for page in range(6):
        for item in ui.private_surface(_ctx(s, s.current, f"page.{page}")).items:
            offered |= {o.value for o in getattr(item.item, "options", [])}
            offered |= {item.item.custom_id.split(":", 3)[3]} if not hasattr(item.item, "options") else set()
    distinct = distinct_codes(legal, RULES.view(s, None)["herd"])
    assert len(distinct) < len(legal), "herd [me, me, other]: taking #1 or #2 is one choice"
    assert set(distinct) <= offered, "every distinct choice is reachable on the panel, page by page"
    assert {c for c in offered if not c.startswith("page.")} <= set(legal)


def _offered(items):
    """Every action code on a list of controls: select options and button codes."""
    out = []
    for item in items:
        options = getattr(item.item, "options", None)
        out += [o.value for o in options] if options is not None else [item.item.custom_id.split(":", 3)[3]]
    return out


def _small_state(res, board=0, score=0, **left):
    """Step 3 of a 3-player game for the seat to move, with the given larder and hands left."""
    s = RULES.setup(3, 5, {})
    s = RULES.apply(s, s.current, "place.se.2")[0]
    me = s.current
    s.res[me], s.board[me], s.scores[me], s.left = list(res), board, score, dict(left)
    return s


def test_counts_are_worded_with_plural_forms_in_every_language():
    """Play-test report, point 3: '1 berries', '1 mushrooms', '1 points', '(1 mushrooms)' and the
    'Mushrooms ×2' button that takes one per click. Counts go through plural forms and the
    gathering buttons say how many hands are left."""
    ui = HongaUI()
    s = _small_state((1, 1, 1, 0), board=1, score=1, mushrooms=1, berries=2)
    wrong = re.compile(
        r"\b1 (berries|mushrooms|points|mammoths|Beeren|Pilze|Punkte|Mammuts|bayas|setas|puntos|mamuts)\b"
    )
    expect = {
        "en": ("1 berry, 1 mushroom", "1 mammoth · 1 point", "(1 mushroom, 2 berries)",
               "Take a mushroom (1 hand left)", "Take a berry (2 hands left)"),
        "de": ("1 Beere, 1 Pilz", "1 Mammut · 1 Punkt", "(1 Pilz, 2 Beeren)",
               "Einen Pilz nehmen (noch 1 Hand)", "Eine Beere nehmen (noch 2 Hände)"),
        "es": ("1 baya, 1 seta", "1 mamut · 1 punto", "(1 seta, 2 bayas)",
               "Tomar una seta (queda 1 mano)", "Tomar una baya (quedan 2 manos)"),
    }  # fmt: skip
    for lang, (larder, board_score, status, one_left, two_left) in expect.items():
        panel = ui.private_surface(_ctx(s, s.current, lang=lang))
        labels = [str(getattr(i.item, "label", "")) for i in panel.items]
        status_line = ui.status_line(_ctx(s, lang=lang))
        assert larder in panel.content and board_score in panel.content, (lang, panel.content)
        assert status in status_line, (lang, status_line)
        assert one_left in labels and two_left in labels, (lang, labels)
        for text in [panel.content, status_line, *labels]:
            assert not wrong.search(text) and "×" not in text, (lang, text)
    trade = {"seat": s.current, "slot": 0, "vp": 1, "paid": "f"}
    line = ui._line(Event("traded", trade), ["P0", "P1", "P2"], translator("de"))
    assert "für 1 Punkt (" in line, line


def test_equal_choices_are_offered_once_and_old_codes_still_apply():
    """Play-test report, point 4: paying with one of three equal herd mammoths (trade.1.bm1, bm2,
    bm3) and keeping one of two look-alike disks (keep.0, keep.1) are one choice each on the
    panel; the rules still take every code, so old action logs replay."""
    ui = HongaUI()
    s = _small_state((0, 1, 1, 0), trade=1)
    me, other = s.current, (s.current + 1) % 3
    s.slots = ["T27", None, None]  # berry + mushroom + 1 mammoth
    s.herd = [me, me, me]
    assert [c for c in RULES.legal_actions(s, me) if c.startswith("trade.")] == [
        "trade.1.bm1", "trade.1.bm2", "trade.1.bm3"
    ]  # fmt: skip
    for ctx in (_ctx(s), _ctx(s, me)):
        items = ui.controls(ctx) if ctx.seat is None else ui.private_surface(ctx).items
        assert [c for c in _offered(items) if c.startswith("trade.")] == ["trade.1.bm1"]
    for code in ("trade.1.bm2", "trade.1.bm3"):  # the codes left off still apply, with one outcome
        after, _ = RULES.apply(s, me, code)
        assert RULES.dump(after) == RULES.dump(RULES.apply(s, me, "trade.1.bm1")[0])
    s.herd = [me, other, me]  # #1 or #3 leave different herds: two choices
    items = ui.private_surface(_ctx(s, me)).items
    assert [c for c in _offered(items) if c.startswith("trade.")] == ["trade.1.bm1", "trade.1.bm3"]

    keep = RULES.load(RULES.dump(s))
    keep.phase, keep.left = "keep", {}
    alike = [i for i, d in enumerate(DISKS) if d == DISKS[0]][:2]
    for drawn, codes in ((alike, ["keep.0"]), ([0, DISKS.index(DISKS[-1])], ["keep.0", "keep.1"])):
        keep.drawn = list(drawn)
        panel = ui.private_surface(_ctx(keep, me))
        assert _offered(panel.items) == codes
        labels = [str(i.item.label) for i in panel.items]
        assert all(("alike" in x) == (len(codes) == 1) for x in labels), labels
        assert RULES.legal_actions(keep, me) == ["keep.0", "keep.1"]
        assert RULES.apply(keep, me, "keep.1")[0].disk[me] == drawn[1]  # an old log's keep.1


def test_the_catalogue_holds_every_image_label_and_every_name():
    from bot.locales.en import MESSAGES as ALL

    ours = {k.removeprefix("render.honga."): v for k, v in ALL.items() if k.startswith("render.honga.")}
    assert ours == EN_LABELS
    names = [f"honga.{key}.{k}" for k in BONUS_CARDS for key in ("card", "cardname")] + [
        f"honga.field.{f}" for f in FIELDS
    ]
    names += [f"honga.space.{s}" for s in SPACES] + [
        f"honga.res.{r}" for r in ("f", "b", "m", "w", "mammoth")
    ]
    names += [f"honga.tiebreak.{t}" for t in ("score", "resources", "shared")]
    names += [f"honga.status.{p}" for p in ("place", "act", "keep")]
    assert [k for k in names if k not in MESSAGES] == []


async def forge_and_click(env, channel, actor, mid, code):
    """Click a public control whose id was altered to carry ``code`` (at the current version); the
    control is put back afterwards (a refused click does not redraw the message)."""
    m, _ = await env.bot.matches.get(mid)
    cid = f"g:{mid}:{m.public_version}:{code}"
    stored = env.backend.get_message(channel.id, board(channel).id)
    slot = stored.components[-1]["components"][0]
    original, slot["custom_id"] = slot["custom_id"], cid
    try:
        return await actor.click(board(channel), custom_id=cid)
    finally:
        slot["custom_id"] = original


async def test_a_pending_card_and_a_hand_used_twice_are_refused(simcord_env):
    env = simcord_env
    channel, players, mid = await start(env, 2)
    rng = random.Random(6)
    refused = set()
    for _ in range(400):
        m, state = await env.bot.matches.get(mid)
        if m.status != "active" or refused == {"pending", "twice"}:
            break
        actor, state = await mover(env, players, mid)
        me = state.current
        codes = []
        if state.phase == "act" and any(k not in state.cards[me] for k in state.pending[me]):
            codes.append(
                ("pending", f"card.{next(k for k in state.pending[me] if k not in state.cards[me])}")
            )
        if state.phase == "act" and state.left.get("lake") == 1 and "twice" not in refused:
            await actor.click(board(channel), custom_id=button_id(board(channel), "fish"))
            codes.append(("twice", "fish"))
        for what, code in codes:
            before = await snapshot(env, mid)
            r = await forge_and_click(env, channel, actor, mid, code)
            assert r.ephemeral and "Nothing was changed" in r.response.content, code
            assert await snapshot(env, mid) == before, code
            refused.add(what)
        await (await KIT.next_click(env, channel, players, mid, rng))()
    assert refused == {"pending", "twice"}


async def test_five_computers_play_to_the_end(simcord_env):
    """The host plus four computer seats: the host never clicks, so every turn of the host's seat
    runs out and is played by the computer (the turn limit); the game still reaches its end."""
    env = simcord_env
    channel, (host,), mid = await start(env, 1, ("medium", "easy", "medium", "easy"), turn_seconds=10)
    m, _ = await env.bot.matches.get(mid)
    assert [s.ai for s in m.seats] == [False, True, True, True, True]
    for _ in range(400):
        if m.status != "active":
            break
        await env.advance_time(11)
        m, state = await env.bot.matches.get(mid)
    assert m.status == "finished"
    final = board(channel)
    winners = " & ".join(m.seats[w].name for w in RULES.outcome(state).winners)
    assert f"Winner: {winners} (" in final.content
    assert custom_ids(final) == [f"l:{m.id}:0:rematch", f"h:{m.id}:0:lessons"]
    r = await host.click(final, custom_id=f"h:{m.id}:0:lessons")
    assert r.ephemeral and "no decision yourself" in r.response.content, r.response.content
    assert (await final.attachments[0].read()).startswith(b"\x89PNG")
    assert "winners" in final.attachments[0].description
    sources = {a.source for a in await env.bot.store.actions(mid)}
    assert sources == {"timeout", "computer"}, "nobody clicked"
    assert await replayed(env.bot.matches, mid) == state


def _third_card(state) -> str | None:
    """A code for a held card that the rules would take if fewer than two had been played (so a
    refusal is about the count, not a malformed or unplayable card)."""
    fresh = RULES.load(RULES.dump(state))
    fresh.played = []
    return next((c for c in RULES.legal_actions(fresh, fresh.current) if c.startswith("card.")), None)


async def play_a_card(channel, actor):
    """The mover plays one bonus card from the panel's card select."""
    panel = await open_panel(channel, actor)
    cid = next(c for c in custom_ids(panel, "q:") if c.endswith(":cards"))
    values = [o.value for c in components(panel) if getattr(c, "custom_id", "") == cid for o in c.options]
    r = await actor.select(panel, [values[0]], custom_id=cid)
    assert r.acknowledged and not r.ephemeral, r.response and r.response.content


async def test_a_third_bonus_card_in_a_turn_is_refused(simcord_env):
    """Players keep their bonus cards and draw more until one holds three; that seat plays two
    from its panel and then a forged click plays the third (R36: two per turn)."""
    env = simcord_env
    channel, players, mid = await start(env, 2, target="standard")  # time to gather three cards
    rng = random.Random(11)
    for _ in range(800):
        m, state = await env.bot.matches.get(mid)
        assert m.status == "active", "nobody held three bonus cards"
        actor, state = await mover(env, players, mid)
        me, played = state.current, len(state.played)
        if state.phase == "act" and played == 2 and (code := _third_card(state)):
            break
        playable = any(a.startswith("card.") for a in RULES.legal_actions(state, me))
        if state.phase == "act" and playable and (played or len(state.cards[me]) >= 3):
            await play_a_card(channel, actor)
        elif "draw" in [cid.split(":", 3)[3] for cid in custom_ids(board(channel), "g:")]:
            await actor.click(board(channel), custom_id=button_id(board(channel), "draw"))
        else:
            await (await KIT.next_click(env, channel, players, mid, rng, cards=False))()
    else:
        raise AssertionError("no seat played two bonus cards with a third in hand")
    before = await snapshot(env, mid)
    r = await forge_and_click(env, channel, actor, mid, code)
    assert r.ephemeral and "isn't allowed right now. Nothing was changed" in r.response.content, (
        code,
        r.response.content,
    )
    assert await snapshot(env, mid) == before
    panel = await open_panel(channel, actor)
    assert not [c for c in custom_ids(panel, "q:") if c.endswith(":cards")], "no third card offered"
