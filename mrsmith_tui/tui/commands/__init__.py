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

from importlib import import_module

from mrsmith_tui.tui.commands.registry import CommandContext, CommandRegistry, SlashCommand, run_command

FAMILIES = ("session", "agents", "model", "usage", "jobs", "theme", "export", "permissions", "mcp", "tools",
            "files")

REGISTRY = CommandRegistry(command for family in FAMILIES for command in import_module(f"{__name__}.{family}").COMMANDS)

__all__ = ["FAMILIES", "REGISTRY", "CommandContext", "CommandRegistry", "SlashCommand", "run_command"]
