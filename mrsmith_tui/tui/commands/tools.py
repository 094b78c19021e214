"""/tools: every tool the agent has, with its origin; /tools reload picks up new and changed drop-in tools.

    /tools          name, origin (built-in, MCP server NAME, user, project) and the description's first line
    /tools reload   read ~/.config/mrsmith/tools and .mrsmith/tools again (an untrusted project file asks)

Both run in a worker: listing the drop-in tools may read their folders and ask to trust a project file.
"""

from __future__ import annotations

from typing import Any

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tui.commands.registry import CommandContext, CommandError, SlashCommand, session_of

MAX_ROWS = 200
DESCRIPTION_WIDTH = 70


class ToolsCommand(SlashCommand[str]):
    name = "/tools"
    usage = "[reload]"
    summary = "every tool with its origin (built-in, MCP, user, project); reload: pick up new drop-in tools"
    rank = 76
    waits_for_run = True
    in_worker = True

    def parse(self, arg: str) -> str:
        word = arg.strip()
        if word not in ("", "reload"):
            raise CommandError(f"unknown /tools {word.split()[0]}: say /tools or /tools reload")
        return word

    def argument_choices(self, model: Any) -> tuple[str, ...]:
        return ("reload",)

    def run(self, ctx: CommandContext, args: str) -> None:
        service = session_of(ctx).services.tools
        if service is None:
            raise CommandError("this session has no tool listing")

        def job(_: CancelToken) -> str:
            head = service.reload() + "\n" if args == "reload" else ""
            rows = list(service.listing())
            width = max((len(name) for name, _, _ in rows[:MAX_ROWS]), default=4)
            lines = [f"{head}Tools · {len(rows)} · /tools reload picks up new drop-in tools"]
            for name, origin, description in rows[:MAX_ROWS]:
                first = description.strip().splitlines()[0] if description.strip() else ""
                first = first if len(first) <= DESCRIPTION_WIDTH else first[: DESCRIPTION_WIDTH - 1] + "…"
                lines.append(f"{name.ljust(width)}  {origin:<10}  {first}")
            if len(rows) > MAX_ROWS:
                lines.append(f"… and {len(rows) - MAX_ROWS} more")
            return "\n".join(lines)

        ctx.run_in_worker(job)


COMMANDS: tuple[SlashCommand[Any], ...] = (ToolsCommand(),)
