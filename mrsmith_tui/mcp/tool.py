"""An MCP server's tool as a Tool of the registry: `mcp__<server>__<tool>`.

It asks before it runs unless its server marks it `readOnlyHint` (and the server is one the
person trusted: every server that runs is, see trust.py) or the person allowed its spec
(`mcp__<server>__<tool>`, or `mcp__<server>` for all of that server's tools).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.mcp.listing import ToolInfo, clean_text
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult

__all__ = ["DisconnectedTool", "McpTool", "not_connected"]


class CallPort(Protocol):
    def call(self, name: str, tool: str, arguments: dict[str, Any], cancel: CancelToken) -> ToolResult: ...


class McpTool(BaseTool):
    def __init__(self, hub: CallPort, server: str, key: str, info: ToolInfo, name: str, *, honour_read_only: bool) -> None:
        self.hub = hub
        self.server = server
        self.key = key
        self.info = info
        self.name = name
        self.description = f"[MCP server {clean_text(server, 60)}] {info.description}".rstrip()
        self.parameters = info.schema
        self.read_only = honour_read_only and info.read_only

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        if self.read_only:
            return None
        reason = (f"MCP tool {self.info.name} of server {clean_text(self.server, 60)} is not marked read-only "
                  f"(mcp__{self.key} allows every tool of that server)")
        return ApprovalNeed(reason=reason, spec=self.name, rule="other")

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return self.hub.call(self.server, self.info.original, args, ctx.cancel)

    def summary(self, args: dict[str, Any]) -> str:
        try:
            text = json.dumps(args, ensure_ascii=False)
        except (TypeError, ValueError):
            text = ""
        return f"{clean_text(self.server, 40)} · {self.info.name} {clean_text(text, 160)}".strip()


class DisconnectedTool(BaseTool):
    """What a call to a tool of a server that is not connected finds: the way back, never "unknown tool"."""

    read_only = True  # it runs nothing: there is nothing to approve

    def __init__(self, name: str, server: str) -> None:
        self.name = name
        self.server = server
        self.description = f"[MCP server {clean_text(server, 60)}] not connected"
        self.parameters: dict[str, Any] = {"type": "object"}

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return not_connected(self.server)


def not_connected(server: str) -> ToolResult:
    return ToolResult(content=f"error: mcp server {server} is not connected; /mcp reconnect {server}", ok=False)
