"""The permission mode: Shift-Tab cycles ask → accept-edits → plan (→ auto, only when the session started in
it); the session's PermissionModeChanged is what the badge shows. The gate holds the mode; the model mirrors it."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import MODE_BADGE, MODE_WORDS, NOTE_SECONDS, Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.blocks import flash
from mrsmith_tui.tui.update.effects import Effects, Handler

CYCLE = ("ask", "accept-edits", "plan")  # tools.permission_mode.CYCLE (update imports no I/O module)


def next_mode(mode: str, with_auto: bool) -> str:
    order = CYCLE + (("auto",) if with_auto else ())
    return order[(order.index(mode) + 1) % len(order)] if mode in order else order[0]


def mode_line(mode: str) -> str:
    return f"permission mode: {MODE_BADGE.get(mode, mode)} · {MODE_WORDS.get(mode, '')} · Shift-Tab: next"


def _cycle(model: Model, msg: ui.CycleMode) -> tuple[Model, Effects]:
    if model.pending.armed:  # a request's modal has the keyboard: no mode changes under it
        return model, ()
    mode = next_mode(model.ledger.mode, model.ledger.mode_auto)
    model = replace(model, ledger=replace(model.ledger, mode=mode))
    return flash(model, mode_line(mode), msg.at), (fx.SetPermissionMode(mode), fx.WakeAt(msg.at + NOTE_SECONDS))


def _changed(model: Model, msg: m.PermissionModeChanged) -> tuple[Model, Effects]:
    if msg.mode == model.ledger.mode or msg.mode not in MODE_BADGE:
        return model, ()
    return replace(model, ledger=replace(model.ledger, mode=msg.mode)), ()


HANDLERS: dict[type, Handler] = {ui.CycleMode: _cycle, m.PermissionModeChanged: _changed}
