"""Wiring skills, sub-agents and the fleet into a session: the one call the CLI makes.

    session = build_session(...)
    install(session, max_agents=args.max_agents, agent_wait_ms=args.agent_wait_ms)

After it, `session.services` holds:
    "skills"    SkillCatalog of the main context (`.list()`, `.is_loaded(name)`, `.load(name)` loads by hand)
    "subagents" SubagentRunner
    "fleet"     Fleet (`.list()`, `.stop(id)`, `.book` with every agent, sub-agents included)
"""

from __future__ import annotations

from typing import Any, Callable

from mrsmith_tui import msgs
from mrsmith_tui.agents.book import AgentBook, WaitingApprover
from mrsmith_tui.agents.context import ContextFactory
from mrsmith_tui.agents.fleet import Fleet
from mrsmith_tui.agents.subagent import SubagentRunner
from mrsmith_tui.agents.tools import (
    ListAgentsTool,
    SkillTool,
    SpawnAgentTool,
    StopAgentTool,
    TaskTool,
    WaitAgentsTool,
)
from mrsmith_tui.config.schema import ProviderConfig
from mrsmith_tui.provider.base import Provider
from mrsmith_tui.skills.catalog import SkillCatalog, SkillDirs, discover
from mrsmith_tui.skills.skill import CONTEXT_PREFIX as SKILL_CONTEXT_PREFIX
from mrsmith_tui.skills.skill import Skill


def install(
    session: Any,  # core.session.AgentSession
    *,
    max_agents: int = 4,
    agent_wait_ms: int = 120_000,
    skills_dirs: SkillDirs | None = None,
    provider_factory: Callable[[ProviderConfig], Provider] | None = None,
) -> None:
    def warn(text: str) -> None:
        session.sink(msgs.Warning(text=text, code="skill"))

    dirs = skills_dirs or SkillDirs.from_config(session.config, session.cwd)

    def load_into_main(skill: Skill) -> None:
        text = skill.context_text()
        session.add_context(text, skill.transcript_record(text))
        session.sink(msgs.SkillLoaded(name=skill.name, path=str(skill.folder)))

    catalog = SkillCatalog(discover(dirs, warn), on_load=load_into_main)
    if catalog.names():
        session.add_system_section(catalog.system_section())

    book = AgentBook(session.sink)
    _skip_recorded_ids(book, session)
    session.gate.approver = WaitingApprover(session.gate.approver, book)
    factory = ContextFactory(session, book, catalog, make_skill_tool=SkillTool, provider_factory=provider_factory)
    runner = SubagentRunner(session, book, factory)
    fleet = Fleet(session, book, factory, max_agents=max_agents, agent_wait_ms=agent_wait_ms)

    tools: list[Any] = [SkillTool(catalog), TaskTool(runner)]
    if max_agents > 0:
        tools += [SpawnAgentTool(fleet), WaitAgentsTool(fleet), StopAgentTool(fleet), ListAgentsTool(fleet)]
    session.add_tools(tools)
    session.services.update(skills=catalog, subagents=runner, fleet=fleet)

    def fresh_context() -> None:
        fleet.stop_all()
        catalog.reset()

    session.on_reset(fresh_context)
    session.on_close(fleet.stop_all)
    session.on_switch(fresh_context)
    session.on_switch(lambda: _drop_skill_bodies(session))


def _skip_recorded_ids(book: AgentBook, session: Any) -> None:
    """A resumed session's new agents get ids after its recorded ones (subagent-3 stays the old one's)."""
    main = session.transcript_path
    if main is None:
        return
    for path in main.parent.glob("*.jsonl"):
        prefix, _, n = path.stem.rpartition("-")
        if prefix in ("agent", "subagent") and n.isdigit():
            book.skip_past(prefix, int(n))


def _drop_skill_bodies(session: Any) -> None:
    """A loaded skill stays until an agent switch: the new agent starts without the old one's skills."""
    session.history[:] = [
        m for m in session.history
        if not (m.get("context") and str(m.get("content", "")).startswith(SKILL_CONTEXT_PREFIX))
    ]
