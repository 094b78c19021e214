"""Building one agent's own context (a Conversation) from the session it belongs to.

A sub-agent or background agent shares with the session: the working directory, the
approval gate (so "always" answers hold for everyone), the file ledger, the tool-call
budget and the id source. It has its own history, tools (minus the ones its kind may not
use), cancel token, sink (FromAgent-wrapped), usage ledger and transcript, beside the
session's as `<agent_id>.jsonl`. Its usage adds to the session's sub-agent total and never
moves the main context gauge.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from mrsmith_tui import __version__, msgs
from mrsmith_tui.agents.book import AgentBook, AgentRecord
from mrsmith_tui.agents.taking_turns import TakingTurns
from mrsmith_tui.config.schema import AgentConfig, ProviderConfig
from mrsmith_tui.core.conversation import Conversation
from mrsmith_tui.core.session_api import ServiceHost
from mrsmith_tui.core.system_prompt import build_system_prompt
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.history import HistoryEntry
from mrsmith_tui.provider.types import Provider
from mrsmith_tui.session import records
from mrsmith_tui.session.transcript import TranscriptWriter
from mrsmith_tui.skills.catalog import SkillCatalog
from mrsmith_tui.tools.base import Tool, ToolContext
from mrsmith_tui.tools.registry import ToolRegistry

SUBAGENT_NOTE = (
    "# You are a sub-agent\n\n"
    "Another agent gave you the task in the first message. Work on it alone with your tools: nobody "
    "will answer questions in this conversation. Your final message is the only thing the other agent "
    "sees, so make it a self-contained report: what you found or changed (with file paths), what you "
    "verified and how, and anything left undone."
)


class _AgentUsageLedger(UsageLedger):
    """An agent's own gauge (posted FromAgent-wrapped) that also adds to the session's sub-agent total."""

    def __init__(self, sink: Callable[[msgs.Msg], None], session_ledger: UsageLedger, **kw: Any) -> None:
        super().__init__(sink, **kw)
        self._session_ledger = session_ledger

    def record(self, run_id: str, usage: msgs.UsageInfo) -> list[msgs.Msg]:
        self._session_ledger.add_subagent_usage(usage)
        return super().record(run_id, usage)


class ContextFactory:
    def __init__(
        self,
        session: ServiceHost,
        book: AgentBook,
        catalog: SkillCatalog,
        *,
        make_skill_tool: Callable[[SkillCatalog], Tool],
        provider_factory: Callable[[ProviderConfig], Provider] | None = None,
    ) -> None:
        self.session = session
        self.book = book
        self.catalog = catalog
        self.make_skill_tool = make_skill_tool
        self._provider_factory = provider_factory
        self._providers: dict[str, Provider] = {}

    def provider_for(self, agent: AgentConfig) -> Provider:
        s = self.session
        if agent.provider == s.agent.provider:
            return s.provider
        if agent.provider not in self._providers:
            factory = self._provider_factory
            if factory is None:
                from mrsmith_tui.core.session import default_provider_factory

                factory = default_provider_factory(s.config)
            self._providers[agent.provider] = factory(s.config.provider(agent.provider))
        return self._providers[agent.provider]

    def tools_for(self, agent: AgentConfig, exclude: Iterable[str]) -> list[Tool]:
        """The session's tools as `agent` would have them, without `exclude` and the main skill tool."""
        dropped = set(exclude) | {"skill"}
        return [t for t in self.session.tools_for(agent).registered() if t.name not in dropped]

    def transcript_for(self, record: AgentRecord, agent: AgentConfig) -> TranscriptWriter | None:
        s = self.session
        main = s.transcript_path
        if main is None:
            return None
        header = records.header(
            session_id=s.session_id, created=time.time(), cwd=str(s.cwd), agent=agent.name, model=agent.model,
            provider=agent.provider, protocol=s.config.provider(agent.provider).protocol, version=__version__,
            agent_id=record.agent_id, parent_id=record.parent_id,
            background=record.background, label=record.label,
        )
        return TranscriptWriter(Path(main).parent / f"{record.agent_id}.jsonl", sink=self.book.sink, secrets=s.secrets(), header=header)

    def build(self, record: AgentRecord, agent: AgentConfig, *, exclude: Iterable[str], note: str = "",
              history: list[HistoryEntry] | None = None, append_to: Path | None = None) -> Conversation:
        """`history` and `append_to`: a recorded agent (its transcript goes on, with no second header)."""
        s = self.session
        sink = self.book.agent_sink(record)
        holder: list[Conversation] = []

        def on_load(skill) -> None:
            text = skill.context_text()
            holder[0].add_context(skill.context_added(text))
            sink(msgs.SkillLoaded(name=skill.name, path=str(skill.folder)))

        # The session's live sources too: a server disabled by /mcp leaves this agent's next request as well.
        tools = ToolRegistry(self.tools_for(agent, exclude) + [self.make_skill_tool(self.catalog.fork(on_load=on_load))],
                             sources=self.session.tools_for(agent).sources, exclude=exclude)
        ctx = ToolContext(
            root=s.cwd, cancel=record.cancel, approver=s.gate.approver, emit=sink, ledger=s.file_ledger,
            agent_id=record.agent_id, services=s.services,
        )
        sections = [self.catalog.system_section(), note]
        ledger = _AgentUsageLedger(sink, s.ledger, max_context_tokens=agent.max_context_tokens, budget=s.budget)
        conversation = Conversation(
            agent, TakingTurns(self.provider_for(agent)), tools, ctx, s.gate, sink,
            TranscriptWriter(append_to, sink=self.book.sink, secrets=s.secrets()) if append_to is not None
            else self.transcript_for(record, agent), s.budget,
            ledger=ledger, ids=s.ids, history=history if history is not None else [], system_prompt=lambda: s.gate.mode.framed(build_system_prompt(agent, s.cwd, sections)),
            context_builder=agent.context_builder or s.config.context_builder,
            context_window_ratio=s.config.context_window_ratio, include_usage=s.config.include_usage,
        )
        holder.append(conversation)
        return conversation
