"""`mrsmith mcp list [--mcp-trust] [--json]`: the configured MCP servers, their states and tools.

Starts each server as a session would (a project server only when trusted in this folder, or with
--mcp-trust), waits until every one is ready or failed (at most its startup timeout), prints, stops
them and exits: 0 when every server that should run is ready, 1 when one failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from mrsmith_tui.cli.args import UsageError
from mrsmith_tui.words import counted

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mrsmith mcp", description="MCP servers of ~/.config/mrsmith/mcp.json and ./.mcp.json")
    sub = p.add_subparsers(dest="command", metavar="list")
    listing = sub.add_parser("list", help="the servers, their states and tools")
    listing.add_argument("--mcp-trust", action="store_true", help="start this folder's .mcp.json servers without asking")
    listing.add_argument("--json", action="store_true", help="one JSON object per server")
    return p


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    if args.command != "list":
        raise UsageError("mrsmith mcp: say `mrsmith mcp list`")
    from mrsmith_tui import msgs
    from mrsmith_tui.mcp.config import load_specs, user_config_path
    from mrsmith_tui.mcp.service import McpServers
    from mrsmith_tui.security.environment import scrub_process_environment
    from mrsmith_tui.security.redact import PROCESS
    from mrsmith_tui.security.terminal_text import clean

    scrub_process_environment()
    root = Path.cwd()
    specs, warnings = load_specs(root)
    for text in warnings:
        print(f"mrsmith: warning: mcp config: {clean(PROCESS.redact(text))}", file=sys.stderr)
    if not specs:
        print(f"no MCP servers configured ({user_config_path()} or ./.mcp.json)")
        return 0

    def said(m: msgs.Msg) -> None:
        if isinstance(m, msgs.Warning) and m.code == "mcp-untrusted":
            print(f"mrsmith: warning: {clean(PROCESS.redact(m.text))}", file=sys.stderr)

    servers = McpServers(specs, root=root, emit=said, mode="yes" if args.mcp_trust else "stored", approver=None)
    try:
        servers.start()
        servers.wait_settled(max(s.startup_timeout for s in specs) + 2.0)
        statuses = servers.statuses()
        for status in statuses:
            tools = [t for t in servers.current_tools() if getattr(t, "server", None) == status.name]
            if args.json:
                print(json.dumps({"name": status.name, "state": status.state, "source": status.source,
                                  "transport": status.transport, "command": PROCESS.redact(status.shown),
                                  "error": PROCESS.redact(status.error), "note": status.note,
                                  "tools": [{"name": t.name, "description": t.description, "read_only": t.read_only}
                                            for t in tools]}))
                continue
            head = f"{status.name}  {status.state}  {status.source} · {status.transport} · {counted(len(status.tools), 'tool')}  {status.shown}"
            print(clean(PROCESS.redact(head)))
            if status.error:
                print(clean(PROCESS.redact(f"  {status.error}")))
            if status.note:
                print(clean(f"  {status.note}"))
            for t in tools:
                print(clean(f"  {t.name}{' (read-only)' if t.read_only else ''}  {t.description[:100]}"))
        failed = any(s.state == "failed" for s in statuses)
        return 1 if failed else 0
    finally:
        servers.close()
