"""Honga state and turn mechanics (spec R17-R44). Every helper here mutates the copy that
``HongaRules.apply``/``setup`` made; validation happens before (legal_actions), never here.

Piles are lists whose *last* element is the top; "under the pile" is index 0.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, Seat
from engine.games.honga_data import (
    BUY_VP,
    CHASE,
    CLIMB_CARD_STEPS,
    CLIMB_OR_CHASE,
    DISK_IDS,
    DISKS,
    EXTRA,
    FRUGAL,
    GATHER,
    GREY,
    HONGA,
    LUCKY,
    LUCKY_OR_CHASE,
    MOUNTAIN,
    MOUNTAIN_TOP,
    NEIGHBOURS,
    RED,
    RESOURCES,
    STEP_VP,
    SUMMIT_VP,
    SWAP,
    TRADE_CARDS,
    TRADE_SLOTS,
    VP2,
    VP2_POINTS,
    WATER_PER_FOOD,
)
from engine.games.honga_pay import Pay
from engine.rng import Rng

NO_CAP = 0  # track_cap value meaning "uncapped"


@dataclass
class HongaState:
    n: int
    rng: int
    start: int  # R22: the fire holder
    target: int  # R41
    cap: int  # R14: track cap (NO_CAP = none)
    herd_cap: int  # R16
    current: int
    phase: str = "place"  # "place" | "act" | "keep" | "over"
    turn: int = 1  # turns begun so far
    final: bool = False  # R42: someone reached the target; this round is the last
    piles: dict[str, list[int]] = field(default_factory=dict)  # disk piles by colour
    stacks: dict[str, list[list[int]]] = field(default_factory=dict)  # space -> [[disk, rot]...]
    disk: list[int | None] = field(default_factory=list)  # disk in hand per seat (private)
    trade_pile: list[str] = field(default_factory=list)
    slots: list[str | None] = field(default_factory=list)
    trade_discard: list[str] = field(default_factory=list)
    bonus_pile: list[str] = field(default_factory=list)
    bonus_discard: list[str] = field(default_factory=list)
    cards: list[list[str]] = field(default_factory=list)  # bonus cards in hand (private)
    pending: list[list[str]] = field(default_factory=list)  # drawn this turn (hidden, R29)
    res: list[list[int]] = field(default_factory=list)  # per seat [F, B, M, W]
    board: list[int] = field(default_factory=list)  # mammoths on each player board
    supply: list[int] = field(default_factory=list)  # mammoths in each player's depot
    herd: list[int] = field(default_factory=list)  # owners, newest first (A10)
    tusk: int | None = None
    steps: list[int] = field(default_factory=list)  # mountain step per caveman
    scores: list[int] = field(default_factory=list)
    honga: int | None = None  # seat whose board HONGA is on; None = his field
    # this turn (R27-R37)
    placed: list[Any] | None = None  # [space, rot, disk]
    left: dict[str, int] = field(default_factory=dict)  # field -> hands not used yet
    played: list[str] = field(default_factory=list)  # bonus cards played this turn
    barter: int = 0  # GOOD_BARTER cards waiting for a trade
    swap: bool = False
    frugal: bool = False
    extra: bool = False
    drawn: list[int] = field(default_factory=list)  # EXTRA_DISK: the two disks to choose from


def clone(s: HongaState) -> HongaState:
    """Cheap deep copy (apply never mutates its input)."""
    return dataclasses.replace(
        s,
        piles={k: list(v) for k, v in s.piles.items()},
        stacks={k: [list(d) for d in v] for k, v in s.stacks.items()},
        disk=list(s.disk),
        trade_pile=list(s.trade_pile),
        slots=list(s.slots),
        trade_discard=list(s.trade_discard),
        bonus_pile=list(s.bonus_pile),
        bonus_discard=list(s.bonus_discard),
        cards=[list(x) for x in s.cards],
        pending=[list(x) for x in s.pending],
        res=[list(x) for x in s.res],
        board=list(s.board),
        supply=list(s.supply),
        herd=list(s.herd),
        steps=list(s.steps),
        scores=list(s.scores),
        placed=list(s.placed) if s.placed is not None else None,
        left=dict(s.left),
        played=list(s.played),
        drawn=list(s.drawn),
    )


# ---- geometry (R10) ---------------------------------------------------------------------------------


def hands_by_field(space: str, rot: int, pattern: tuple[int, ...] | list[int]) -> dict[str, int]:
    """R10: quarter i points at neighbours(space)[(i + rot) mod 4]."""
    nb = NEIGHBOURS[space]
    return {nb[(i + rot) % 4]: pattern[i] for i in range(4)}


def feeds_honga(space: str, rot: int, disk: int) -> bool:
    """R25: at least one hand of the disk points at HONGA's field."""
    return hands_by_field(space, rot, DISKS[disk][1]).get(HONGA, 0) > 0


