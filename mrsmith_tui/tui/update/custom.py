"""Custom /commands on screen: the set the shell found, their lines in /help, their names in completion,
and a typed `/name args` turned into the prompt it sends (core/custom_commands.py). A built-in name never
reaches here: the registry is asked first.
"""

from __future__ import annotations

from mrsmith_tui.core.custom_commands import expand
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import REGISTRY
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.blocks import flash, set_state
from mrsmith_tui.tui.update.effects import Effects, Handler

WARNINGS_SHOWN = 4  # a toast names this many files, then says how many more


def custom_prompt(model: Model, text: str) -> str | None:
    """The prompt a typed `/name args` sends when `/name` is a custom command, else None."""
    name, _, arg = text.partition(" ")
    command = model.custom.find(name) if REGISTRY.find(name) is None else None  # a built-in always wins
    return expand(command, arg) if command is not None else None


def custom_names(model: Model) -> tuple[str, ...]:
    return tuple(n for n in model.custom.names() if REGISTRY.find(n) is None)


def start_run(model: Model, text: str) -> fx.StartRun:
    """What sends `text` (a prompt, or a queued custom command): a custom command's text goes literally."""
    expanded = custom_prompt(model, text) if text.startswith("/") else None
    return fx.StartRun(expanded, literal=True) if expanded is not None else fx.StartRun(text)


def help_section(model: Model) -> str:
    commands, warnings = model.custom.commands, model.custom.warnings
    text = ""
    if commands:
        width = max(len(c.name) for c in commands)
        lines = [f"{c.name.ljust(width)}  {c.help_line()}" for c in commands]
        text += "\n\nCustom commands (text for the model; nothing in them runs)\n" + "\n".join(lines)
    if warnings:
        text += "\n\nCommand files not used\n" + "\n".join(warnings)
    return text


def _loaded(model: Model, msg: ui.CustomCommandsLoaded) -> tuple[Model, Effects]:
    model = replace(model, custom=msg.found)
    warnings = msg.found.warnings
    if not warnings:
        return model, ()
    more = len(warnings) - WARNINGS_SHOWN
    text = "custom commands: " + "\n".join(warnings[:WARNINGS_SHOWN]) + (f"\n…and {more} more (/help)" if more > 0 else "")
    # A toast, not a block: the welcome stays on the empty conversation.
    return model, (fx.Notify(text),)


def _send(model: Model, msg: ui.SendPrompt) -> tuple[Model, Effects]:
    """/init's prompt: a turn like a typed one (the command waited for the run to end), sent literally."""
    if model.run.running:
        return flash(model, "a run is going: try again when it ends", msg.at), ()
    model = replace(model, run=replace(model.run, running=True, cancelling=False),
                    conv=replace(model.conv, follow=True, unseen=False))
    return set_state(model, "thinking", msg.at), (fx.StartRun(msg.text, literal=True),)


HANDLERS: dict[type, Handler] = {ui.CustomCommandsLoaded: _loaded, ui.SendPrompt: _send}
