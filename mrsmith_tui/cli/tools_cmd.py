"""`mrsmith tools list [--json]`, `mrsmith tools run NAME [JSON]`, `mrsmith tools try FILE [JSON]`.

    list   every built-in tool and every drop-in tool (user, project), with its origin and file; the MCP
           servers' tools are `mrsmith mcp list`'s. A project tool shows only when trusted in this folder
           (or with --trust-project-tools); a broken file is one warning line on stderr.
    run    calls one drop-in tool as the model would (same file checks, same child process, timeout and
           bounds), with the arguments as a JSON object (default {}): you typed it, so it does not ask.
           Prints the result; exit 0, 1 when the tool failed, 2 for a usage mistake.
    try    the same for a tool file not loaded yet (one being written: the `self` skill's try_tool.py
           calls this): `contract ok: NAME`, then the result; a file that is no tool is one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from mrsmith_tui.cli.args import UsageError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mrsmith tools", description="drop-in tools of ~/.config/mrsmith/tools and ./.mrsmith/tools")
    sub = p.add_subparsers(dest="command", metavar="list | run | try")
    listing = sub.add_parser("list", help="every tool with its origin")
    listing.add_argument("--json", action="store_true", help="one JSON object per tool")
    run = sub.add_parser("run", help="call one drop-in tool: mrsmith tools run NAME '{\"text\": \"hi\"}'")
    run.add_argument("name", metavar="NAME")
    run.add_argument("arguments", metavar="JSON", nargs="?", default="{}", help="the arguments object (default {})")
    trying = sub.add_parser("try", help="check and call a tool file not loaded yet: mrsmith tools try FILE [JSON]")
    trying.add_argument("file", metavar="FILE", type=Path)
    trying.add_argument("arguments", metavar="JSON", nargs="?", default="{}", help="the arguments object (default {})")
    trying.add_argument("--timeout", metavar="SECONDS", type=float, help="default: dropInToolTimeout")
    trying.add_argument("--config", metavar="PATH", type=Path, help="config file (for dropInToolTimeout)")
    for each in (listing, run):
        each.add_argument("--trust-project-tools", action="store_true", help="load this folder's .mrsmith/tools for this run")
        each.add_argument("--config", metavar="PATH", type=Path, help="config file (for dropInToolTimeout)")
    return p


def _builtin_names() -> list[tuple[str, str]]:
    from mrsmith_tui.agents import tools as agent_tools
    from mrsmith_tui.config.schema import AgentConfig
    from mrsmith_tui.tools.builtin import builtin_tools

    agent = AgentConfig(name="default", provider="openai", model="-")
    found = [(t.name, t.description) for t in builtin_tools(agent)]
    for cls in (agent_tools.SkillTool, agent_tools.TaskTool, agent_tools.SpawnAgentTool, agent_tools.WaitAgentsTool,
                agent_tools.StopAgentTool, agent_tools.ListAgentsTool):
        found.append((cls.name, cls.description))
    return found


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    if args.command not in ("list", "run", "try"):
        raise UsageError("mrsmith tools: say `mrsmith tools list`, `mrsmith tools run NAME [JSON]` or `mrsmith tools try FILE [JSON]`")
    from mrsmith_tui.config.load import load_config
    from mrsmith_tui.paths import config_dir
    from mrsmith_tui.security.environment import scrub_process_environment
    from mrsmith_tui.security.redact import PROCESS
    from mrsmith_tui.security.terminal_text import clean
    from mrsmith_tui.tools.dropin.service import DropInTools
    from mrsmith_tui.tools.dropin.tool import DropInTool, RunSettings

    scrub_process_environment()
    config = load_config(args.config)
    if args.command == "try":
        from mrsmith_tui.cli.tools_try import try_file

        return try_file(args.file, args.arguments, timeout=args.timeout or config.drop_in_tool_timeout)
    builtins = _builtin_names()

    def said(m: object) -> None:
        text = getattr(m, "text", "")
        if text and type(m).__name__ == "Warning":
            print(f"mrsmith: warning: {clean(PROCESS.redact(text))}", file=sys.stderr)

    service = DropInTools(root=Path.cwd(), user_dir=config_dir() / "tools", mode="yes" if args.trust_project_tools else "stored",
                          approver=None, emit=said, settings=RunSettings(timeout=config.drop_in_tool_timeout),
                          reserved=lambda: [name for name, _ in builtins])
    tools = [t for t in service.current_tools() if isinstance(t, DropInTool)]
    if args.command == "list":
        rows = [(name, "built-in", "", description) for name, description in builtins]
        rows += [(t.name, t.origin, t.shown_path, t.description) for t in tools]
        for name, origin, path, description in rows:
            if args.json:
                print(json.dumps({"name": name, "origin": origin, "path": path, "description": description}))
            else:
                first = description.strip().splitlines()[0][:80] if description.strip() else ""
                print(clean(f"{name:<14} {origin:<8} {path + '  ' if path else ''}{first}"))
        return 0
    return _run(args, tools)


def _run(args: argparse.Namespace, tools: Sequence[object]) -> int:
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.core.argcheck import check_arguments, parse_arguments
    from mrsmith_tui.security.redact import PROCESS
    from mrsmith_tui.tools.base import ToolContext
    from mrsmith_tui.tools.dropin.tool import DropInTool

    tool = next((t for t in tools if isinstance(t, DropInTool) and t.name == args.name), None)
    if tool is None:
        known = ", ".join(t.name for t in tools if isinstance(t, DropInTool)) or "none"
        raise UsageError(f"no drop-in tool {args.name!r} here (the drop-in tools: {known})")
    values, problem = parse_arguments(args.arguments)
    if values is None:
        raise UsageError(f"tools run {tool.name}: {problem}")
    problem = check_arguments(values, tool.parameters)
    if problem:
        raise UsageError(f"tools run {tool.name}: {problem}")
    ctx = ToolContext(root=Path.cwd(), cancel=CancelToken(), approver=None)  # type: ignore[arg-type]  # it never asks
    result = PROCESS.redact_value(tool.run(values, ctx))
    print(result.content, file=sys.stdout if result.ok else sys.stderr)
    return 0 if result.ok else 1
