"""The session's MCP servers, when a config names any (the composition's part of MCP).

`load_mcp` reads the two config files (cheap: no SDK, no thread) and returns None when neither
names a server, so a session without MCP config pays nothing. `start_mcp` runs after the session
is announced: the servers start in the background (the hub's thread); headless waits for them to
settle for at most HEADLESS_START_GRACE seconds, or MRSMITH_MCP_START_GRACE (for servers known to
start slowly: a first `npx` download, a loaded machine; never a server's whole startup timeout by
default: one that never answers must not hold the run), then a server still starting is left out of the first request
with a note and its tools join a later request once it is ready. The TUI does not wait at all (even
the start is a thread's): tools of servers still starting are simply not offered yet.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui import msgs
from mrsmith_tui.core.session_api import Sink
from mrsmith_tui.tools.base import Approver

if TYPE_CHECKING:
    from mrsmith_tui.mcp.service import McpServers
    from mrsmith_tui.mcp.trust import TrustMode

__all__ = ["HEADLESS_START_GRACE", "load_mcp", "start_grace", "start_mcp"]

HEADLESS_START_GRACE = 5.0
MAX_START_GRACE = 600.0
GRACE_VAR = "MRSMITH_MCP_START_GRACE"


def start_grace(environ: Mapping[str, str] = os.environ) -> tuple[float, str]:
    """(how long headless waits for its servers to start, the line saying what was wrong with the variable or "")."""
    raw = environ.get(GRACE_VAR, "").strip()
    if not raw:
        return HEADLESS_START_GRACE, ""
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 <= value <= MAX_START_GRACE:  # NaN too
        return HEADLESS_START_GRACE, (f"{GRACE_VAR}={raw[:40]!r} is not a number of seconds from 0 to "
                                      f"{MAX_START_GRACE:g}: waiting {HEADLESS_START_GRACE:g} s")
    return value, ""


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
    grace, problem = start_grace()
    if problem:
        sink(msgs.Warning(text=problem, code="mcp"))
    if servers.wait_settled(grace):
        return
    late = servers.hub.starting()
    if late:
        sink(msgs.Warning(text=f"mcp server{'s' if len(late) > 1 else ''} {', '.join(late)} still starting: "
                               "left out of this request (its tools join a later one when it is ready)", code="mcp"))
