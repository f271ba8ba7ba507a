"""Honga's board image: ``board`` (lays a view out), ``style`` (geometry, colours), ``sprites``
(painters and their caches), ``samples`` (the README images)."""

from __future__ import annotations

from render.honga import samples
from render.honga.board import EN_LABELS, render_honga
from render.renderer import Renderer

RENDERER = Renderer("honga", EN_LABELS, render_honga, samples.images, samples.localized)

__all__ = ["EN_LABELS", "RENDERER", "render_honga"]
