"""Sub-agents: the `task` tool's runner.

A sub-agent is a fresh context seeded with the prompt; it runs its own tool loop inside
the caller's tool call (blocking it) with the same tools minus `task` and the fleet tools,
and its final answer is the tool result. Its cancel token is a child of the caller's run,
so cancelling the caller stops it. `task_id` resumes an earlier sub-agent's context.
"""

from __future__ import annotations

import re
from typing import Any

from mrsmith_tui.agents.book import AgentBook, AgentRecord
from mrsmith_tui.agents.context import SUBAGENT_NOTE, ContextFactory
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.load import ConfigError, resolve_agent
from mrsmith_tui.core.conversation import RunResult
from mrsmith_tui.core.session_api import ServiceHost
from mrsmith_tui.history import AssistantEntry
from mrsmith_tui.tools.base import ToolResult

FLEET_TOOLS = frozenset({"spawn_agent", "wait_agents", "stop_agent", "list_agents"})
SUBAGENT_EXCLUDED = FLEET_TOOLS | {"task"}


def last_answer(conversation: Any) -> str:
    """The newest assistant text of a context (what a stopped agent had produced)."""
    for entry in reversed(conversation.history):
        if isinstance(entry, AssistantEntry) and entry.text:
            return entry.text
    return ""


class SubagentRunner:
    def __init__(self, session: ServiceHost, book: AgentBook, factory: ContextFactory) -> None:
        self.session = session
        self.book = book
        self.factory = factory

    def run(
        self,
        *,
        description: str,
        prompt: str,
        agent: str | None = None,
        task_id: str | None = None,
        parent_cancel: CancelToken | None = None,
        parent_id: str | None = None,
    ) -> ToolResult:
        """Run a sub-agent to its end; the result is its final answer (or a one-line error)."""
        if task_id:
            record, problem = self._resumable(task_id, agent)
            if problem:
                return ToolResult.error(problem)
            assert record is not None
            record.cancel = CancelToken(parent_cancel)
            self.book.transition(record, "resumed")
        else:
            try:
                config = resolve_agent(self.session.config, agent) if agent else self.session.agent
            except ConfigError as e:
                return ToolResult.error(e.message)
            record = AgentRecord(
                agent_id=self.book.new_id("subagent"), label=description.strip() or "sub-agent", task=prompt,
                background=False, agent_name=config.name, parent_id=parent_id, cancel=CancelToken(parent_cancel),
            )
            record.conversation = self.factory.build(record, config, exclude=SUBAGENT_EXCLUDED, note=SUBAGENT_NOTE)
            self.book.add(record)
        try:
            result = record.conversation.run_turn(prompt, record.cancel)
        finally:
            with self.book.changed:
                record.busy = False
        return self._finish(record, result)

    def _resumable(self, task_id: str, agent: str | None) -> tuple[AgentRecord | None, str | None]:
        record = self.book.get(task_id) or self._recorded(task_id)
        if record is None or record.background:
            known = ", ".join(r.agent_id for r in self.book.records(background=False)) or "none yet"
            return None, f"no sub-agent {task_id!r} to resume (the sub-agents of this session: {known})"
        if agent and agent != record.agent_name:
            return None, f"{task_id} runs as agent {record.agent_name!r}; resume it without `agent` or start a new task"
        with self.book.changed:
            if record.busy:
                return None, f"{task_id} is still working on an earlier task"
            record.busy = True
        return record, None

    def _recorded(self, task_id: str) -> AgentRecord | None:
        """A sub-agent of a resumed session (`-c`): rebuilt from its `subagent-<n>.jsonl`, which it goes on writing."""
        from mrsmith_tui.session.rebuild import rebuild_history
        from mrsmith_tui.session.records import header_of
        from mrsmith_tui.session.transcript import read_transcript

        main = self.session.transcript_path
        if main is None or not re.fullmatch(r"subagent-\d+", task_id):
            return None
        path = main.parent / f"{task_id}.jsonl"
        try:
            records, _ = read_transcript(path)
        except OSError:
            return None
        header = header_of(records)
        if header is None or header.background:
            return None
        try:
            config = resolve_agent(self.session.config, header.agent or None)
        except ConfigError:
            config = self.session.agent
        record = AgentRecord(
            agent_id=task_id, label=header.label or "sub-agent", task="", background=False,
            agent_name=config.name, parent_id=header.parent_id, state="done", busy=False,
        )
        record.conversation = self.factory.build(record, config, exclude=SUBAGENT_EXCLUDED, note=SUBAGENT_NOTE,
                                                 history=rebuild_history(records), append_to=path)
        self.book.add(record)
        return record

    def _finish(self, record: AgentRecord, result: RunResult) -> ToolResult:
        resume = f"[task_id: {record.agent_id}; pass it as task_id to continue this sub-agent's conversation]"
        if result.cancelled:
            self.book.transition(record, "ended")
            partial = last_answer(record.conversation)
            text = f"sub-agent {record.agent_id} was stopped before it finished."
            if partial:
                text += f" What it had written:\n{partial}"
            return ToolResult(content=f"Error: {text}\n\n{resume}", ok=False)
        if result.error:
            self.book.transition(record, "failed", detail=result.error)
            return ToolResult(content=f"Error: sub-agent {record.agent_id} failed: {result.error}\n\n{resume}", ok=False)
        self.book.transition(record, "finished")
        answer = result.final_text.strip() or "(the sub-agent ended without a final answer)"
        return ToolResult(content=f"{answer}\n\n{resume}")

    def stop_all(self) -> None:
        for record in self.book.records(background=False):
            if not record.finished:
                self.book.stop(record)
