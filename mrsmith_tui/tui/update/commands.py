"""A /command typed in the prompt: the ones the screen answers at once (/help, /tasks, /copy, /exit,
/agents), and the checks before the shell carries out the rest against the session.
"""

from __future__ import annotations

import difflib
from dataclasses import replace

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.model import TASK_GLYPH, Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.agents import agents_command
from mrsmith_tui.tui.update.blocks import count_text, flash, note_block, set_state
from mrsmith_tui.tui.update.effects import Effects

COMMANDS: dict[str, str] = {
    "/help": "this list",
    "/exit": "quit",
    "/reset": "start a fresh conversation",
    "/usage": "tokens, cache and cost of this session",
    "/agents": "[ID | stop ID]  the agents; focus the panel, open one, or stop one",
    "/agent": "<name> [--keep]  a new session on another agent (--keep: go on with this conversation)",
    "/skills": "[name]  list skills, or load one",
    "/tasks": "the task list",
    "/jobs": "background shell jobs (stopped when mrsmith exits unless detached)",
    "/reasoning": "[value|off]  reasoning effort",
    "/theme": "<name>  switch theme",
    "/copy": "copy the last answer",
    "/export": "[path]  the session as Markdown",
    "/compact": "summarise older turns to free context",
    "/sessions": "this folder's sessions: pick one to resume",
    "/permissions": "[revoke SPEC|N|all]  what runs without asking, and where it came from",
}


KEYS_HELP = (
    "Enter send · Ctrl-J newline · Up/Down history · Tab complete · Tab or F2: answer a waiting request · "
    "Esc cancel run · Ctrl-C cancel (twice: quit) · Ctrl-D quit · Ctrl-O review · Ctrl-B sidebar · Ctrl-P palette · "
    "Alt-Up/Down or Shift-Tab: move between blocks, Enter fold, c copy"
)


def help_text() -> str:
    width = max(len(c) for c in COMMANDS)
    lines = [f"{c.ljust(width)}  {d}" for c, d in COMMANDS.items()]
    return "Commands\n" + "\n".join(lines) + "\n\nKeys\n" + KEYS_HELP.replace(" · ", "\n")


def tasks_text(tasks: tuple[m.Todo, ...]) -> str:
    if not tasks:
        return "no tasks yet (the model fills the list with todowrite)"
    return "Tasks\n" + "\n".join(f"{TASK_GLYPH.get(t.status, '○')} {t.content}"
                                 + ("" if t.priority == "medium" else f"  ({t.priority})") for t in tasks)


def slash_command(model: Model, text: str, at: float) -> tuple[Model, Effects]:
    name, _, arg = text.partition(" ")
    arg = arg.strip()
    if name == "/exit":
        return model, (fx.Exit(),)
    if name == "/help":
        return note_block(model, "notice", help_text(), at), ()
    if name == "/tasks":
        return note_block(model, "notice", tasks_text(model.sidebar.tasks), at), ()
    if name == "/copy":
        answer = next((b for b in reversed(model.conv.blocks) if b.kind == "text"), None)
        if answer is None:
            return flash(model, "nothing to copy yet", at), ()
        return flash(model, f"copied the last answer ({count_text(answer.text)})", at), (fx.Copy(answer.text, "answer"),)
    if name == "/agents":
        return agents_command(model, arg, at)
    if name in ("/agent", "/theme") and not arg:
        known = model.agents_known if name == "/agent" else model.themes_known
        return note_block(model, "warning", f"{name} needs a name: {', '.join(known) or '(none)'}", at), ()
    if name in COMMANDS:
        if name in ("/reset", "/agent", "/compact", "/sessions") and model.run.running:
            return note_block(model, "warning", f"{name} waits for the run to end (Esc cancels it)", at), ()
        if name in ("/compact", "/reset"):  # run in the worker like a turn (a reset stops agents' threads)
            model = set_state(replace(model, run=replace(model.run, running=True, cancelling=False)), "thinking")
        return model, (fx.Command(name, arg),)
    close = difflib.get_close_matches(name, list(COMMANDS), n=1)
    hint = f" · did you mean {close[0]}?" if close else " · /help lists the commands"
    return note_block(model, "warning", f"unknown command {name}{hint}", at), ()
