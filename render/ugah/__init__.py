"""Ugah Ugah!'s board: ``style`` (geometry, colours), ``sprites`` (painters), ``assets`` (their
caches), ``board`` (lays a view out), ``samples`` (the README images)."""

from render.ugah.board import EN_LABELS, H, W, render_ugah

__all__ = ["EN_LABELS", "H", "W", "render_ugah"]
