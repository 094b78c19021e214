"""The session's MCP servers as one service: the hub, its trust policy, the /mcp verbs.

Built by the composition (agents.compose) only when a config names a server. `session.services.mcp`
is this object for /mcp and the sidebar; it is also the registry's source of MCP tools, asked
before every request, so a server disabled now is gone from the model's next request.

What running agents see: sub-agents and background agents use the same live tool source as the
person's agent, so a disable takes a server's tools out of their next request too; a call already
running finishes. Calling a tool of a server that is not ready answers
`error: mcp server NAME is not connected; /mcp reconnect NAME`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mrsmith_tui import msgs
from mrsmith_tui.errors import MrSmithError
from mrsmith_tui.mcp.config import ServerSpec
from mrsmith_tui.mcp.hub import McpHub, ServerStatus
from mrsmith_tui.mcp.trust import TrustMode, TrustPolicy
from mrsmith_tui.security.trust_store import TrustStore
from mrsmith_tui.tools.base import Approver, Tool

__all__ = ["VERBS", "McpError", "McpServers"]

VERBS = ("enable", "disable", "reconnect", "disconnect")


class McpError(MrSmithError):
    pass


class McpServers:
    def __init__(self, specs: list[ServerSpec], *, root: Path, emit: Callable[[msgs.Msg], None], mode: TrustMode,
                 approver: Approver | None, store: TrustStore | None = None) -> None:
        self.hub = McpHub(specs, root=root, emit=emit)
        self.policy = TrustPolicy(self.hub, mode=mode, approver=approver, store=store or TrustStore(), emit=emit)

    def start(self) -> None:
        """Say every server's state, then start (or ask about) them in the background."""
        self.hub.announce()
        self.policy.start_all()

    # the registry's tool source
    def current_tools(self) -> list[Tool]:
        return self.hub.current_tools()

    def gone_tool(self, name: str) -> Tool | None:
        return self.hub.gone_tool(name)

    # what /mcp and `mrsmith mcp list` read
    def statuses(self) -> list[ServerStatus]:
        return self.hub.statuses()

    def log_tail(self, name: str, lines: int = 5) -> list[str]:
        return self.hub.log_tail(name, lines)

    def names(self) -> list[str]:
        return self.hub.names()

    def wait_settled(self, timeout: float) -> bool:
        return self.hub.wait_settled(timeout)

    def apply(self, verb: str, name: str) -> str:
        """/mcp enable|disable|reconnect|disconnect NAME: changes at once; returns the line to show."""
        if verb not in VERBS:
            raise McpError(f"unknown verb {verb!r}; use one of {', '.join(VERBS)}")
        status = self.hub.status(name)
        if status is None:
            known = ", ".join(self.hub.names()) or "none"
            raise McpError(f"no MCP server {name!r} (the servers: {known})")
        if verb in ("enable", "reconnect"):
            self.policy.enable(name)
            after = self.hub.status(name)
            if after is not None and after.state == "untrusted":
                return f"mcp server {name}: {after.error}"
            return f"mcp server {name}: {'reconnecting' if verb == 'reconnect' else 'starting'}"
        if verb == "disable":
            self.hub.disable(name)
            return f"mcp server {name} disabled: its tools are gone from the next request (a running call finishes)"
        self.hub.disconnect(name)
        return f"mcp server {name} disconnected (/mcp reconnect {name} starts it again)"

    def close(self) -> None:
        self.hub.close()
