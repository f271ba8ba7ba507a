"""What a surface shows, reduced to a fingerprint: two boards with the same text, controls and image
inputs look the same to a player, so the second is neither drawn nor sent. And the public board's
content, which the board, its answers and a thread's first message share."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from bot import messages
from bot.messages import Board, image_key
from bot.render_pool import start_drawing
from bot.surfaces.addresses import Addresses
from engine.store import MatchRow

__all__ = ["Draft", "Shown", "draft", "fingerprint", "image_key", "prepare_board", "public_board"]


@dataclass
class Shown:
    """What a surface shows as far as this process knows: the match version it was built from and
    its fingerprint."""

    version: int
    fingerprint: bytes
    image: str = ""  # its image's inputs (image_key): an unchanged image is neither drawn nor sent


@dataclass(frozen=True)
class Draft:
    """A surface's new content that differs from what it shows: its fingerprint, its image's key, and
    whether the image must be drawn and sent (else the message keeps the one it has)."""

    fingerprint: bytes
    image_key: str
    new_image: bool


def draft(shown: Shown | None, version: int, board: Board) -> Draft | None:
    """None when ``board`` is what the surface shows already, or older than it."""
    fp = fingerprint(board)
    if shown is not None and (shown.version > version or shown.fingerprint == fp):
        return None
    key = board.image_key
    return Draft(fp, key, shown is None or shown.image != key)


def _components(view: Any) -> Any:
    return view.to_components() if view is not None else None


def fingerprint(board: Board) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    h.update(board.content.encode())
    h.update(json.dumps(_components(board.view), sort_keys=True, default=str).encode())
    h.update(board.image_key.encode())
    h.update(f"{board.filename}|{board.alt}".encode())
    return h.digest()


async def public_board(addresses: Addresses, m: MatchRow, state: Any, display: str = "") -> Board:
    """The public message of a committed match: its lobby, a lobby that closed, or the game."""
    tr = messages.tr_for(m)
    if m.status == "lobby":
        return messages.lobby(m, tr)
    if state is None:
        return messages.closed_lobby(m, tr)
    return messages.game(m, state, display, closed=await addresses.closed_dms(m))


def prepare_board(m: MatchRow, state: Any) -> None:
    """Start drawing the board's new picture now: a move made on a panel shows on the board too, and
    its reconciler, coming after the panel's answer, finds the picture under way."""
    if state is not None and m.status != "lobby":
        start_drawing(messages.game_picture(m, state))
