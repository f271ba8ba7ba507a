"""Uonga's board image: ``board`` (lays a view out), ``style`` (geometry, colours), ``sprites``
(painters and their caches), ``samples`` (the README images)."""

from __future__ import annotations

from render.renderer import Renderer
from render.uonga import samples
from render.uonga.board import EN_LABELS, H, W, render_uonga

RENDERER = Renderer("uonga", EN_LABELS, render_uonga, samples.images, samples.localized)

__all__ = ["EN_LABELS", "RENDERER", "H", "W", "render_uonga"]