# ---- small effects ---------------------------------------------------------------------------------


def gain(s: HongaState, seat: Seat, r: int, k: int = 1) -> int:
    """R28/R14: raise a track, capped; returns what was actually gained."""
    after = s.res[seat][r] + k
    if s.cap != NO_CAP:
        after = min(after, s.cap)
    got = after - s.res[seat][r]
    s.res[seat][r] = after
    return got


def add_vp(s: HongaState, seat: Seat, vp: int, ev: list[Event]) -> None:
    """R6 (uncapped) and R42: reaching the target at any moment makes this round the last."""
    if vp <= 0:
        return
    s.scores[seat] += vp
    if not s.final and s.scores[seat] >= s.target:
        s.final = True
        ev.append(Event("final_round", {"seat": seat, "score": s.scores[seat]}))


def pay(s: HongaState, seat: Seat, p: Pay) -> None:
    """Spend raw materials and mammoths (R34: back to the supply; the herd closes up)."""
    for r, k in enumerate(p.raw):
        s.res[seat][r] -= k
    s.board[seat] -= p.x
    for pos in sorted(p.herd, reverse=True):
        del s.herd[pos]
    s.supply[seat] += p.mammoths
    if p.herd:
        update_tusk(s)


def update_tusk(s: HongaState) -> None:
    """R31/A9: most mammoths in the herd; ties go to the tied player whose mammoth came in last."""
    if not s.herd:
        s.tusk = None
        return
    counts = [s.herd.count(seat) for seat in range(s.n)]
    best = max(counts)
    s.tusk = next(seat for seat in s.herd if counts[seat] == best)


# ---- step 2: HONGA (R24-R26) --------------------------------------------------------------------------


def eat(s: HongaState, seat: Seat, ev: list[Event]) -> None:
    """R26: one item, fish first, then berry, mushroom, water, a board mammoth; nothing if empty."""
    for r, name in enumerate(RESOURCES):
        if s.res[seat][r]:
            s.res[seat][r] -= 1
            ev.append(Event("honga_ate", {"seat": seat, "item": name}))
            return
    if s.board[seat]:
        s.board[seat] -= 1
        s.supply[seat] += 1
        ev.append(Event("honga_ate", {"seat": seat, "item": "mammoth"}))
        return
    ev.append(Event("honga_ate", {"seat": seat, "item": None}))


def mind_honga(s: HongaState, fed: bool, ev: list[Event]) -> None:
    me = s.current
    if s.honga == me:  # R24: he stays and eats, fed or not
        eat(s, me, ev)
    elif not fed:  # R25: ignored, he comes over and eats at once
        ev.append(Event("honga_moved", {"from": s.honga, "to": me}))
        s.honga = me
        eat(s, me, ev)


# ---- step 1 and step 3 ----------------------------------------------------------------------------------


def place(s: HongaState, space: str, rot: int, ev: list[Event]) -> None:
    """R23 then step 2 at once (R24/R25)."""
    me = s.current
    disk = s.disk[me]
    assert disk is not None
    s.disk[me] = None
    s.stacks[space].append([disk, rot])
    s.placed = [space, rot, disk]
    hands = hands_by_field(space, rot, DISKS[disk][1])
    s.left = {f: k for f, k in hands.items() if k and f != HONGA}  # R27: HONGA hands do nothing
    ev.append(Event("placed", {"seat": me, "space": space, "rot": rot, "disk": disk}))
    mind_honga(s, hands.get(HONGA, 0) > 0, ev)
    s.phase = "act"


def use_hand(s: HongaState, fld: str) -> None:
    s.left[fld] -= 1
    if not s.left[fld]:
        del s.left[fld]


def do_gather(s: HongaState, fld: str, ev: list[Event]) -> None:
    r = RESOURCES.index(GATHER[fld])
    got = gain(s, s.current, r)
    ev.append(Event("gathered", {"seat": s.current, "item": GATHER[fld], "gained": got}))


