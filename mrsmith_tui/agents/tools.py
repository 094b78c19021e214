"""The agent tools: skill, task, and the fleet tools only the main agent sees."""

from __future__ import annotations

import time
from typing import Any

from mrsmith_tui.agents.book import AgentRecord
from mrsmith_tui.agents.fleet import Fleet, FleetError
from mrsmith_tui.agents.subagent import SubagentRunner
from mrsmith_tui.skills.catalog import SkillCatalog
from mrsmith_tui.skills.skill import SkillError
from mrsmith_tui.tools.base import BaseTool, ToolContext, ToolResult


class SkillTool(BaseTool):
    name = "skill"
    # the class's words serve `mrsmith tools list`, which has no catalogue; a session's tool names its skills
    description = ("Load a skill's instructions into your context before doing the kind of work it describes. "
                   "The instructions arrive as the next message, with the folder of the skill's files.")
    read_only = True
    parameters = {
        "type": "object",
        "properties": {"name": {"type": "string", "description": "the skill's name, as listed under # Skills"}},
        "required": ["name"],
        "additionalProperties": False,
    }

    def __init__(self, catalog: SkillCatalog) -> None:
        self.catalog = catalog
        names = ", ".join(catalog.names()) or "none"
        self.description = f"{SkillTool.description} Skills: {names}."

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        name = str(args["name"]).strip()
        already = self.catalog.is_loaded(name)
        try:
            skill = self.catalog.load(name)
        except SkillError as e:
            return ToolResult.error(e.message)
        if already:
            return ToolResult(content=f"The skill {name!r} is already loaded; its instructions are in your context.")
        return ToolResult(content=f"Loaded the skill {name!r} (folder {skill.folder}); its instructions follow.")


class TaskTool(BaseTool):
    name = "task"
    read_only = True  # what the sub-agent does goes through the approval gate itself
    description = (
        "Dispatch a sub-agent: a fresh context that works on `prompt` with your tools (except task) and "
        "returns its final answer as this tool's result. Use it for a self-contained piece of work whose "
        "details you do not need in your own context (searching a codebase, a focused investigation, a "
        "mechanical change across files). The sub-agent sees nothing of this conversation: put every fact "
        "it needs into `prompt`, and say exactly what its answer must contain. To continue an earlier "
        "sub-agent's conversation, pass its task_id (e.g. subagent-2)."
    )
    parameters = {
        "type": "object",
        "properties": {
            "description": {"type": "string", "description": "what it does, in 3 to 6 words"},
            "prompt": {"type": "string", "description": "the whole task, self-contained"},
            "agent": {"type": "string", "description": "another configured agent to run it as (optional)"},
            "task_id": {"type": "string", "description": "resume this earlier sub-agent (optional)"},
        },
        "required": ["description", "prompt"],
        "additionalProperties": False,
    }

    def __init__(self, runner: SubagentRunner) -> None:
        self.runner = runner

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return self.runner.run(
            description=str(args["description"]), prompt=str(args["prompt"]), agent=args.get("agent") or None,
            task_id=args.get("task_id") or None, parent_cancel=ctx.cancel, parent_id=ctx.agent_id,
        )


class _FleetTool(BaseTool):
    read_only = True

    def __init__(self, fleet: Fleet) -> None:
        self.fleet = fleet


class SpawnAgentTool(_FleetTool):
    name = "spawn_agent"
    description = (
        "Start a background agent on `task` and return its id at once; it works in parallel with you in "
        "the same folder, with your tools (but not these fleet tools). Give each agent an independent, "
        "self-contained task that touches different files than the others. Its report comes back only "
        "when you call wait_agents. Use it to run several investigations or changes in parallel."
    )
    parameters = {
        "type": "object",
        "properties": {
            "task": {"type": "string", "description": "the whole task, self-contained (it sees nothing of this conversation)"},
            "label": {"type": "string", "description": "a short name shown to the person (optional)"},
            "agent": {"type": "string", "description": "another configured agent to run it as (optional)"},
        },
        "required": ["task"],
        "additionalProperties": False,
    }

    def summary(self, args: dict[str, Any]) -> str:
        text = args.get("label") or args.get("task") or ""
        return str(text).splitlines()[0][:200] if text else ""

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            record = self.fleet.spawn(str(args["task"]), label=args.get("label"), agent=args.get("agent") or None)
        except FleetError as e:
            return ToolResult.error(e.message)
        return ToolResult(
            content=f"Started {record.agent_id} ({record.label}). Collect its report with wait_agents when you need it."
        )


