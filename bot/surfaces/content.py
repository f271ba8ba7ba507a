"""What a surface shows, reduced to a fingerprint: two boards with the same text, controls and image
inputs look the same to a player, so the second is neither drawn nor sent. Short and the same in
every process, so it is stored with the surface's address and a restarted bot knows it too. And the
public board's content, which the board, its answers and a thread's first message share."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from bot import messages
from bot.messages import Board, image_key
from bot.render_pool import start_drawing
from bot.surfaces.addresses import Addresses
from engine.store import MatchRow

__all__ = [
    "Draft", "Shown", "draft", "fingerprint", "image_id", "image_key", "picture_id", "prepare_board",
    "public_board", "shown",
]  # fmt: skip

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")  # an object's default repr: where it lives in this process


@dataclass
class Shown:
    """What a surface shows as far as this process knows: the match version it was built from and
    its fingerprint."""

    version: int
    fingerprint: bytes
    image: str = ""  # its image's inputs (image_id): an unchanged image is neither drawn nor sent
    # the attachment itself (picture_id: its bytes, name and description), "" while not known: a
    # picture drawn from other inputs that comes out the same is not sent again
    picture: str = ""

    def encode(self) -> str:
        """As stored with the surface's address (engine.store.SurfaceRow.shown)."""
        return f"{self.version}:{self.fingerprint.hex()}:{self.image}:{self.picture}"

    @staticmethod
    def decode(text: str | None) -> Shown | None:
        """What ``encode`` stored (or, before pictures were named, its first three parts); None for
        nothing, or anything else."""
        try:
            version, fp, image, *picture = (text or "").split(":", 3)
            return Shown(int(version), bytes.fromhex(fp), image, picture[0] if picture else "")
        except ValueError:
            return None


def shown(version: int, board: Board, picture: str | None = None) -> Shown:
    """What a surface shows once ``board`` (built from the commit ``version``) is on it; its picture
    as drawn (``picture``: the one the message keeps, when its image was not sent)."""
    return Shown(
        version, fingerprint(board), image_id(board), picture_id(board) if picture is None else picture
    )


def image_id(board: Board) -> str:
    """A short digest of the inputs of the board's image, the same in every process: an object
    without a repr of its own (a game's UI) is named by its type, not where it lives."""
    return "-" if board.draw is None else _digest(board.image_key)


def picture_id(board: Board) -> str:
    """A short digest of the attachment the board puts on its message (its PNG's bytes, file name and
    description): "-" for a board without an image, "" while its image is not drawn. Equal digests
    are the same attachment, whatever inputs drew it."""
    if board.draw is None:
        return "-"
    if board.png is None:
        return ""
    h = hashlib.blake2b(board.png, digest_size=16)
    h.update(f"\0{board.filename}\0{board.alt}".encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=1024)  # (a key's hash is kept by the string: a repeat costs a look-up)
def _digest(key: str) -> str:
    return hashlib.blake2b(_ADDRESS.sub("", key).encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Draft:
    """A surface's new content that differs from what it shows: its fingerprint, its image's digest,
    and whether the image must be drawn and sent (else the message keeps the one it has)."""

    fingerprint: bytes
    image: str
    new_image: bool


def draft(shown: Shown | None, version: int, board: Board) -> Draft | None:
    """None when ``board`` is what the surface shows already, or older than it."""
    fp = fingerprint(board)
    if shown is not None and (shown.version > version or shown.fingerprint == fp):
        return None
    key = image_id(board)
    return Draft(fp, key, shown is None or shown.image != key)


def _components(view: Any) -> Any:
    return view.to_components() if view is not None else None


def fingerprint(board: Board, image: str | None = None) -> bytes:
    """The board's text, controls and image inputs (``image``: as if its image_id were that)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(board.content.encode())
    h.update(json.dumps(_components(board.view), sort_keys=True, default=str).encode())
    h.update((image_id(board) if image is None else image).encode())
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
