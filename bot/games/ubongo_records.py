"""Ubongo's personal records on Discord (kept by the engine: engine.records; shown from the match's
meta): the record to beat while a solo run goes, then the run's time and whether it set a new one."""

from __future__ import annotations

from bot.games.base import Ctx
from bot.i18n import Translator


def _clock(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}:{secs:02d}"


def _record_text(tr: Translator, mode: str, value: float) -> str:
    if mode == "time":
        return tr("ubongo.record.time", n=int(value))
    return tr("ubongo.record.tasks", time=_clock(value))


def record_lines(ctx: Ctx) -> list[str]:
    """The solo player's record from the match's meta (read as the run started, updated as it
    finished): the record to beat while it runs, then the run's time and whether it set a new one."""
    rec, tr = ctx.m.meta.record, ctx.tr
    if rec is None or ctx.state is None or ctx.view()["mode"] == "race":
        return []
    best, mode = rec.best, ctx.view()["mode"]
    if ctx.view()["phase"] != "over":
        return [tr("ubongo.record.yours", record=_record_text(tr, mode, best)) if best is not None
                else tr("ubongo.record.none")]  # fmt: skip
    value = rec.value
    lines = [tr("ubongo.record.run", time=_clock(value))] if mode == "tasks" and value is not None else []
    if value is not None and rec.new and rec.previous is not None:
        previous = _record_text(tr, mode, rec.previous)
        lines.append(tr("ubongo.record.new", record=_record_text(tr, mode, value), previous=previous))
    elif value is not None and rec.new:
        lines.append(tr("ubongo.record.first", record=_record_text(tr, mode, value)))
    elif best is not None:
        lines.append(tr("ubongo.record.kept", record=_record_text(tr, mode, best)))
    return lines