def convert(s: HongaState, food: int, ev: list[Event]) -> None:
    """Seed (over R35/A14): 2 water for 1 food at any moment of step 3; the cap (R14) applies."""
    s.res[s.current][3] -= WATER_PER_FOOD
    got = gain(s, s.current, food)
    ev.append(Event("converted", {"seat": s.current, "item": RESOURCES[food], "gained": got}))


def draw_bonus(s: HongaState, ev: list[Event]) -> None:
    """R29: the card goes face down to the pending row; nobody sees it (R45)."""
    if not s.bonus_pile:
        refill_bonus(s)
    s.pending[s.current].append(s.bonus_pile.pop())
    ev.append(Event("bonus_drawn", {"seat": s.current}))


def refill_bonus(s: HongaState) -> None:
    """R40: the discards, shuffled, become the new pile."""
    rng = Rng(s.rng)
    s.bonus_pile, s.bonus_discard = s.bonus_discard, []
    rng.shuffle(s.bonus_pile)
    s.rng = rng.state


def can_draw_bonus(s: HongaState) -> bool:
    return bool(s.bonus_pile or s.bonus_discard)


def lure(s: HongaState, p: Pay, ev: list[Event]) -> None:
    """R30: pay, newest mammoth first in the herd; one pushed past the capacity goes home."""
    me = s.current
    pay(s, me, p)
    s.supply[me] -= 1
    s.herd.insert(0, me)
    ev.append(Event("lured", {"seat": me, "paid": p.code()}))
    if len(s.herd) > s.herd_cap:
        owner = s.herd.pop()
        s.board[owner] += 1
        ev.append(Event("mammoth_home", {"seat": owner}))
    before = s.tusk
    update_tusk(s)
    if s.tusk != before:
        ev.append(Event("tusk", {"from": before, "to": s.tusk}))


def climb(s: HongaState, steps: int, ev: list[Event]) -> None:
    """R32: climb; at the top everybody scores and all cavemen go back (the rest of the climb and
    this turn's remaining mountain hands are lost, E5)."""
    me = s.current
    for _ in range(steps):
        s.steps[me] += 1
        if s.steps[me] >= MOUNTAIN_TOP:
            gains = [SUMMIT_VP if seat == me else STEP_VP[s.steps[seat]] for seat in range(s.n)]
            ev.append(Event("summit", {"seat": me, "gains": gains}))
            for seat in [me] + [x for x in range(s.n) if x != me]:
                add_vp(s, seat, gains[seat], ev)
            s.steps = [0] * s.n
            s.left.pop(MOUNTAIN, None)
            return
    ev.append(Event("climbed", {"seat": me, "step": s.steps[me]}))


def trade(s: HongaState, slot: int, p: Pay, ev: list[Event]) -> None:
    """R33/R34: take the card, pay, score at once; the slot stays empty until step 4."""
    card = s.slots[slot]
    assert card is not None
    pay(s, s.current, p)
    if p.g:
        s.barter -= 1  # A4: one GOOD_BARTER serves one trade; any unused food is lost
    s.slots[slot] = None
    s.trade_discard.append(card)
    vp = TRADE_CARDS[card][2]
    ev.append(Event("traded", {"seat": s.current, "card": card, "slot": slot, "paid": p.code(), "vp": vp}))
    add_vp(s, s.current, vp, ev)


def play_card(s: HongaState, kind: str, arg: str | None, p: Pay | None, ev: list[Event]) -> None:
    """R11/R36: one bonus card from hand; its effect happens now (flags last for this turn)."""
    me = s.current
    s.cards[me].remove(kind)
    s.played.append(kind)
    ev.append(Event("card_played", {"seat": me, "card": kind, "choice": arg}))
    if kind == VP2:
        add_vp(s, me, VP2_POINTS, ev)
    elif arg == "chase" or kind == CHASE:
        s.honga = None
        ev.append(Event("honga_moved", {"from": me, "to": None}))
    elif kind in (LUCKY, LUCKY_OR_CHASE):  # R37: an empty quarter is fine; towards HONGA: nothing
        assert arg is not None  # legal(): a lucky hand names its field
        if arg != HONGA:
            s.left[arg] = s.left.get(arg, 0) + 1
    elif kind == CLIMB_OR_CHASE:
        climb(s, CLIMB_CARD_STEPS, ev)
    elif kind == BUY_VP:
        assert p is not None
        pay(s, me, p)
        add_vp(s, me, sum(p.raw), ev)
    elif kind == EXTRA:
        s.extra = True
    elif kind == SWAP:
        s.swap = True
    elif kind == FRUGAL:
        s.frugal = True
    else:  # GOOD_BARTER
        s.barter += 1


