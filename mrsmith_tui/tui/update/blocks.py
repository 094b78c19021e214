"""The small steps every handler takes on the conversation: add a block, find the open one, replace
one, put a note up, set the run's state, flash a passing note.
"""

from __future__ import annotations

from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import Block, Model, counted
from mrsmith_tui.tui.update import effects as fx

OPEN_SCAN = 64  # open blocks are near the end: look this far back
STARTUP_WARNINGS_KEPT = 20  # /help lists this many start-up warnings (a flapping server cannot grow the list)


def add_block(model: Model, kind: ui.BlockKind, at: float, **fields) -> Model:
    conv = model.conv
    block = Block(key=f"b{conv.next_key}", kind=kind, started=at, **fields)
    conv = replace(conv, blocks=conv.blocks + (block,), next_key=conv.next_key + 1,
                   unseen=conv.unseen or not conv.follow)
    return replace(model, conv=conv)


def find_open(blocks: tuple[Block, ...], kind: str, source_id: str) -> int | None:
    for i in range(len(blocks) - 1, max(-1, len(blocks) - 1 - OPEN_SCAN), -1):
        b = blocks[i]
        if b.kind == kind and b.source_id == source_id and not b.done:
            return i
    return None


def set_block(model: Model, index: int, block: Block) -> Model:
    conv = model.conv
    blocks = conv.blocks[:index] + (block,) + conv.blocks[index + 1:]
    return replace(model, conv=replace(conv, blocks=blocks, unseen=conv.unseen or not conv.follow))


def note_block(model: Model, kind: ui.BlockKind, text: str, at: float) -> Model:
    return add_block(model, kind, at, text=text, done=True, ended=at)


def warning(model: Model, text: str, at: float) -> tuple[Model, fx.Effects]:
    """A warning: a block once the conversation has begun; before it (theme, MCP, config at start-up) a
    toast, kept for /help and counted on the welcome, so it neither hides the welcome (nor its Ctrl-T)
    nor is lost when the toast goes."""
    if model.conv.blocks:
        return note_block(model, "warning", text, at), ()
    if text in model.startup_warnings or len(model.startup_warnings) >= STARTUP_WARNINGS_KEPT:
        return model, ()
    kept = model.startup_warnings + (text,)
    welcome = replace(model.welcome, warnings=len(kept)) if model.welcome is not None else None
    return replace(model, startup_warnings=kept, welcome=welcome), (fx.Notify(text),)


def set_state(model: Model, state: ui.RunState, at: float) -> Model:
    if model.ledger.state == state:
        return model
    return replace(model, ledger=replace(model.ledger, state=state, state_since=at))


def flash(model: Model, text: str, at: float) -> Model:
    return replace(model, screen=replace(model.screen, note=text, note_at=at))


def block_index(model: Model, key: str | None) -> int | None:
    key = key or model.conv.focused
    if key is None:
        return None
    blocks = model.conv.blocks
    for i in range(len(blocks) - 1, -1, -1):
        if blocks[i].key == key:
            return i
    return None


def close_open_blocks(model: Model, at: float) -> Model:
    """A cancelled or failed run can leave a block open; close it so nothing spins forever."""
    blocks = model.conv.blocks
    start = max(0, len(blocks) - OPEN_SCAN)
    changed = False
    out = list(blocks[start:])
    for j, b in enumerate(out):
        if not b.done:
            out[j] = replace(b, done=True, ended=at, folded=b.kind in ("reasoning", "tool"),
                             ok=False if b.kind == "tool" else b.ok)
            changed = True
    if not changed:
        return model
    return replace(model, conv=replace(model.conv, blocks=blocks[:start] + tuple(out)))


def count_text(text: str) -> str:
    lines = text.count("\n") + 1
    return f"{counted(lines, 'line')}, {counted(len(text), 'char')}"
