"""The built-in tools, built for one agent (shell takes the agent's command lists)."""

from __future__ import annotations

from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.tools.base import Tool
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.glob_tool import GlobTool
from mrsmith_tui.tools.list_dir import ListDirTool
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.question import QuestionTool
from mrsmith_tui.tools.shell import ShellTool
from mrsmith_tui.tools.todowrite import TodoWriteTool
from mrsmith_tui.tools.web_fetch import WebFetchTool
from mrsmith_tui.tools.write_file import WriteFileTool


def builtin_tools(agent: AgentConfig) -> list[Tool]:
    """Opt-in (registry.OPT_IN): shell, read_file, write_file, list_dir, glob, web_fetch.
    Always on: edit, todowrite, question."""
    shell = ShellTool(agent.shell_harmless_commands, agent.shell_dangerous_commands)
    tools: list[Tool] = [shell, ReadFileTool(), WriteFileTool(), ListDirTool(), GlobTool(), WebFetchTool(),
                         EditTool(), TodoWriteTool(), QuestionTool()]
    return tools
