"""A headless prompt that starts with a /command (`mrsmith -p '/review src'`).

A custom command (core/custom_commands.py) is expanded and its text sent literally: nothing in it runs
or is read (no `!command`, no `@path`). A built-in command of the full-screen UI is one line (exit 2);
any other `/word` is not a command and goes to the model as typed (`-p '/etc/hosts: what is it?'`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mrsmith_tui.cli.args import UsageError


@dataclass(frozen=True)
class HeadlessPrompt:
    text: str
    literal: bool = False  # a custom command's text: sent as it is


def headless_prompt(prompt: str, root: Path) -> HeadlessPrompt:
    if not prompt.startswith("/"):
        return HeadlessPrompt(prompt)
    name, _, arg = prompt.partition(" ")
    if "\n" in name:  # as on screen: a first word spanning lines is no command
        return HeadlessPrompt(prompt)
    from mrsmith_tui.core.command_files import load_commands
    from mrsmith_tui.core.custom_commands import expand
    from mrsmith_tui.tui.commands import REGISTRY  # the names only: no Textual is loaded

    builtin = frozenset(n for c in REGISTRY for n in (c.name, *c.aliases))
    if name in builtin:
        raise UsageError(f"{name} is a command of the full-screen UI; a headless run takes custom commands "
                         "(mrsmith -p '/name args')")
    found = load_commands(root, builtin=builtin)
    command = found.find(name)
    if command is not None:
        return HeadlessPrompt(expand(command, arg), literal=True)
    broken = found.broken_line(name)
    if broken is not None:
        raise UsageError(f"{name} is not usable: {broken}")
    return HeadlessPrompt(prompt)

