"""Keys and the screen: cancel, interrupt, quit, moving between blocks, fold, copy, scroll, resize,
the sidebar and the review, and the clock's tick.
"""

from __future__ import annotations

from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import NOTE_SECONDS, Block, Model, counted, sidebar_visible
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.agents import on_shown_conv
from mrsmith_tui.tui.update.blocks import block_index, count_text, flash, note_block, set_block
from mrsmith_tui.tui.update.effects import Effects, Handler
from mrsmith_tui.tui.update.input import remember
from mrsmith_tui.tui.update.requests import drop_requests, of_the_run

QUIT_WINDOW = 2.0  # a second Ctrl-C within this quits


def _cancel_key(model: Model, msg: ui.CancelKey) -> tuple[Model, Effects]:
    if model.screen.review:
        return replace(model, screen=replace(model.screen, review=False)), ()
    if model.run.running:
        return cancel_run(model, msg.at)
    if model.conv.focused is not None:
        return replace(model, conv=replace(model.conv, focused=None, follow=True, unseen=False)), ()
    return model, ()


def cancel_run(model: Model, at: float) -> tuple[Model, Effects]:
    if model.run.cancelling:
        return model, ()
    queued = model.run.queued
    model = replace(model, run=replace(model.run, cancelling=True, queued=()))
    model, refused = drop_requests(model, lambda r: not of_the_run(model, r), at)
    if queued:
        model = _put_back(model, queued, at)
    return flash(model, "cancelling…", at), (fx.CancelRun(),) + refused


def _put_back(model: Model, queued: tuple[str, ...], at: float) -> Model:
    """Prompts queued behind a cancelled run are not sent: they go back into the prompt (before any
    text typed since), and a notice says so."""
    draft = "\n\n".join(queued + ((model.input.draft,) if model.input.draft.strip() else ()))
    model = replace(model, input=replace(model.input, draft=draft, recall=None, completions=()))
    what = counted(len(queued), "queued prompt")
    return note_block(model, "notice", f"{what} not sent: put back in the prompt (Enter sends)", at)


def _interrupt(model: Model, msg: ui.InterruptKey) -> tuple[Model, Effects]:
    if not model.run.running and model.input.draft.strip():
        return _clear_draft(model, msg.at)
    armed = model.screen.quit_armed_at
    if armed is not None and msg.at - armed <= QUIT_WINDOW:
        return model, (fx.Exit(),)
    screen = replace(model.screen, quit_armed_at=msg.at, note="Ctrl-C again to quit", note_at=msg.at)
    model = replace(model, screen=screen)
    if model.run.running:
        model, effects = cancel_run(model, msg.at)
        model = flash(model, "cancelling · Ctrl-C again to quit", msg.at)
        return model, effects + (fx.WakeAt(msg.at + NOTE_SECONDS),)
    return model, (fx.WakeAt(msg.at + NOTE_SECONDS),)


def _clear_draft(model: Model, at: float) -> tuple[Model, Effects]:
    """Ctrl-C in a draft clears it, as in a shell (and Claude Code, Codex), and never quits: the text goes
    to this session's history first, so Up brings it back, but not to the history file (a draft cleared is
    one the person chose not to send: a key pasted by mistake is not kept on disk). Ctrl-C on the empty
    prompt then arms the quit."""
    inp, _ = remember(model.input, model.input.draft)
    inp = replace(inp, draft="", recall=None, completions=(), chosen=None, search=None)
    screen = replace(model.screen, quit_armed_at=None, note="draft cleared · Up brings it back", note_at=at)
    return replace(model, input=inp, screen=screen), (fx.WakeAt(at + NOTE_SECONDS),)


def _quit(model: Model, msg: ui.QuitKey) -> tuple[Model, Effects]:
    """Ctrl-D as in readline: end of input on an empty prompt; in a draft it is never lost to a quit."""
    if not (msg.typed or model.input.draft):
        return model, (fx.Exit(),)
    if msg.after_cursor:
        return model, (fx.DeleteRight(),)
    model = flash(model, "Ctrl-D quits on an empty prompt · Ctrl-C twice quits", msg.at)
    return model, (fx.WakeAt(msg.at + NOTE_SECONDS),)


