"""A /command typed in the prompt: the ones the screen answers at once (/help, /tasks, /copy, /exit,
/agents), and the checks before the shell carries out the rest against the session. The commands
themselves (names, help, flags, completion) are the registry's (tui/commands).
"""

from __future__ import annotations

from collections.abc import Callable

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui.commands import REGISTRY
from mrsmith_tui.tui.model import TASK_GLYPH, Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.agents import agents_command
from mrsmith_tui.tui.update.blocks import count_text, flash, note_block, set_state
from mrsmith_tui.tui.update.custom import help_section
from mrsmith_tui.tui.update.effects import Effects

# Every key of docs/ui.md's table and the README's Keys section (a test holds them to it).
KEYS_HELP = (
    ("Enter", "send (queued while a run goes)"),
    ("Ctrl-J", "new line (also Shift/Alt-Enter)"),
    ("Up/Down", "past prompts"),
    ("Ctrl-R", "search past prompts as you type (again: older)"),
    ("Ctrl-G", "edit the prompt in $VISUAL/$EDITOR"),
    ("Tab", "complete a /command or @path; with none: answer a waiting request"),
    ("Shift-Tab", "next permission mode: ask → accept edits → plan"),
    ("@path", "attach a file (@dir/ a listing)"),
    ("!command", "first character: run it here; the model reads its output next"),
    ("F2", "answer a waiting request"),
    ("Esc", "cancel the run"),
    ("Ctrl-C", "cancel the run (twice: quit)"),
    ("Ctrl-D", "quit on an empty prompt (else delete the character under the cursor)"),
    ("Ctrl-T", "on the welcome: resume this folder's last session"),
    ("Ctrl-O", "review everything (/ find)"),
    ("Ctrl-B", "sidebar"),
    ("Ctrl-P", "palette"),
    ("PageUp/PageDown", "scroll"),
    ("End", "jump to new output below"),
    ("F1", "help"),
    ("Alt-Up/Alt-Down", "move between blocks: Enter fold, c copy, Esc back"),
)


def help_text() -> str:
    width = max(len(key) for key, _ in KEYS_HELP)
    return REGISTRY.help_text() + "\n\nKeys\n" + "\n".join(f"{key.ljust(width)}  {does}" for key, does in KEYS_HELP)


def tasks_text(tasks: tuple[m.Todo, ...]) -> str:
    if not tasks:
        return "no tasks yet (the model fills the list with todowrite)"
    return "Tasks\n" + "\n".join(f"{TASK_GLYPH.get(t.status, '○')} {t.content}"
                                 + ("" if t.priority == "medium" else f"  ({t.priority})") for t in tasks)


def _exit(model: Model, arg: str, at: float) -> tuple[Model, Effects]:
    return model, (fx.Exit(),)


def startup_section(model: Model) -> str:
    warnings = model.startup_warnings
    return "\n\nStart-up warnings\n" + "\n".join(f"⚠ {w}" for w in warnings) if warnings else ""


def _help(model: Model, arg: str, at: float) -> tuple[Model, Effects]:
    model = note_block(model, "notice", help_text() + help_section(model) + startup_section(model), at)
    # Read from its first line: followed, a screen shorter than the help showed only its last rows (the keys
    # table), the command list above them (new-user try-out). The next prompt follows the end again.
    return replace(model, conv=replace(model.conv, follow=False, unseen=False, top=model.conv.blocks[-1].key)), ()


def _tasks(model: Model, arg: str, at: float) -> tuple[Model, Effects]:
    return note_block(model, "notice", tasks_text(model.sidebar.tasks), at), ()


def _copy(model: Model, arg: str, at: float) -> tuple[Model, Effects]:
    answer = next((b for b in reversed(model.conv.blocks) if b.kind == "text"), None)
    if answer is None:
        return flash(model, "nothing to copy yet", at), ()
    return flash(model, f"copied the last answer ({count_text(answer.text)})", at), (fx.Copy(answer.text, "answer"),)


# What the screen answers at once, from the model (/agents also asks the shell for its list).
AT_ONCE: dict[str, Callable[[Model, str, float], tuple[Model, Effects]]] = {
    "/exit": _exit, "/help": _help, "/tasks": _tasks, "/copy": _copy, "/agents": agents_command,
}


def slash_command(model: Model, text: str, at: float) -> tuple[Model, Effects]:
    name, _, arg = text.partition(" ")
    arg = arg.strip()
    command = REGISTRY.find(name)
    if command is None:
        broken = model.custom.broken_line(name)  # a custom command whose file cannot be used
        if broken is not None:
            return note_block(model, "warning", f"{name} is not usable: {broken}", at), ()
        close = REGISTRY.close_to(name)
        hint = f" · did you mean {close}?" if close else " · /help lists the commands"
        return note_block(model, "warning", f"unknown command {name}{hint}", at), ()
    name = command.name  # an alias stands for its command
    at_once = AT_ONCE.get(name)
    if at_once is not None:
        return at_once(model, arg, at)
    if command.needs_argument and not arg:
        known = command.argument_choices(model)
        return note_block(model, "warning", f"{name} needs a name: {', '.join(known) or '(none)'}", at), ()
    if command.waits_for_run and model.run.running:
        return note_block(model, "warning", f"{name} waits for the run to end (Esc cancels it)", at), ()
    if command.in_worker:  # run in the worker like a turn (a reset stops agents' threads)
        model = set_state(replace(model, run=replace(model.run, running=True, cancelling=False)), "thinking", at)
    return model, (fx.Command(name, arg),)
