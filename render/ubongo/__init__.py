"""Ubongo images: a player's workspace (``render_task``, sent by DM) and the public table
(``render_table``, the channel message). Both draw from engine views only and take every word from
a labels dict (English defaults in ``EN_LABELS``)."""

from __future__ import annotations

from render.renderer import Renderer
from render.ubongo import samples
from render.ubongo.style import EN_LABELS, PIECE_RGB
from render.ubongo.table import render_table
from render.ubongo.workspace import render_task

RENDERER = Renderer("ubongo", EN_LABELS, render_table, samples.images, samples.localized, private=render_task)

__all__ = ["EN_LABELS", "PIECE_RGB", "RENDERER", "render_table", "render_task"]
