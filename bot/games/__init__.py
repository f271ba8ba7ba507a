"""The Discord face of each game: controls, texts and image for a match. Registry filled explicitly."""

from __future__ import annotations

from bot.games.base import GameUI
from bot.games.honga import HongaUI
from bot.games.ubongo import UbongoUI
from bot.games.ugah import UgahUI
from bot.games.uonga import UongaUI

UIS: dict[str, GameUI] = {ui.game: ui for ui in (UgahUI(), HongaUI(), UongaUI(), UbongoUI())}
