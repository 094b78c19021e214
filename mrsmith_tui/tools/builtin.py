"""The built-in tools, built for one agent (shell takes the agent's command lists)."""

from __future__ import annotations

from mrsmith_tui.config.schema import AgentConfig, Config
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import Tool
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.glob_tool import GlobTool
from mrsmith_tui.tools.list_dir import ListDirTool
from mrsmith_tui.tools.question import QuestionTool
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.shell.tool import ShellTool
from mrsmith_tui.tools.todowrite import TodoWriteTool
from mrsmith_tui.tools.web_fetch import WebFetchTool
from mrsmith_tui.tools.write_file import WriteFileTool


def builtin_tools(agent: AgentConfig, config: Config | None = None) -> list[Tool]:
    """Opt-in (registry.OPT_IN): shell, read_file, write_file, list_dir, glob, web_fetch.
    Always on: edit, todowrite, question. `config` brings sensitivePaths and webFetchAllowedHosts."""
    config = config or Config()
    sensitive = SensitivePaths(config.sensitive_paths)
    shell = ShellTool(agent.shell_harmless_commands, agent.shell_dangerous_commands,
                      env_passthrough=agent.shell_env_passthrough, sensitive=sensitive)
    tools: list[Tool] = [shell, ReadFileTool(sensitive), WriteFileTool(sensitive), ListDirTool(sensitive),
                         GlobTool(sensitive), WebFetchTool(allowed_hosts=config.web_fetch_allowed_hosts),
                         EditTool(sensitive), TodoWriteTool(), QuestionTool()]
    return tools
