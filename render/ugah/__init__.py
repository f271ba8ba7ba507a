"""Ugah Ugah!'s board: ``style`` (geometry, colours), ``sprites`` (painters), ``assets`` (their
caches), ``board`` (lays a view out), ``labels`` (its words in English), ``samples`` (the README
images)."""

from __future__ import annotations

from render.renderer import Renderer
from render.ugah import samples
from render.ugah.board import EN_LABELS, H, W, render_ugah

RENDERER = Renderer("ugah", EN_LABELS, render_ugah, samples.images, samples.localized)

__all__ = ["EN_LABELS", "RENDERER", "H", "W", "render_ugah"]
