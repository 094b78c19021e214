"""The slash commands: a registry of small command objects, one module per family.

    registry.py     SlashCommand, CommandContext (what a command may touch), CommandRegistry, run_command
    session.py      /help /exit /reset /compact /sessions
    agents.py       /agents /agent /skills /tasks /reasoning
    model.py        /model
    usage.py        /usage
    jobs.py         /jobs
    theme.py        /theme
    export.py       /copy /export
    permissions.py  /permissions
    mcp.py          /mcp
    tools.py        /tools
    files.py        /undo

/help, completion and the command palette all read REGISTRY. A new family is one module with a
`COMMANDS` tuple, and its name in FAMILIES.
"""

from __future__ import annotations

import threading
from importlib import import_module
from typing import Any

from mrsmith_tui.tui.commands.registry import CommandContext, CommandRegistry, SlashCommand, run_command

FAMILIES = ("session", "agents", "model", "usage", "jobs", "theme", "export", "permissions", "mcp", "tools",
            "files")


class _FamiliesRegistry(CommandRegistry):
    """The families' modules are imported on the registry's first use (a typed `/`, /help, the palette,
    the custom commands' check), not before the first frame (start-up time, #26); from any thread."""

    _lock = threading.Lock()

    def __init__(self) -> None:  # filled by `_load`
        pass

    def __getattr__(self, name: str) -> Any:  # only for what is not there yet: the commands
        if name not in ("_commands", "_by_name"):
            raise AttributeError(name)
        with self._lock:
            if "_commands" not in self.__dict__:
                built = CommandRegistry(c for family in FAMILIES for c in import_module(f"{__name__}.{family}").COMMANDS)
                self._by_name = built._by_name  # whole before `_commands` says it is there
                self._commands = built._commands
        return self.__dict__[name]


REGISTRY: CommandRegistry = _FamiliesRegistry()

__all__ = ["FAMILIES", "REGISTRY", "CommandContext", "CommandRegistry", "SlashCommand", "run_command"]
