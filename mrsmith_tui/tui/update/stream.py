"""A run's stream of core Msgs: its start, the reasoning and text deltas, usage, warnings and errors,
its end, and the worker's return. (Resume replays the same Msgs through these handlers.)
"""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import Model, duration, short_count
from mrsmith_tui.tui.update.blocks import (
    OPEN_SCAN,
    add_block,
    close_open_blocks,
    find_open,
    note_block,
    set_block,
    set_state,
    warning,
)
from mrsmith_tui.tui.update.custom import start_run
from mrsmith_tui.tui.update.effects import Effects, Handler


def _session_started(model: Model, msg: m.SessionStarted) -> tuple[Model, Effects]:
    return replace(model, ledger=replace(model.ledger, agent=msg.agent or model.ledger.agent,
                                         model=msg.model or model.ledger.model)), ()


def _user_prompt(model: Model, msg: m.UserPrompt) -> tuple[Model, Effects]:
    return note_block(model, "user", msg.text, msg.at), ()


def _run_started(model: Model, msg: m.RunStarted) -> tuple[Model, Effects]:
    ledger = replace(model.ledger, state="thinking", state_since=msg.at, run_started=msg.at, turn_in=0, turn_out=0, turn_cached=0, turn_cache_known=False,
                     agent=msg.agent or model.ledger.agent, model=msg.model or model.ledger.model)
    return replace(model, ledger=ledger), ()


def _delta(kind: ui.BlockKind, state: ui.RunState) -> Handler:
    def handle(model: Model, msg: m.TextDelta | m.ReasoningDelta) -> tuple[Model, Effects]:
        i = find_open(model.conv.blocks, kind, msg.block_id)
        if i is None:
            model = add_block(model, kind, msg.at, text=msg.text, source_id=msg.block_id)
        else:
            b = model.conv.blocks[i]
            model = set_block(model, i, replace(b, text=b.text + msg.text))
        return set_state(model, state, msg.at), ()
    return handle


def _block_ended(model: Model, msg: m.BlockEnded) -> tuple[Model, Effects]:
    i = find_open(model.conv.blocks, msg.kind, msg.block_id)
    if i is None:
        if not msg.text:
            return model, ()
        model = add_block(model, msg.kind, msg.at, text=msg.text, source_id=msg.block_id)
        i = len(model.conv.blocks) - 1
    b = model.conv.blocks[i]
    done = replace(b, text=msg.text or b.text, done=True, ended=msg.at, folded=(b.kind == "reasoning"))
    return set_block(model, i, done), ()


def _answer_recorded(model: Model, msg: m.AnswerRecorded) -> tuple[Model, Effects]:
    """A whole answer. Live, its blocks streamed already (deltas, BlockEnded): nothing to do. Replayed
    (session.replay), none did: its reasoning and text are drawn as the blocks they streamed as."""
    parts: tuple[tuple[ui.BlockKind, str, str], ...] = (
        ("reasoning", msg.reasoning_block, msg.entry.reasoning), ("text", msg.text_block, msg.entry.text))
    for kind, block_id, text in parts:
        if block_id and text and not _has_block(model.conv.blocks, kind, block_id):
            model = add_block(model, kind, msg.started or msg.at, text=text, source_id=block_id, done=True,
                              ended=msg.at, folded=kind == "reasoning")
    return model, ()


def _has_block(blocks: tuple[ui.Block, ...], kind: str, source_id: str) -> bool:
    return any(b.kind == kind and b.source_id == source_id for b in blocks[-OPEN_SCAN:])


def _usage(model: Model, msg: m.UsageReported) -> tuple[Model, Effects]:
    u, led = msg.usage, model.ledger
    tokens_in, cached = led.tokens_in + u.prompt_tokens, led.cached_in + u.cached_tokens
    led = replace(
        led,
        tokens_in=tokens_in, tokens_out=led.tokens_out + u.completion_tokens, cached_in=cached,
        context_tokens=msg.context_tokens or led.context_tokens,
        context_limit=msg.context_limit or led.context_limit,
        turn_in=led.turn_in + u.prompt_tokens, turn_out=led.turn_out + u.completion_tokens,
        turn_cached=led.turn_cached + u.cached_tokens,
        cache_known=led.cache_known or u.cache_reported,
        turn_cache_known=led.turn_cache_known or u.cache_reported,
    )
    return replace(model, ledger=led), ()