def raw_total(s: HongaState, seat: Seat) -> int:
    """R44/A16: the tie-break counts the four raw-material tracks (not mammoths)."""
    return sum(s.res[seat])


def result(s: HongaState) -> tuple[list[Seat], str]:
    """R44: highest score; tie: most raw materials; still tied: shared victory (R43: cards in
    hand and pending cards are worth nothing, so they do not appear here)."""
    best = max(s.scores)
    top = [seat for seat in range(s.n) if s.scores[seat] == best]
    if len(top) == 1:
        return top, "score"
    most = max(raw_total(s, seat) for seat in top)
    top = [seat for seat in top if raw_total(s, seat) == most]
    return top, "resources" if len(top) == 1 else "shared"


# ---- step 4 and the next turn (R38-R42) ---------------------------------------------------------------


def end_turn(s: HongaState, ev: list[Event]) -> None:
    """R39 first (cards to the discard, refill trade slots), then R38: draw the new disk."""
    me = s.current
    s.bonus_discard += s.played
    s.played = []
    for i in range(TRADE_SLOTS):
        if s.slots[i] is None:
            if not s.trade_pile and s.trade_discard:
                rng = Rng(s.rng)
                s.trade_pile, s.trade_discard = s.trade_discard, []
                rng.shuffle(s.trade_pile)
                s.rng = rng.state
            if s.trade_pile:
                s.slots[i] = s.trade_pile.pop()
                ev.append(Event("trade_revealed", {"slot": i, "card": s.slots[i]}))
    colour = RED if s.tusk == me else GREY
    drawn = [d for d in (draw_disk(s, colour) for _ in range(2 if s.extra else 1)) if d is not None]
    ev.append(Event("disk_drawn", {"seat": me, "colour": colour, "count": len(drawn)}))
    ev.append(Event("disk_drawn", {"seat": me, "disks": drawn}, to=(me,)))
    if len(drawn) == 2:
        s.drawn = drawn
        s.phase = "keep"
        return
    s.disk[me] = drawn[0] if drawn else None
    next_turn(s, ev)


def draw_disk(s: HongaState, colour: str) -> int | None:
    """Top of the pile; R40: an empty pile is rebuilt from that colour's disks on the board."""
    pile = s.piles[colour]
    if not pile:
        ids = set(DISK_IDS[colour])
        for space, stack in s.stacks.items():
            pile += [d for d, _ in stack if d in ids]
            s.stacks[space] = [x for x in stack if x[0] not in ids]
        rng = Rng(s.rng)
        rng.shuffle(pile)
        s.rng = rng.state
    return pile.pop() if pile else None


def keep_disk(s: HongaState, i: int, ev: list[Event]) -> None:
    """EXTRA_DISK: keep one, the other goes under its pile."""
    me = s.current
    kept, other = s.drawn[i], s.drawn[1 - i]
    s.disk[me] = kept
    s.piles[DISKS[other][0]].insert(0, other)
    s.drawn = []
    ev.append(Event("disk_kept", {"seat": me}))
    next_turn(s, ev)


def next_turn(s: HongaState, ev: list[Event]) -> None:
    """R42: the last round ends after the player to the right of the start player."""
    if s.final and s.current == (s.start - 1) % s.n:
        s.phase = "over"
        winners, tiebreak = result(s)
        ev.append(Event("game_over", {"scores": list(s.scores), "winners": winners, "tiebreak": tiebreak}))
        return
    s.current = (s.current + 1) % s.n
    s.turn += 1
    begin_turn(s, ev)


def begin_turn(s: HongaState, ev: list[Event]) -> None:
    """R29: pending cards join the hand now; only their owner learns what they are."""
    me = s.current
    s.placed, s.left, s.played, s.drawn = None, {}, [], []
    s.barter, s.swap, s.frugal, s.extra = 0, False, False, False
    s.phase = "place" if s.disk[me] is not None else "act"  # no disk at all: nothing to place
    if s.pending[me]:
        ev.append(Event("cards_taken", {"seat": me, "count": len(s.pending[me])}))
        ev.append(Event("cards_taken", {"seat": me, "cards": list(s.pending[me])}, to=(me,)))
        s.cards[me] += s.pending[me]
        s.pending[me] = []
    ev.append(Event("turn", {"seat": me, "phase": s.phase}))
