"""The composition's part of the drop-in tools: the service built for a session (tools.dropin.service).

Built when the session is, reading nothing: the folders are read when the first request (or /tools)
needs the tools. The names a drop-in tool may not take are the built-in tools' and the tools the
composition adds (task, skill, the fleet's); an MCP tool's name holds `__`, which a drop-in name never does.
"""

from __future__ import annotations

from collections.abc import Sequence

from mrsmith_tui.core.session_api import ServiceHost
from mrsmith_tui.paths import config_dir
from mrsmith_tui.tools.base import Approver, Tool
from mrsmith_tui.tools.dropin.service import DropInTools, TrustMode
from mrsmith_tui.tools.dropin.tool import RunSettings

__all__ = ["drop_in_tools"]


def drop_in_tools(session: ServiceHost, *, approver: Approver, mode: TrustMode, added: Sequence[Tool]) -> DropInTools:
    def reserved() -> list[str]:
        from mrsmith_tui.tools.builtin import builtin_tools

        return [t.name for t in builtin_tools(session.agent, session.config)] + [t.name for t in added]

    def every_tool() -> list[Tool]:
        return list(session.tools_for(session.agent))

    settings = RunSettings(timeout=session.config.drop_in_tool_timeout,
                           passthrough=lambda: tuple(session.agent.shell_env_passthrough))
    return DropInTools(root=session.cwd, user_dir=config_dir() / "tools", mode=mode, approver=approver,
                       emit=session.sink, settings=settings, reserved=reserved, every_tool=every_tool)