def _budget(model: Model, msg: m.ToolBudget) -> tuple[Model, Effects]:
    return replace(model, ledger=replace(model.ledger, tool_used=msg.used, tool_limit=msg.limit)), ()


def _warning(model: Model, msg: m.Warning) -> tuple[Model, Effects]:
    return warning(model, msg.text, msg.at)


def _error(model: Model, msg: m.Error) -> tuple[Model, Effects]:
    return note_block(model, "error", msg.text, msg.at), ()


def _notice(model: Model, msg: m.Notice) -> tuple[Model, Effects]:
    return note_block(model, "notice", msg.text, msg.at), ()


def _run_ended(model: Model, msg: m.RunEnded) -> tuple[Model, Effects]:
    led = model.ledger
    if led.turn_in or led.turn_out:
        took = msg.at - led.run_started if led.run_started is not None else 0.0
        parts = [f"{short_count(led.turn_in)} in", f"{short_count(led.turn_out)} out"]
        if led.turn_in:
            parts.append(f"cache {round(100 * led.turn_cached / led.turn_in)}%" if led.turn_cache_known else "cache —")
        parts.append(duration(took))
        model = note_block(model, "usage", " · ".join(parts), msg.at)
    model = end_run_blocks(model, msg)
    waiting: ui.RunState = "waiting" if model.pending.queue else "idle"
    return replace(model, ledger=replace(model.ledger, state=waiting, state_since=msg.at, run_started=None)), ()


def end_run_blocks(model: Model, msg: m.RunEnded) -> Model:
    """A run's end in its conversation: its error or "cancelled" as a block, no block left open."""
    if msg.error:
        if not _said_already(model.conv, msg.error):  # the core posts Error, then RunEnded(error)
            model = note_block(model, "error", msg.error, msg.at)
    elif msg.cancelled:
        model = note_block(model, "notice", "cancelled", msg.at)
    return close_open_blocks(model, msg.at)


def _said_already(conv: ui.ChatLog, error: str) -> bool:
    return any(b.kind == "error" and b.text == error for b in conv.blocks[-OPEN_SCAN:])


def _worker_done(model: Model, msg: ui.WorkerDone) -> tuple[Model, Effects]:
    if msg.crashed:
        model = note_block(model, "error", msg.crashed, msg.at)
        model = close_open_blocks(model, msg.at)
    if model.run.cancelling and model.screen.note.startswith("cancelling"):  # it is over: the note goes
        model = replace(model, screen=replace(model.screen, note=""))
    run = replace(model.run, running=False, cancelling=False)
    led = model.ledger if model.ledger.state == "idle" else replace(model.ledger, state="idle", state_since=msg.at, run_started=None)
    model = replace(model, run=run, ledger=led)
    if run.queued:
        first, rest = run.queued[0], run.queued[1:]
        model = replace(model, run=replace(run, running=True, queued=rest))
        return model, (start_run(model, first),)  # a queued custom command is expanded now
    return model, ()


HANDLERS: dict[type, Handler] = {
    m.SessionStarted: _session_started,
    m.UserPrompt: _user_prompt,
    m.RunStarted: _run_started,
    m.ReasoningDelta: _delta("reasoning", "thinking"),
    m.TextDelta: _delta("text", "streaming"),
    m.BlockEnded: _block_ended,
    m.AnswerRecorded: _answer_recorded,
    m.UsageReported: _usage,
    m.ToolBudget: _budget,
    m.Warning: _warning,
    m.Error: _error,
    m.Notice: _notice,
    m.RunEnded: _run_ended,
    ui.WorkerDone: _worker_done,
}
