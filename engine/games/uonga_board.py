"""Uonga board rules as pure functions on the 25-character board (rules: docs/rules/uonga.md R7-R32):
neighbours, herds, captures and moves. The rules, the AI and the view use the same code."""

from __future__ import annotations

from typing import Any

from engine.games.uonga_data import (
    CAVEMEN,
    EMPTY,
    HUNTER,
    KING_RAYS,
    MASTODON,
    NEIGH4,
    NEIGH8,
    ROOK_RAYS,
    SQUARES,
    YOUNGLING,
)

Move = tuple[int, int]  # (from, to) square indices


# ---- board geometry and rules as pure functions (the AI and the renderer use the same code) -----


def put(board: str, i: int, piece: str) -> str:
    return board[:i] + piece + board[i + 1 :]


def cav_count(board: str, m: int) -> int:
    """R10: Cavemen adjacent (8 directions) to the square ``m``."""
    return sum(1 for j in NEIGH8[m] if board[j] in CAVEMEN)


def group_of(board: str, m: int) -> list[int]:
    """R9/A1: the orthogonally connected Mastodons holding ``m`` (sorted; length 1 = lone)."""
    seen, todo = {m}, [m]
    while todo:
        i = todo.pop()
        for j in NEIGH4[i]:
            if board[j] == MASTODON and j not in seen:
                seen.add(j)
                todo.append(j)
    return sorted(seen)


def herds(board: str) -> list[list[int]]:
    """Every herd (2+ Mastodons, R9) on the board, each sorted, in board order."""
    out, done = [], set()
    for i, p in enumerate(board):
        if p == MASTODON and i not in done:
            g = group_of(board, i)
            done.update(g)
            if len(g) > 1:
                out.append(g)
    return out


def captures_after(board: str, mover: int) -> tuple[list[int], list[list[int]]]:
    """R27-R31 on the position right after a Caveman reached ``mover``: (sure captures, tied herds).

    Only Mastodons next to the mover can be threatened (R27). A lone one falls with 3+ Cavemen (R28);
    a herd is attacked when a member next to the mover has 4+ (R29/A2) and then loses its member with
    the most Cavemen; a tie is a choice (R30). Each group loses at most one (R31); nothing is removed
    here, so every count uses the same position (no chain, R32).

    SEED OVER SPEC (A3): the spec compares every herd member, so a member far from the mover could
    fall. The seed says a Caveman captures a Mastodon "only if the Mastodon is adjacent to the Caveman
    that just moved"; following the seed's intent, only the herd members next to the mover are
    compared (test_R29_seed_over_spec_A3_only_members_next_to_the_mover_can_fall).
    """
    sure: list[int] = []
    ties: list[list[int]] = []
    done: set[int] = set()
    near = NEIGH8[mover]
    for m in near:
        if board[m] != MASTODON or m in done:
            continue
        group = group_of(board, m)
        done.update(group)
        if len(group) == 1:
            if cav_count(board, m) >= 3:
                sure.append(m)
            continue
        counts = {g: cav_count(board, g) for g in group if g in near}  # seed: next to the mover only
        best = max(counts.values())
        if best < 4:
            continue
        top = sorted(g for g, n in counts.items() if n == best)
        if len(top) == 1:
            sure.append(top[0])
        else:
            ties.append(top)
    return sorted(sure), ties


def piece_moves(board: str, i: int) -> list[int]:
    """Destinations of the piece on ``i`` (R20-R23)."""
    piece = board[i]
    out: list[int] = []
    if piece == MASTODON:  # R23: rook move, may end on a Caveman, never on a Mastodon
        for ray in ROOK_RAYS[i]:
            for j in ray:
                if board[j] == EMPTY:
                    out.append(j)
                    continue
                if board[j] != MASTODON:
                    out.append(j)
                break
    elif piece in CAVEMEN:  # R20/R21/R22: empty destinations, a Hunter's middle square empty too
        reach = 2 if piece == HUNTER else 1
        for ray in KING_RAYS[i]:
            for j in ray[:reach]:
                if board[j] != EMPTY:
                    break
                out.append(j)
    return out


def side_moves(board: str, side: str) -> list[Move]:
    """Every (from, to) move of ``side`` ("C" or "M") in board order."""
    mine = (MASTODON,) if side == "M" else (HUNTER, YOUNGLING)
    return [(i, j) for i, p in enumerate(board) if p in mine for j in piece_moves(board, i)]


def can_move(board: str, side: str) -> bool:
    mine = (MASTODON,) if side == "M" else (HUNTER, YOUNGLING)
    return any(piece_moves(board, i) for i, p in enumerate(board) if p in mine)


def surround(board: str) -> dict[str, dict[str, Any]]:
    """For every Mastodon: Cavemen around it, whether it is in a herd and how many more would capture
    it (3 for a lone Mastodon, R28; 4 for a herd member, R29)."""
    out = {}
    for i, p in enumerate(board):
        if p != MASTODON:
            continue
        in_herd = any(board[j] == MASTODON for j in NEIGH4[i])
        cav = cav_count(board, i)
        out[SQUARES[i]] = {"cav": cav, "herd": in_herd, "need": max(0, (4 if in_herd else 3) - cav)}
    return out