_WAIT_AGENTS = (
    "Wait for background agents to finish and collect their reports (each report is delivered once). "
    "Returns when all the awaited agents are done or after timeout_ms (default and maximum {limit}), "
    "and says which are still running. timeout_ms 0 just collects what is ready."
)


class WaitAgentsTool(_FleetTool):
    name = "wait_agents"
    description = _WAIT_AGENTS.format(limit="agentWaitMs")  # `mrsmith tools list`'s; a session's names its limit
    parameters = {
        "type": "object",
        "properties": {
            "ids": {"type": "array", "items": {"type": "string"}, "description": "agents to wait for (default: all)"},
            "timeout_ms": {"type": "integer", "minimum": 0, "description": "how long to wait at most, in milliseconds"},
        },
        "additionalProperties": False,
    }

    def __init__(self, fleet: Fleet) -> None:
        super().__init__(fleet)
        self.description = _WAIT_AGENTS.format(limit=f"{fleet.agent_wait_ms} ms")

    def summary(self, args: dict[str, Any]) -> str:
        ids = args.get("ids")
        return ", ".join(map(str, ids)) if isinstance(ids, list) and ids else "all agents"

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        result = self.fleet.wait(args.get("ids") or None, args.get("timeout_ms"), ctx.cancel)
        parts = [
            f"## {r.agent_id} ({r.label}): {r.state} after {r.elapsed():.1f}s, {r.tool_calls} tool calls\n{r.report}"
            for r in result.reports
        ]
        parts += [f"{r.agent_id}: its report was delivered earlier." for r in result.already_read]
        parts += [f"{agent_id}: no such background agent." for agent_id in result.unknown]
        if result.running:
            running = ", ".join(f"{r.agent_id} ({r.label})" for r in result.running)
            parts.append(f"Still running: {running}. Call wait_agents again to keep waiting.")
        if not parts:
            parts.append("No background agent is running and no report is waiting.")
        return ToolResult(content="\n\n".join(parts))


class StopAgentTool(_FleetTool):
    name = "stop_agent"
    description = (
        "Stop a background agent (or sub-agent) and everything it started; what it produced so far is kept "
        "as its report."
    )
    parameters = {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "the agent's id, e.g. agent-2"}},
        "required": ["id"],
        "additionalProperties": False,
    }

    def summary(self, args: dict[str, Any]) -> str:
        return str(args.get("id", ""))

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            record = self.fleet.stop(str(args["id"]))
        except FleetError as e:
            return ToolResult.error(e.message)
        report = self.fleet.take_report(record)
        if report is not None:
            return ToolResult(content=f"{record.agent_id} is {record.state}. Its report:\n{report}")
        return ToolResult(content=f"{record.agent_id} is {record.state}.")


class ListAgentsTool(_FleetTool):
    name = "list_agents"
    description = "List the background agents: id, label, state, elapsed time, tool calls, and whether a report is waiting."
    parameters = {"type": "object", "properties": {}, "additionalProperties": False}

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        records = self.fleet.list()
        if not records:
            return ToolResult(content="No background agents.")
        now = time.monotonic()
        return ToolResult(content="\n".join(_row(r, now) for r in records))


def _row(r: AgentRecord, now: float) -> str:
    unread = "report waiting (wait_agents)" if r.report is not None and not r.report_read else "no unread report"
    return f"{r.agent_id}\t{r.label}\t{r.state}\t{r.elapsed(now):.1f}s\t{r.tool_calls} tool call{'s' if r.tool_calls != 1 else ''}\t{unread}"
