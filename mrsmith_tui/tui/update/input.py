"""The prompt: typing, completion, history recall, sending (a prompt, a queued prompt or a /command).
"""

from __future__ import annotations

from mrsmith_tui.core.prompt_syntax import command_word, mention_being_typed
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import REGISTRY
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.blocks import flash, set_state
from mrsmith_tui.tui.update.commands import slash_command
from mrsmith_tui.tui.update.custom import custom_names, custom_prompt, start_run
from mrsmith_tui.tui.update.effects import Effects, Handler
from mrsmith_tui.tui.update.prompt_extras import index_wanted, mention_completions, with_mention


def completions(model: Model, draft: str) -> tuple[str, ...]:
    if not draft.startswith("/") and (typing := mention_being_typed(draft)) is not None:
        return mention_completions(model.input.files, typing[1])
    if not draft.startswith("/") or "\n" in draft:
        return ()
    if " " not in draft:
        names = (*REGISTRY.names(), *custom_names(model))
        return tuple(c for c in names if c.startswith(draft) and c != draft)
    name, _, arg = draft.partition(" ")
    command = REGISTRY.find(name)
    return command.complete(model, arg) if command is not None else ()


def _draft(model: Model, msg: ui.DraftChanged) -> tuple[Model, Effects]:
    inp = model.input
    if msg.text == inp.draft:
        return model, ()
    recall = inp.recall
    if recall is not None and msg.text != inp.history[recall]:
        recall = None
    inp = replace(inp, draft=msg.text, recall=recall, completions=completions(model, msg.text), chosen=None,
                  typed="")
    return index_wanted(replace(model, input=inp), msg.text, msg.at)


def _history_move(model: Model, msg: ui.HistoryMove) -> tuple[Model, Effects]:
    inp = model.input
    if not inp.history:
        return model, ()
    if inp.recall is None:
        if msg.step > 0:
            return model, ()
        inp = replace(inp, stash=inp.draft, recall=len(inp.history) - 1)
    else:
        nxt = inp.recall + msg.step
        if nxt >= len(inp.history):
            inp = replace(inp, recall=None, draft=inp.stash, completions=(), chosen=None)
            return replace(model, input=inp), ()
        inp = replace(inp, recall=max(0, nxt))
    recalled = inp.history[inp.recall if inp.recall is not None else -1]
    return replace(model, input=replace(inp, draft=recalled, completions=(), chosen=None)), ()


def _with_choice(model: Model, typed: str, choice: str) -> str:
    """The draft `typed` becomes when completed with `choice`: the mention replaced, or the command
    with a blank after it when an argument comes next."""
    if (mentioned := with_mention(typed, choice)) is not None:
        return mentioned
    command = REGISTRY.find(choice)
    custom = model.custom.find(choice)
    takes = command.usage if command is not None else custom.argument_hint if custom is not None else ""
    return choice + " " if takes else choice


def _complete(model: Model, msg: ui.AcceptCompletion) -> tuple[Model, Effects]:
    """Tab: the first choice offered for what was typed; Tab again (nothing typed since) the next, round
    and round. A single choice is taken at once, and what it offers in turn (a folder's names) is next."""
    inp = model.input
    if not inp.completions:
        return model, ()
    cycling = inp.chosen is not None and inp.draft == _with_choice(model, inp.typed, inp.completions[inp.chosen])
    typed = inp.typed if cycling else inp.draft
    chosen = (inp.chosen or 0) + 1 if cycling else 0
    chosen %= len(inp.completions)
    draft = _with_choice(model, typed, inp.completions[chosen])
    if len(inp.completions) == 1:
        inp = replace(inp, draft=draft, completions=completions(model, draft), chosen=None, typed="")
    else:
        inp = replace(inp, draft=draft, chosen=chosen, typed=typed)
    return replace(model, input=inp), ()


def remember(inp: ui.InputState, text: str) -> tuple[ui.InputState, Effects]:
    if inp.history and inp.history[-1] == text:
        return inp, ()
    return replace(inp, history=(inp.history + (text,))[-ui.HISTORY_CAP:]), (fx.SaveHistory(text),)


def _submit(model: Model, msg: ui.Submit) -> tuple[Model, Effects]:
    text = msg.text.strip()
    if not text:
        return model, ()
    if text.startswith("!") and not msg.text.startswith("!"):
        text = msg.text.rstrip()  # ` !ls` is a sentence: only a `!` typed first runs a command (core.prompt_syntax)
    inp, saved = remember(model.input, text)
    inp = replace(inp, draft="", recall=None, stash="", completions=(), chosen=None)
    model = replace(model, input=inp, conv=replace(model.conv, follow=True, unseen=False))
    if model.pending.held:  # the prompt is sent: the request it held back may take the keyboard
        model = replace(model, pending=replace(model.pending, held=False))
    if command_word(text) is not None and custom_prompt(model, text) is None:  # `/etc/hosts: why?` is text
        model, effects = slash_command(model, text, msg.at)
        return model, saved + effects
    if model.run.running:
        if len(model.run.queued) >= ui.QUEUE_CAP:
            return flash(model, f"queue full ({ui.QUEUE_CAP}); wait for the run", msg.at), saved
        model = replace(model, run=replace(model.run, queued=model.run.queued + (text,)))
        return flash(model, f"queued · sent when the run ends ({len(model.run.queued)} waiting)", msg.at), saved
    model = replace(model, run=replace(model.run, running=True, cancelling=False))
    return set_state(model, "thinking", msg.at), saved + (start_run(model, text),)


def _typed_away(model: Model, msg: ui.TypedIntoPrompt) -> tuple[Model, Effects]:
    """A key typed into a modal went to the prompt (now `msg.text`): the request waits behind it."""
    inp = replace(model.input, draft=msg.text, recall=None, completions=completions(model, msg.text), chosen=None)
    model = replace(model, input=inp)
    if model.pending.head is not None:
        model = replace(model, pending=replace(model.pending, armed=False, held=True, keys_from=None,
                                               confirm_always=False))
    return model, ()  # update() puts the waiting notice up (once per request)


HANDLERS: dict[type, Handler] = {
    ui.Submit: _submit,
    ui.DraftChanged: _draft,
    ui.HistoryMove: _history_move,
    ui.AcceptCompletion: _complete,
    ui.TypedIntoPrompt: _typed_away,
}
