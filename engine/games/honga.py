"""Honga rules engine (rules: docs/rules/honga.md, clauses R1-R45, decisions A1-A20).

Pure and deterministic: every shuffle comes from the Rng state stored in ``HongaState.rng``, so
setup(seed) plus the action log replays a match exactly. A turn is several decisions, each one
action applied at once (a restart mid-turn resumes exactly there). Step 2 (HONGA) happens inside
the placing action; step 4 happens inside ``end``.

Action codes (``<pay>`` is a canonical payment, see ``engine.games.honga_pay``):

    place.<space>.<rot>      step 1: space nw|ne|se|sw, rotation 0-3 (R10, 16 placements)
    fish | water | berry | mushroom
                             one hand on the lake / spring / berries / mushrooms (R28)
    draw                     one forest hand: a pending bonus card (R29)
    climb                    one mountain hand (R32)
    lure.<pay>               one mammoth-field hand: pay F+B+M (or 1 food with FRUGAL) (R30)
    trade.<slot>.<pay>       one trade hand: take face-up card 1-3 (R33-R35)
    skip.<field>             decline one hand pointing at <field> (A13)
    convert.<f|b|m>          exchange 2 water for 1 fish / berry / mushroom (seed, see below)
    card.vp2 | card.chase | card.extra | card.swap | card.frugal | card.barter
    card.lucky.<field>       LUCKY_HAND: +1 hand towards <field> (one of the placed disk's fields)
    card.loc.<field> | card.loc.chase           LUCKY_OR_CHASE
    card.coc.climb | card.coc.chase             CLIMB2_OR_CHASE
    card.buyvp.<pay>         BUY_VP: 1-3 raw materials (f/b/m/w), 1 VP each (A5)
    end                      step 4: end the turn (declines every hand left), draw the new disk
    keep.<i>                 EXTRA_DISK: keep drawn disk 0 or 1 (only its owner sees them)

Seed over spec: R35/A14 allow the 2-water exchange "only when paying"; the seed says water drops are
jokers that "podrás cambiar siempre" (you may *always* exchange) 2 for a fish, berry or mushroom. It
does matter: with a track at its cap (R14), exchanging water before gathering more water saves what
would be lost. Following the seed, ``convert.<food>`` is a free decision at any moment of step 3
(it uses no hand); payments may still spend water pairs directly. Other terse seed passages are
read as the spec does and marked in comments (R26: one item per turn; R32: the rest of a summit
climb is lost).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core import Choice, Event, Outcome, Rules, Seat, Timer
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games import honga_turn as t
from engine.games.honga_data import (
    BONUS_DECK,
    BUY_VP,
    BUY_VP_MAX,
    CHASE,
    CLIMB_OR_CHASE,
    DISK_IDS,
    FIELDS,
    FOOD,
    FOREST,
    GATHER,
    GREY,
    HERD_CAPACITY,
    HONGA,
    LUCKY,
    LUCKY_OR_CHASE,
    MAMMOTHS,
    MAMMOTHS_PER_PLAYER,
    MAX_CARDS_PER_TURN,
    MOUNTAIN,
    NEIGHBOURS,
    RED,
    ROTATIONS,
    SHORT_TARGET,
    SPACES,
    START_RESOURCES,
    TARGET,
    TRACK_CAP,
    TRADE,
    TRADE_CARDS,
    TRADE_SLOTS,
    WATER_PER_FOOD,
)
from engine.games.honga_pay import (
    Pay,
    any_food_payments,
    food_payments,
    parse_pay,
    raw_payments,
    trade_payments,
)
from engine.games.honga_turn import HongaState, clone
from engine.games.honga_view import view
from engine.rng import Rng

# one-word codes for the gathering hands, and the field each one uses
GATHER_CODES: dict[str, str] = {
    "fish": "lake",
    "water": "spring",
    "berry": "berries",
    "mushroom": "mushrooms",
}
FIELD_CODES: dict[str, str] = {**{v: k for k, v in GATHER_CODES.items()}, FOREST: "draw", MOUNTAIN: "climb"}
SIMPLE_CARDS = ("vp2", "chase", "extra", "swap", "frugal", "barter")
TARGETS = ("standard", "short")
CAPS = ("9", "none")


# ---- action codes ----------------------------------------------------------------------------------


def parse_action(code: object) -> tuple[str, tuple[Any, ...]]:
    """Split a code into (kind, args); anything not canonical is BadActionCode."""
    if not isinstance(code, str) or len(code) > 40:
        raise BadActionCode("not a short string")
    parts = code.split(".")
    kind, args = parts[0], parts[1:]
    if not args and kind in ("end", "draw", "climb", *GATHER_CODES):
        return kind, ()
    if kind == "place" and len(args) == 2 and args[0] in SPACES and args[1] in ("0", "1", "2", "3"):
        return kind, (args[0], int(args[1]))
    if kind == "keep" and args in (["0"], ["1"]):
        return kind, (int(args[0]),)
    if kind == "convert" and len(args) == 1 and args[0] in FOOD:
        return kind, (FOOD.index(args[0]),)
    if kind == "skip" and len(args) == 1 and args[0] in FIELDS and args[0] != HONGA:
        return kind, (args[0],)
    if kind == "lure" and len(args) == 1 and (p := parse_pay(args[0])) is not None:
        return kind, (p,)
    if kind == "trade" and len(args) == 2 and args[0] in ("1", "2", "3") and (p := parse_pay(args[1])):
        return kind, (int(args[0]) - 1, p)
    if kind == "card":
        return kind, _parse_card(code, args)
    raise BadActionCode(code)


def _parse_card(code: str, args: list[str]) -> tuple[Any, ...]:
    if len(args) == 1 and args[0] in SIMPLE_CARDS:
        return (args[0], None, None)
    if len(args) == 2:
        kind, arg = args
        if kind in (LUCKY, LUCKY_OR_CHASE) and arg in FIELDS:
            return (kind, arg, None)
        if kind in (LUCKY_OR_CHASE, CLIMB_OR_CHASE) and arg == "chase":
            return (kind, "chase", None)
        if kind == CLIMB_OR_CHASE and arg == "climb":
            return (kind, "climb", None)
        if kind == BUY_VP and (p := parse_pay(arg)) is not None and not (p.g or p.mammoths):
            return (kind, None, p)
    raise BadActionCode(code)


# ---- what may be done --------------------------------------------------------------------------------


def _have(s: HongaState, seat: Seat) -> tuple[int, ...]:
    return tuple(s.res[seat])


def _lure_codes(s: HongaState) -> list[str]:
    me = s.current
    if not s.supply[me]:  # R30: no mammoth left in the supply, no luring
        return []
    have = _have(s, me)
    ways = any_food_payments(have) if s.frugal else food_payments("fbm", have)
    return [f"lure.{p.code()}" for p in ways]


def _trade_codes(s: HongaState) -> list[str]:
    me = s.current
    herd = [i for i, owner in enumerate(s.herd) if owner == me]
    out = []
    for slot, card in enumerate(s.slots):
        if card is None:
            continue
        food, k, _ = TRADE_CARDS[card]
        ways = trade_payments(food, k, _have(s, me), s.board[me], herd, swap=s.swap, barter=s.barter > 0)
        out += [f"trade.{slot + 1}.{p.code()}" for p in ways]
    return out


def _field_codes(s: HongaState) -> list[str]:
    """R27: one code per use of a field some hand still points at."""
    out = []
    for fld in FIELDS:
        if not s.left.get(fld):
            continue
        if fld in GATHER or fld == MOUNTAIN:
            out.append(FIELD_CODES[fld])
        elif fld == FOREST and t.can_draw_bonus(s):
            out.append("draw")
        elif fld == MAMMOTHS:
            out += _lure_codes(s)
        elif fld == TRADE:
            out += _trade_codes(s)
        out.append(f"skip.{fld}")
    return out


def _card_codes(s: HongaState) -> list[str]:
    """R36: at most two per turn, from the hand (never pending ones), after step 2."""
    me = s.current
    if len(s.played) >= MAX_CARDS_PER_TURN or s.placed is None:
        return []
    chase_ok = s.honga == me
    fields = list(NEIGHBOURS[s.placed[0]])
    out: list[str] = []
    for kind in sorted(set(s.cards[me])):
        if kind == CHASE:
            out += ["card.chase"] if chase_ok else []
        elif kind == LUCKY:
            out += [f"card.lucky.{f}" for f in fields]
        elif kind == LUCKY_OR_CHASE:
            out += [f"card.loc.{f}" for f in fields] + (["card.loc.chase"] if chase_ok else [])
        elif kind == CLIMB_OR_CHASE:
            out += ["card.coc.climb"] + (["card.coc.chase"] if chase_ok else [])
        elif kind == BUY_VP:
            out += [f"card.buyvp.{p.code()}" for p in raw_payments(_have(s, me), 1, BUY_VP_MAX)]
        else:
            out.append(f"card.{kind}")
    return out


def legal(s: HongaState, seat: Seat) -> list[str]:
    if s.phase == "over" or seat != s.current:
        return []
    if s.phase == "place":
        return [f"place.{sp}.{r}" for sp in SPACES for r in range(ROTATIONS)]
    if s.phase == "keep":
        return ["keep.0", "keep.1"]
    convert = [f"convert.{f}" for f in FOOD] if s.res[seat][3] >= WATER_PER_FOOD else []
    return _field_codes(s) + _card_codes(s) + convert + ["end"]


# ---- applying ------------------------------------------------------------------------------------------


def _apply(s: HongaState, kind: str, args: tuple[Any, ...], ev: list[Event]) -> None:
    if kind == "place":
        t.place(s, args[0], args[1], ev)
    elif kind in GATHER_CODES:
        t.use_hand(s, GATHER_CODES[kind])
        t.do_gather(s, GATHER_CODES[kind], ev)
    elif kind == "draw":
        t.use_hand(s, FOREST)
        t.draw_bonus(s, ev)
    elif kind == "climb":
        t.use_hand(s, MOUNTAIN)
        t.climb(s, 1, ev)
    elif kind == "lure":
        t.use_hand(s, MAMMOTHS)
        t.lure(s, args[0], ev)
    elif kind == "trade":
        t.use_hand(s, TRADE)
        t.trade(s, args[0], args[1], ev)
    elif kind == "skip":
        t.use_hand(s, args[0])
        ev.append(Event("declined", {"seat": s.current, "field": args[0]}))
    elif kind == "convert":
        t.convert(s, args[0], ev)
    elif kind == "card":
        t.play_card(s, args[0], args[1], args[2], ev)
    elif kind == "end":
        t.end_turn(s, ev)
    else:
        t.keep_disk(s, args[0], ev)


def _setup_options(n: int, options: dict[str, Any]) -> tuple[int, int]:
    target = options.get("target", TARGETS[0])
    cap = options.get("track_cap", CAPS[0])
    if not 2 <= n <= 5 or target not in TARGETS or cap not in CAPS:
        raise IllegalAction("bad setup", n=n, target=target, track_cap=cap)
    return (TARGET[n] if target == "standard" else SHORT_TARGET), (TRACK_CAP if cap == "9" else t.NO_CAP)


class HongaRules(Rules[HongaState]):
    name = "honga"
    min_players = 2
    max_players = 5
    options = (Choice("target", TARGETS), Choice("track_cap", CAPS))

    def setup(self, n_players: int, seed: int, options: dict[str, Any]) -> HongaState:
        target, cap = _setup_options(n_players, options)
        rng = Rng(seed)
        piles = {GREY: list(DISK_IDS[GREY]), RED: list(DISK_IDS[RED])}
        for pile in piles.values():
            rng.shuffle(pile)  # R17
        trade_pile = list(TRADE_CARDS)
        rng.shuffle(trade_pile)  # R18
        bonus_pile = list(BONUS_DECK)
        rng.shuffle(bonus_pile)  # R19
        start = rng.below(n_players)  # R22 / A18
        n = n_players
        s = HongaState(n, 0, start, target, cap, HERD_CAPACITY[n], start)
        s.piles, s.trade_pile, s.bonus_pile = piles, trade_pile, bonus_pile
        s.slots = [trade_pile.pop() for _ in range(TRADE_SLOTS)]
        s.stacks = {sp: [] for sp in SPACES}
        s.res = [list(START_RESOURCES) for _ in range(n)]  # R20
        s.board, s.supply = [0] * n, [MAMMOTHS_PER_PLAYER] * n
        s.steps, s.scores = [0] * n, [0] * n
        s.cards, s.pending = [[] for _ in range(n)], [[] for _ in range(n)]
        s.disk = [None] * n
        for k in range(n):  # R22: starting with the start player, each draws a grey disk
            seat = (start + k) % n
            s.disk[seat] = piles[GREY].pop()
        s.rng = rng.state
        t.begin_turn(s, [])
        return s

    def to_move(self, s: HongaState) -> frozenset[Seat]:
        return frozenset() if s.phase == "over" else frozenset({s.current})

    def legal_actions(self, s: HongaState, seat: Seat) -> list[str]:
        return legal(s, seat)

    def apply(self, s: HongaState, seat: Seat, action: str) -> tuple[HongaState, list[Event]]:
        kind, args = parse_action(action)
        if s.phase == "over":
            raise MatchOver(action)
        if seat != s.current:
            raise NotYourTurn(action, seat=seat)
        if action not in legal(s, seat):
            raise IllegalAction(action)
        new, ev = clone(s), []
        _apply(new, kind, args, ev)
        return new, ev

    def timers(self, s: HongaState) -> list[Timer]:
        """One turn limit per decision of the seat to move (the match's ``turn_seconds``)."""
        return [] if s.phase == "over" else [Timer("turn", seat=s.current, per_move=True)]

    def outcome(self, s: HongaState) -> Outcome | None:
        if s.phase != "over":
            return None
        winners, _ = t.result(s)
        return Outcome(list(s.scores), winners, "win" if len(winners) == 1 else "draw")

    def view(self, s: HongaState, seat: Seat | None) -> dict[str, Any]:
        return view(s, seat)

    def dump(self, s: HongaState) -> dict[str, Any]:
        # the clone's fields as they are: it holds fresh containers already, and dataclasses.asdict
        # deep-copied them all again (~150 deepcopy calls a move, the rules' largest cost per click)
        t = clone(s)
        return {f.name: getattr(t, f.name) for f in _FIELDS}

    def load(self, d: dict[str, Any]) -> HongaState:
        s = clone(HongaState(**d))
        s.stacks = {k: [list(x) for x in v] for k, v in s.stacks.items()}
        return s


_FIELDS = dataclasses.fields(HongaState)
RULES = HongaRules()
__all__ = ["RULES", "HongaRules", "HongaState", "Pay", "legal", "parse_action"]
