"""A headless prompt that starts with a /command (`mrsmith -p '/review src'`).

A custom command (core/custom_commands.py) is expanded and its text sent literally: nothing in it runs
or is read (no `!command`, no `@path`). `/init` sends the AGENTS.md prompt (core/init_prompt.py; the write
needs --allow write_file or --yes, else one line). `/undo [N]` puts back files (`mrsmith -c -p /undo`: the last
session's turns) without asking the model. Another built-in command of the full-screen UI is one line
(exit 2), and so is a `/name` that is no command (as the UI says `unknown command`). What is a command is
core.prompt_syntax's rule, the UI's too: a first word that is no name goes to the model as typed
(`-p '/etc/hosts: what?'`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mrsmith_tui.cli.args import UsageError
from mrsmith_tui.errors import EXIT_USAGE


@dataclass(frozen=True)
class HeadlessPrompt:
    text: str
    literal: bool = False  # a custom command's text: sent as it is
    undo: int = 0  # `/undo [N]`: put back N turns' files instead of running the model
    init: bool = False  # `/init`: the model writes AGENTS.md (it needs leave to write)


def headless_prompt(prompt: str, root: Path, *, typed: bool = True) -> HeadlessPrompt:
    """`typed`: False for a prompt piped on stdin, text the person did not type: a leading `/word` in it
    is no command (`cat notes.md | mrsmith -c` never runs /undo or a repository's command file)."""
    if not typed:
        return HeadlessPrompt(prompt, literal=True)
    from mrsmith_tui.core.prompt_syntax import command_word

    if command_word(prompt) is None:  # as on screen: `/etc/hosts: what?` is text
        return HeadlessPrompt(prompt)
    name, _, arg = prompt.partition(" ")
    from mrsmith_tui.core.command_files import load_commands
    from mrsmith_tui.core.custom_commands import expand
    from mrsmith_tui.tui.commands import REGISTRY  # the names only: no Textual is loaded

    builtin = frozenset(n for c in REGISTRY for n in (c.name, *c.aliases))
    if name == "/init":
        from mrsmith_tui.core.init_prompt import init_prompt

        return HeadlessPrompt(init_prompt(root), literal=True, init=True)
    if name == "/undo":
        from mrsmith_tui.tools.checkpoints import MAX_TURNS
        from mrsmith_tui.tui.commands.files import undo_steps
        from mrsmith_tui.tui.commands.registry import CommandError

        try:
            return HeadlessPrompt(prompt, undo=undo_steps(arg, MAX_TURNS))
        except CommandError as e:
            raise UsageError(f"/undo: {e.message}") from None
    if name in builtin:
        raise UsageError(f"{name} is a command of the full-screen UI; a headless run takes custom commands "
                         "(mrsmith -p '/name args'), /init and /undo (mrsmith -c -p /undo)")
    found = load_commands(root, builtin=builtin)
    command = found.find(name)
    if command is not None:
        return HeadlessPrompt(expand(command, arg), literal=True)
    broken = found.broken_line(name)
    if broken is not None:
        raise UsageError(f"{name} is not usable: {broken}")
    raise UsageError(unknown_line(name, found.names()))


def unknown_line(name: str, custom: tuple[str, ...]) -> str:
    """A `/name` that is no command, headless: what a run here takes, and the one it most likely meant."""
    from mrsmith_tui.tui.commands.registry import typo_distance

    takes = ("/init", "/undo", *custom)
    best = min(takes, key=lambda n: typo_distance(name, n))
    meant = f"; did you mean {best}?" if typo_distance(name, best) <= (2 if len(name) >= 8 else 1) else ""
    listed = ", ".join(custom[:10]) + (f" and {len(custom) - 10} more" if len(custom) > 10 else "")
    yours = f"custom commands here: {listed}" if custom else "no custom commands here (.mrsmith/commands/*.md)"
    return f"unknown command {name}{meant} · a headless run takes /init, /undo and custom commands; {yours}"



def slash_outcome(slash: HeadlessPrompt, session: Any, *, yes: bool, json_lines: bool) -> int | None:
    """The exit code when the command is carried out without a model run (/undo, /init without leave to
    write); None: run the prompt."""
    if slash.undo:
        return headless_undo(session, slash.undo, json_lines=json_lines)
    if slash.init and not _may_write(session, yes):
        print("mrsmith: /init writes AGENTS.md, which needs leave to write: add --allow write_file (or --yes)",
              file=sys.stderr)
        return EXIT_USAGE
    return None


def _may_write(session: Any, yes: bool) -> bool:
    """Whether writing AGENTS.md would run without a person to ask: --yes (auto mode) or an allow. Plan mode
    refuses every write; accept-edits still asks for AGENTS.md (a file agents take instructions from)."""
    mode = getattr(getattr(session.gate, "mode", None), "current", "ask")
    mode = mode() if callable(mode) else mode
    if mode == "plan":
        return False
    return yes or mode == "auto" or session.gate.allowed_by("write_file", "writes") is not None


def headless_undo(session: Any, steps: int, *, json_lines: bool) -> int:
    """`mrsmith -c -p '/undo [N]'`: the lines on stdout (one JSON object with --json); 1 when a file was refused."""
    from mrsmith_tui.security.redact import PROCESS
    from mrsmith_tui.security.terminal_text import clean
    from mrsmith_tui.tools.undo import undo

    outcome = undo(session.cwd, session.transcript_path, steps)
    lines = [clean(PROCESS.redact(line)) for line in outcome.lines]
    if not outcome.restored and not outcome.refused:
        lines.append("(a new session has no turns: mrsmith -c -p /undo undoes in this folder's last session)")
    if json_lines:
        print(json.dumps({"type": "UndoDone", "lines": lines, "restored": outcome.restored,
                          "refused": outcome.refused}))
    else:
        print("\n".join(lines))
    if outcome.restored:
        session.add_context("The person undid the file changes of the last "
                            f"{'turn' if steps == 1 else f'{steps} turns'} (/undo):\n" + "\n".join(outcome.lines)
                            + "\nRead a file again before you change it.")
    return 1 if outcome.refused else 0