def _focus_move(model: Model, msg: ui.FocusMove) -> tuple[Model, Effects]:
    conv = model.conv
    if msg.step == 0 or not conv.blocks:
        if conv.focused is None:
            return model, ()
        return replace(model, conv=replace(conv, focused=None, follow=True, unseen=False)), ()
    keys = [b.key for b in conv.blocks]
    i = max(0, min(len(keys) - 1, keys.index(conv.focused) + msg.step)) if conv.focused in keys else len(keys) - 1
    follow = conv.follow and i == len(keys) - 1
    return replace(model, conv=replace(conv, focused=keys[i], follow=follow)), ()


def _focus_block(model: Model, msg: ui.FocusBlock) -> tuple[Model, Effects]:
    if model.conv.focused == msg.key:
        return model, ()
    return replace(model, conv=replace(model.conv, focused=msg.key)), ()


def _toggle_fold(model: Model, msg: ui.ToggleFold) -> tuple[Model, Effects]:
    i = block_index(model, msg.key)
    if i is None:
        return model, ()
    b = model.conv.blocks[i]
    model = set_block(model, i, replace(b, folded=not b.folded))
    return replace(model, conv=replace(model.conv, focused=b.key, unseen=model.conv.unseen and not model.conv.follow)), ()


def copy_source(block: Block) -> tuple[str, str]:
    """The raw text a block stands for and what to call it in the note."""
    if block.kind == "tool":
        if block.name == "shell":
            return (block.summary or block.arguments), "command"
        if block.diff:
            return block.diff, "diff"
        return block.text, f"{block.name} output"
    return block.text, {"user": "prompt", "text": "answer", "reasoning": "reasoning"}.get(block.kind, block.kind)


def _copy_block(model: Model, msg: ui.CopyBlock) -> tuple[Model, Effects]:
    i = block_index(model, msg.key)
    if i is None:
        return flash(model, "focus a block first (Alt-Up)", msg.at), ()
    text, what = copy_source(model.conv.blocks[i])
    return flash(model, f"copied the {what} ({count_text(text)})", msg.at), (fx.Copy(text, what),)


def _scrolled(model: Model, msg: ui.Scrolled) -> tuple[Model, Effects]:
    conv = model.conv
    unseen = conv.unseen and not msg.at_bottom
    if conv.follow == msg.at_bottom and conv.unseen == unseen:
        return model, ()
    return replace(model, conv=replace(conv, follow=msg.at_bottom, unseen=unseen)), ()


def _jump_to_end(model: Model, msg: ui.JumpToEnd) -> tuple[Model, Effects]:
    conv = model.conv
    if conv.follow and not conv.unseen and conv.focused is None:
        return model, ()
    return replace(model, conv=replace(conv, follow=True, unseen=False, focused=None)), ()


def _resized(model: Model, msg: ui.Resized) -> tuple[Model, Effects]:
    if (model.screen.width, model.screen.height) == (msg.width, msg.height):
        return model, ()
    return replace(model, screen=replace(model.screen, width=msg.width, height=msg.height)), ()


def _toggle_sidebar(model: Model, msg: ui.ToggleSidebar) -> tuple[Model, Effects]:
    return replace(model, sidebar=replace(model.sidebar, wanted=not sidebar_visible(model))), ()


def _toggle_review(model: Model, msg: ui.ToggleReview) -> tuple[Model, Effects]:
    want = (not model.screen.review) if msg.open is None else msg.open
    if want == model.screen.review:
        return model, ()
    return replace(model, screen=replace(model.screen, review=want)), ()


def _tick(model: Model, msg: ui.Tick) -> tuple[Model, Effects]:
    effects: Effects = ()
    screen = model.screen
    if screen.note and msg.at - screen.note_at >= NOTE_SECONDS:
        model = replace(model, screen=replace(screen, note=""))
    if screen.quit_armed_at is not None and msg.at - screen.quit_armed_at > QUIT_WINDOW:
        model = replace(model, screen=replace(model.screen, quit_armed_at=None))
    return model, effects


HANDLERS: dict[type, Handler] = {
    ui.CancelKey: _cancel_key,
    ui.InterruptKey: _interrupt,
    ui.QuitKey: _quit,
    ui.FocusMove: on_shown_conv(_focus_move),
    ui.FocusBlock: on_shown_conv(_focus_block),
    ui.ToggleFold: on_shown_conv(_toggle_fold),
    ui.CopyBlock: on_shown_conv(_copy_block),
    ui.Scrolled: on_shown_conv(_scrolled),
    ui.JumpToEnd: on_shown_conv(_jump_to_end),
    ui.Resized: _resized,
    ui.ToggleSidebar: _toggle_sidebar,
    ui.ToggleReview: _toggle_review,
    ui.Tick: _tick,
}
