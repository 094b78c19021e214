"""The one composition of a session the frontends use: the core session with the skills, the
sub-agents and the background fleet built in.

    session = compose_session(config=config, cwd=cwd, sink=sink, approver=approver, allow=args.allow,
                              max_agents=args.max_agents, agent_wait_ms=args.agent_wait_ms)
    session = compose_session(..., resume=True, target=session_id_or_none, replay=True)   # -c, --resume, /sessions

The services are part of the session from the start (core.session_api.SessionAddOns), never
patched on afterwards. `session.services` holds:
    skills     SkillCatalog of the main context (`.list()`, `.is_loaded(name)`, `.load(name)` loads by hand)
    subagents  SubagentRunner (the `task` tool's)
    fleet      Fleet (`.list()`, `.stop(id)`, `.book` with every agent, sub-agents included)
    approval_gate  the session's gate (added by the session itself)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui import msgs
from mrsmith_tui.agents.book import AgentBook, WaitingApprover
from mrsmith_tui.agents.context import ContextFactory
from mrsmith_tui.agents.fleet import Fleet
from mrsmith_tui.agents.mcp_parts import load_mcp, start_mcp
from mrsmith_tui.agents.subagent import SubagentRunner
from mrsmith_tui.agents.tools import (
    ListAgentsTool,
    SkillTool,
    SpawnAgentTool,
    StopAgentTool,
    TaskTool,
    WaitAgentsTool,
)
from mrsmith_tui.config.load import ConfigError, resolve_agent
from mrsmith_tui.config.schema import Config
from mrsmith_tui.core.session import AgentSession, open_session
from mrsmith_tui.core.session_api import AddOnFactory, ServiceHost, SessionAddOns, Sink
from mrsmith_tui.core.session_parts import ProviderFactory, session_parts
from mrsmith_tui.history import UserEntry
from mrsmith_tui.skills.catalog import SkillCatalog, SkillDirs, discover
from mrsmith_tui.skills.skill import CONTEXT_PREFIX as SKILL_CONTEXT_PREFIX
from mrsmith_tui.skills.skill import Skill
from mrsmith_tui.tools.approval import unknown_allowed
from mrsmith_tui.tools.base import Approver, Tool
from mrsmith_tui.tools.services import Services

if TYPE_CHECKING:
    from mrsmith_tui.mcp.service import McpServers
    from mrsmith_tui.mcp.trust import TrustMode

__all__ = ["agent_add_ons", "compose_session"]


def compose_session(
    *,
    config: Config,
    cwd: Path,
    sink: Sink,
    approver: Approver,
    agent_name: str | None = None,
    resume: bool = False,
    target: str | Path | None = None,
    replay: bool = False,
    other_folder: bool = False,
    persist: bool = True,
    allow: Iterable[str] = (),
    max_agents: int = 4,
    agent_wait_ms: int = 120_000,
    skills_dirs: SkillDirs | None = None,
    provider_factory: ProviderFactory | None = None,
    tools: Sequence[Tool] = (),
    mcp_trust: TrustMode = "ask",
    tool_trust: TrustMode = "ask",
    frontend: str = "tui",
) -> AgentSession:
    """A new session on `agent_name` (else the default agent), or with `resume` the recorded session
    `target` (an id prefix or transcript; None: the newest of `cwd`), its Msgs replayed to the sink
    first with `replay` (the TUI draws them). `allow`: --allow specs. `tools`: tools besides the
    built-in and agent ones. `mcp_trust`: how project MCP servers get trusted (mcp.trust; headless: "yes"
    with --mcp-trust, else "stored", and it waits for the servers to settle). `tool_trust`: the same for the
    project's drop-in tools (tools.dropin; headless: "yes" with --trust-project-tools, else "stored").
    `frontend`: what a new transcript's header names ("tui" or "headless": --list marks those). Raises ConfigError or
    SessionNotFound (both MrSmithErrors, exit 2)."""
    book = AgentBook(sink)
    mcp_warnings: list[str] = []
    mcp = load_mcp(cwd, sink, approver, mcp_trust, mcp_warnings)
    skill_warnings: list[str] = []  # said after the session is announced (and resumed), as they always were
    gate_approver = WaitingApprover(approver, book)  # an agent waiting on the person shows as waiting
    add_ons = agent_add_ons(book, max_agents=max_agents, agent_wait_ms=agent_wait_ms, skills_dirs=skills_dirs,
                            provider_factory=provider_factory, tools=tools, warn=skill_warnings.append, mcp=mcp,
                            drop_in=(approver, tool_trust))
    if resume:
        from mrsmith_tui.core.resume import resume_session  # here: a new session (a one-shot) never reads transcripts

        session = resume_session(config=config, cwd=cwd, sink=sink, approver=approver, target=target,
                                 agent_name=agent_name, persist=persist, provider_factory=provider_factory,
                                 replay=replay, other_folder=other_folder, gate_approver=gate_approver, allow=allow,
                                 add_ons=add_ons)
    else:
        # build_session's parts, with the frontend a new transcript's header names (--list marks headless runs)
        agent = resolve_agent(config, agent_name)
        parts = session_parts(config=config, agent=agent, cwd=cwd, sink=sink, approver=approver, gate_approver=gate_approver,
                              allow=allow, persist=persist, provider_factory=provider_factory, frontend=frontend)
        session = open_session(parts, agent=agent, add_ons=add_ons)
    for text in skill_warnings:
        sink(msgs.Warning(text=text, code="skill"))
    start_mcp(mcp, sink, mcp_warnings, wait=mcp_trust != "ask")
    _check_allowed(session, allow, settled=mcp_trust != "ask", strict=frontend == "headless")
    return session


def _check_allowed(session: AgentSession, allow: Iterable[str], *, settled: bool, strict: bool) -> None:
    """--allow naming no tool: headless, an error before the run (a run that thought it may write, denied); the
    UI, whose MCP servers are still starting, says it in a warning line."""
    specs = list(allow)
    if not specs:
        return
    every = session.tools_for(session.agent.model_copy(update={"tools": None})).names()
    errors, warnings = unknown_allowed(specs, every, settled=settled)
    if errors and strict:
        session.close()
        raise ConfigError("; ".join(errors))
    for text in errors + warnings:
        session.sink(msgs.Warning(text=text, code="allow"))


def agent_add_ons(
    book: AgentBook,
    *,
    max_agents: int = 4,
    agent_wait_ms: int = 120_000,
    skills_dirs: SkillDirs | None = None,
    provider_factory: ProviderFactory | None = None,
    tools: Sequence[Tool] = (),
    warn: Callable[[str], None],
    mcp: McpServers | None = None,
    drop_in: tuple[Approver, TrustMode] | None = None,
) -> AddOnFactory:
    """The skills, sub-agents and fleet of a session, built when the session is (it calls this back);
    `drop_in`: the approver and trust mode of the drop-in tools (None: none)."""

    def build(session: ServiceHost) -> SessionAddOns:
        dirs = skills_dirs or SkillDirs.from_config(session.config, session.cwd)

        def load_into_main(skill: Skill) -> None:
            text = skill.context_text()
            session.add_context(skill.context_added(text))
            session.sink(msgs.SkillLoaded(name=skill.name, path=str(skill.folder)))

        catalog = SkillCatalog(discover(dirs, warn), on_load=load_into_main)
        _skip_recorded_ids(book, session)
        factory = ContextFactory(session, book, catalog, make_skill_tool=SkillTool, provider_factory=provider_factory)
        runner = SubagentRunner(session, book, factory)
        fleet = Fleet(session, book, factory, max_agents=max_agents, agent_wait_ms=agent_wait_ms)
        agent_tools: list[Tool] = [SkillTool(catalog), TaskTool(runner)]
        if max_agents > 0:
            agent_tools += [SpawnAgentTool(fleet), WaitAgentsTool(fleet), StopAgentTool(fleet), ListAgentsTool(fleet)]

        def fresh_context() -> None:
            fleet.stop_all()
            catalog.reset()

        dropins = None
        if drop_in is not None:
            from mrsmith_tui.agents.dropin_parts import drop_in_tools

            dropins = drop_in_tools(session, approver=drop_in[0], mode=drop_in[1], added=(*tools, *agent_tools))
        sources = tuple(s for s in (mcp, dropins) if s is not None)
        return SessionAddOns(
            services=Services(fleet=fleet, skills=catalog, subagents=runner, mcp=mcp, tools=dropins),
            tools=(*tools, *agent_tools),
            tool_sources=sources,
            system_sections=(catalog.system_section(),) if catalog.names() else (),
            on_reset=(fresh_context,),
            on_switch=(fresh_context, lambda: _drop_skill_bodies(session)),
            on_close=(fleet.stop_all, mcp.close) if mcp is not None else (fleet.stop_all,),
        )

    return build


def _skip_recorded_ids(book: AgentBook, session: ServiceHost) -> None:
    """A resumed session's new agents get ids after its recorded ones (subagent-3 stays the old one's)."""
    main = session.transcript_path
    if main is None:
        return
    for path in main.parent.glob("*.jsonl"):
        prefix, _, n = path.stem.rpartition("-")
        if prefix in ("agent", "subagent") and n.isdigit():
            book.skip_past(prefix, int(n))


def _drop_skill_bodies(session: ServiceHost) -> None:
    """A loaded skill stays until an agent switch: the new agent starts without the old one's skills."""
    session.history[:] = [
        e for e in session.history
        if not (isinstance(e, UserEntry) and e.kind == "context" and e.text.startswith(SKILL_CONTEXT_PREFIX))
    ]
