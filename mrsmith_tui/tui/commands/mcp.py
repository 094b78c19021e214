"""The MCP family: /mcp — the servers, their tools, and enable | disable | reconnect | disconnect.

    /mcp                    one line per server with its tools
    /mcp list               name, state, tool count, last error (and a failed server's stderr tail)
    /mcp enable NAME        start it (a project server nobody trusted asks first)
    /mcp disable NAME       stop it; its tools leave the next request (a running call finishes)
    /mcp reconnect NAME     stop it and start it again
    /mcp disconnect NAME    stop it until /mcp reconnect or enable

Each change is at once: the registry reads the servers before every request, so the model stops
seeing a disabled server's tools on its next request; the later of two commands on a server stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mrsmith_tui.tui.commands.registry import CommandContext, CommandError, SlashCommand, session_of
from mrsmith_tui.tui.model import Model
from mrsmith_tui.words import counted

VERBS = ("enable", "disable", "reconnect", "disconnect")
MAX_TOOLS_SHOWN = 12


@dataclass(frozen=True)
class McpArgs:
    verb: str  # "" (overview), "list", or one of VERBS
    name: str = ""


class McpCommand(SlashCommand[McpArgs]):
    name = "/mcp"
    usage = "[list | enable|disable|reconnect|disconnect NAME]"
    summary = "MCP servers: their tools and states; start or stop one"
    rank = 75

    def parse(self, arg: str) -> McpArgs:
        words = arg.split()
        if not words:
            return McpArgs(verb="")
        verb = words[0]
        if verb == "list":
            if len(words) > 1:
                raise CommandError("/mcp list takes no name")
            return McpArgs(verb="list")
        if verb not in VERBS:
            raise CommandError(f"unknown /mcp {verb}: say list, {', '.join(VERBS)}")
        if len(words) != 2:
            raise CommandError(f"/mcp {verb} needs one server name")
        return McpArgs(verb=verb, name=words[1])

    def complete(self, model: Model, arg: str) -> tuple[str, ...]:
        verb, space, rest = arg.partition(" ")
        if space and verb in VERBS:
            return tuple(f"/mcp {verb} {r.name}" for r in model.sidebar.mcp if r.name.startswith(rest) and r.name != rest)
        return tuple(f"/mcp {v}" for v in ("list", *VERBS) if v.startswith(arg) and v != arg)

    def run(self, ctx: CommandContext, args: McpArgs) -> None:
        servers = session_of(ctx).services.mcp
        if servers is None:
            ctx.note("no MCP servers configured (~/.config/mrsmith/mcp.json or ./.mcp.json: {\"mcpServers\": {...}})")
            return
        if args.verb in VERBS:
            ctx.note(servers.apply(args.verb, args.name))
            return
        statuses = servers.statuses()
        if args.verb == "list":
            lines = ["MCP servers · /mcp enable|disable|reconnect|disconnect NAME"]
            for s in statuses:
                lines.append(f"{s.name}  {s.state}  {counted(len(s.tools), 'tool')}  {s.source} · {s.transport}  {s.shown}")
                if s.error:
                    lines.append(f"  last error: {s.error}")
                if s.note:
                    lines.append(f"  {s.note}")
                if s.state == "failed":
                    lines += [f"  stderr: {line}" for line in servers.log_tail(s.name, 3)]
                    if s.log:
                        lines.append(f"  log: {s.log}")
            ctx.note("\n".join(lines))
            return
        lines = ["MCP servers · /mcp list for states and errors"]
        for s in statuses:
            names = [t.removeprefix(f"{s.spec_prefix}__") for t in s.tools]
            shown = ", ".join(names[:MAX_TOOLS_SHOWN]) + (f" and {len(names) - MAX_TOOLS_SHOWN} more" if len(names) > MAX_TOOLS_SHOWN else "")
            tools = shown if s.state == "ready" else f"({s.state}{': ' + s.error if s.error else ''})"
            lines.append(f"{s.name} ({s.spec_prefix}): {tools or 'no tools'}")
        ctx.note("\n".join(lines))


COMMANDS: tuple[SlashCommand[Any], ...] = (McpCommand(),)
