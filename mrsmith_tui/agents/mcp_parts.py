"""The session's MCP servers, when a config names any (the composition's part of MCP).

`load_mcp` reads the two config files (cheap: no SDK, no thread) and returns None when neither
names a server, so a session without MCP config pays nothing. `start_mcp` runs after the session
is announced: the servers start in the background (the hub's thread); headless waits for them to
settle for at most HEADLESS_START_GRACE seconds (never a server's whole startup timeout: one that
never answers must not hold the run), then a server still starting is left out of the first request
with a note and its tools join a later request once it is ready. The TUI does not wait at all (even
the start is a thread's): tools of servers still starting are simply not offered yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui import msgs
from mrsmith_tui.core.session_api import Sink
from mrsmith_tui.tools.base import Approver

if TYPE_CHECKING:
    from mrsmith_tui.mcp.service import McpServers
    from mrsmith_tui.mcp.trust import TrustMode

__all__ = ["HEADLESS_START_GRACE", "load_mcp", "start_mcp"]

HEADLESS_START_GRACE = 5.0


def load_mcp(cwd: Path, sink: Sink, approver: Approver, mode: TrustMode, warn: list[str]) -> McpServers | None:
    from mrsmith_tui.mcp.config import load_specs

    specs, warnings = load_specs(cwd)
    warn.extend(warnings)
    if not specs:
        return None
    from mrsmith_tui.mcp.service import McpServers

    return McpServers(specs, root=cwd, emit=sink, mode=mode, approver=approver)


def start_mcp(servers: McpServers | None, sink: Sink, warnings: list[str], *, wait: bool) -> None:
    for text in warnings:
        sink(msgs.Warning(text=f"mcp config: {text}", code="mcp"))
    if servers is None:
        return
    if not wait:  # the TUI: reading the trust store and starting the hub's thread happen off the caller's thread
        import threading

        threading.Thread(target=servers.start, name="mrsmith-mcp-start", daemon=True).start()
        return
    servers.start()
    if servers.wait_settled(HEADLESS_START_GRACE):
        return
    late = servers.hub.starting()
    if late:
        sink(msgs.Warning(text=f"mcp server{'s' if len(late) > 1 else ''} {', '.join(late)} still starting: "
                               "left out of this request (its tools join a later one when it is ready)", code="mcp"))
