"""`update(model, msg)`: the handler for the Msg's type, then the steps every Msg shares (a waiting request
may take the keyboard; the model's clock moves to `msg.at`). The table is filled by the package.
"""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.update.effects import Effects, Handler
from mrsmith_tui.tui.update.requests import try_arm

ROUTES: dict[type, Handler] = {}  # Msg type -> its handler (see __init__: one table per concern)


def update(model: Model, msg: m.Msg) -> tuple[Model, Effects]:
    handler = ROUTES.get(type(msg))
    if handler is None:
        return model, ()
    model, effects = handler(model, msg)
    if model.pending.head is not None and not model.pending.armed:
        model = try_arm(model, msg.at)
    if model.now < msg.at:
        model = replace(model, now=msg.at)
    return model, effects
