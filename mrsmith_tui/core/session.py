"""The session facade: one person's conversation with one (switchable) agent.

`AgentSession` is handed everything it is made of: the shared parts (core.session_parts:
gate, ledgers, budget, ids, the provider and transcript factories), its agent, provider,
first transcript and history, and the add-ons the composition gives it (services such as
the fleet and the skills, their tools, prompt sections and hooks; core.session_api). It
builds only what changes with its agent: the tool selection and the Conversation.
`open_session` puts one together from its parts; `build_session` is a whole session without
add-ons (the agents' composition, agents.compose, is the one the frontends call). `run` is
blocking (call it from a worker thread); everything it does reaches the frontend as Msgs
through the sink.

History is a list of typed, wire-neutral entries (`mrsmith_tui.history`), without the system
prompt, which is rebuilt for every call (so sections added later take effect); resume
hands the recorded history in. `/reset` starts a fresh session id and transcript, so a
transcript always holds one continuous conversation.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.knobs import knob_problem
from mrsmith_tui.config.load import ConfigError, api_key_for, resolve_agent
from mrsmith_tui.config.schema import AgentConfig, Config
from mrsmith_tui.config.vendors import protocol_of
from mrsmith_tui.core.answer_blocks import unsigned
from mrsmith_tui.core.compact import compact as compact_session
from mrsmith_tui.core.compact import maybe_auto_compact
from mrsmith_tui.core.context_limit import ContextLimit
from mrsmith_tui.core.conversation import Conversation, RunResult
from mrsmith_tui.core.session_api import AddOnFactory, History, SessionAddOns
from mrsmith_tui.core.session_parts import (
    ProviderFactory,
    SessionParts,
    default_provider_factory,
    session_parts,
    session_secrets,
)
from mrsmith_tui.core.small_context import is_small
from mrsmith_tui.core.system_prompt import build_system_prompt
from mrsmith_tui.provider.types import Provider
from mrsmith_tui.session.transcript import TranscriptWriter, new_session_id
from mrsmith_tui.tools.base import Approver, Tool, ToolContext
from mrsmith_tui.tools.checkpoints import Checkpoints
from mrsmith_tui.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from mrsmith_tui.tools.ledger import FileLedger

__all__ = ["AgentSession", "RunResult", "build_session", "default_provider_factory", "open_session"]


def _builtin_tools(agent: AgentConfig, config: Config) -> list[Tool]:
    from mrsmith_tui.tools.builtin import builtin_tools  # here: nine tool modules, not needed to import the core

    return list(builtin_tools(agent, config))


class AgentSession:
    def __init__(
        self,
        parts: SessionParts,
        *,
        agent: AgentConfig,
        provider: Provider,
        session_id: str,
        transcript: TranscriptWriter | None,
        history: History | None = None,
        resumed: bool = False,
        add_ons: AddOnFactory | None = None,
    ) -> None:
        """`resumed`: going on with a recorded session (SessionStarted says so); `history` its recorded
        history. `add_ons` is called once, here, with this session (not yet announced, no conversation)."""
        msgs.ready_for_threads()  # before this session starts a thread (see msgs.msg_base)
        self._parts = parts
        self.config: Config = parts.config
        self.cwd: Path = parts.cwd
        self.sink = parts.sink
        self.approver: Approver = parts.approver
        self.gate = parts.gate
        self.budget = parts.budget
        self.ledger = parts.ledger
        self.ids = parts.ids
        self.file_ledger: FileLedger | None = parts.file_ledger
        self.agent = agent
        self.provider = provider
        self.session_id = session_id
        self.transcript = transcript
        self.history: History = history if history is not None else []
        self._resumed = resumed
        self._run_lock = threading.Lock()
        self._closed = False
        self._context_limit = ContextLimit(self._set_context)
        extra = add_ons(self) if add_ons is not None else SessionAddOns()
        # a tool asking mid-run (web_fetch's redirects) goes through the gate
        self.services = replace(extra.services, approval_gate=self.gate)
        self._extra_tools: list[Tool] = list(extra.tools)
        self._tool_sources = extra.tool_sources
        self._sections: list[str] = list(extra.system_sections)
        self._on_reset: list[Callable[[], None]] = list(extra.on_reset)
        self._on_switch: list[Callable[[], None]] = list(extra.on_switch)
        self._on_close: list[Callable[[], None]] = list(extra.on_close)
        self.tool_ctx = ToolContext(
            root=self.cwd, cancel=CancelToken(), approver=self.approver, emit=self.sink, ledger=self.file_ledger,
            services=self.services, checkpoints=Checkpoints(lambda: self.transcript_path),
        )
        self.tools = self._select_tools()
        self.conversation = self._new_conversation()
        self._announce()
        self._probe_context()

    # ------------------------------------------------------------------ what it is made of

    @property
    def provider_name(self) -> str:
        return self.agent.provider

    @property
    def transcript_path(self) -> Path | None:
        if self.transcript is None or not self.transcript.enabled:
            return None
        return self.transcript.path

    def secrets(self) -> list[str]:
        return session_secrets(self.config)

    def _select_tools(self) -> ToolRegistry:
        return self.tools_for(self.agent)

    def tools_for(self, agent: AgentConfig) -> ToolRegistry:
        """The tools `agent` gets in this session: the built-in ones and those added, as its config selects."""
        return ToolRegistry(_builtin_tools(agent, self.config) + self._extra_tools, sources=self._tool_sources).select(agent.tools)

    def _new_conversation(self) -> Conversation:
        return Conversation(
            self.agent, self.provider, self.tools, self.tool_ctx, self.gate, self.sink, self.transcript, self.budget,
            ledger=self.ledger, ids=self.ids, history=self.history, system_prompt=self.system_prompt,
            context_builder=self.agent.context_builder or self.config.context_builder,
            context_window_ratio=self.config.context_window_ratio, include_usage=self.config.include_usage,
        )

    def _announce(self) -> None:
        path = self.transcript_path
        self.sink(
            msgs.SessionStarted(
                session_id=self.session_id, transcript_path=str(path) if path else "", agent=self.agent.name,
                model=self.agent.model, provider=self.provider_name, cwd=str(self.cwd),
                resumed=self._resumed,
            )
        )

    def system_prompt(self) -> str:  # plan mode adds its note (tools.permission_mode)
        return self.gate.mode.framed(build_system_prompt(self.agent, self.cwd, self._sections,
                                                         compact=is_small(self.agent.max_context_tokens)))

    # ------------------------------------------------------------------ the context size

    def _probe_context(self) -> None:
        """The context size of this agent's model (core.context_limit); /usage names its source."""
        self.ledger.prompt_overhead = lambda: self.conversation.prompt_overhead()
        self._context_limit.find(self.config, self.agent, self.provider, self.ledger)

    def _set_context(self, tokens: int, source: str) -> None:
        self.agent = self.agent.model_copy(update={"max_context_tokens": tokens})
        self.conversation.agent = self.agent
        if is_small(tokens) and self.agent.context_builder is None:
            self.conversation.context_builder = "sliding"  # a small context cannot hold a whole session
        self.ledger.max_context_tokens = tokens
        self.ledger.context_source = source
        self.sink(msgs.UsageReported(usage=msgs.UsageInfo(), context_tokens=self.ledger.context_tokens,
                                     context_limit=tokens))

    def wait_for_context_size(self, timeout: float | None = None) -> None:
        """Until the server's answer about the context size is in (or `timeout` seconds)."""
        self._context_limit.wait(timeout)

    # ------------------------------------------------------------------ the run

    def run(self, prompt: str, cancel: CancelToken, *, attachments: Sequence[tuple[str, str]] = ()) -> RunResult:
        """One user turn with all its tool rounds. Blocking: call it from a worker thread."""
        if not self._run_lock.acquire(blocking=False):
            self.sink(msgs.Error(text="a run is already in progress"))
            return RunResult(final_text="", error="a run is already in progress")
        try:
            maybe_auto_compact(self, cancel)  # autoCompact: at 90 % of the context, before the next turn
            return self.conversation.run_turn(prompt, cancel, attachments=attachments)
        finally:
            self._run_lock.release()

    def compact(self, cancel: CancelToken) -> str:
        """/compact: summarise the older turns in the context (core.compact); "" when nothing changed."""
        if not self._run_lock.acquire(blocking=False):
            self.sink(msgs.Error(text="a run is in progress: /compact waits until it ends"))
            return ""
        try:
            return compact_session(self, cancel)
        finally:
            self._run_lock.release()

    # ------------------------------------------------------------------ changes between runs

    def reset(self) -> None:
        """A fresh conversation: new history, session id and transcript; a fresh tool budget."""
        for cb in list(self._on_reset):
            try:
                cb()
            except Exception as e:  # a failing hook must not leave the session half reset
                self.sink(msgs.Warning(text=f"reset hook failed: {type(e).__name__}: {e}".splitlines()[0], code="reset"))
        self.history.clear()
        self.ledger.reset_context()
        self.budget.refill()
        if self.transcript is not None:
            self.transcript.close()
        self.session_id = new_session_id()
        self.transcript = self._parts.transcripts.new(self.session_id, self.agent)
        self.conversation = self._new_conversation()
        self._announce()

    def switch_agent(self, name: str) -> None:
        """Go on with another configured agent; history is kept. Raises ConfigError."""
        agent = resolve_agent(self.config, name)
        problem = knob_problem(agent, self.config.provider(agent.provider).protocol)
        if problem:
            raise ConfigError(f"agent {agent.name}: {problem}")
        if agent.provider != self.agent.provider:
            self.provider = self._parts.provider_factory(self.config.provider(agent.provider))
            self.history[:] = unsigned(self.history)  # signatures are the old provider's (core.answer_blocks)
        self.agent = agent
        self.budget.limit = agent.max_tool_calls_per_session
        self.ledger.max_context_tokens = agent.max_context_tokens
        self.tools = self._select_tools()
        self.conversation = self._new_conversation()
        self._probe_context()
        changed = msgs.AgentChanged(agent=agent.name, model=agent.model, provider=agent.provider,
                                    protocol=protocol_of(self.provider))
        self.sink(changed)
        if self.transcript is not None:
            self.transcript.append(changed)
        self.sink(msgs.Notice(text=f"agent {agent.name} ({agent.model} on {agent.provider})"))
        for cb in list(self._on_switch):
            cb()

    def set_reasoning_effort(self, value: str | None) -> None:
        value = value.strip() if value else None
        problem = knob_problem(self.agent.model_copy(update={"reasoning_effort": value or None}), protocol_of(self.provider))
        if problem:
            raise ConfigError(problem)
        self.agent = self.agent.model_copy(update={"reasoning_effort": value or None})
        self.conversation.agent = self.agent
        self.conversation.reasoning_effort = self.agent.reasoning_effort

    def set_model(self, model: str) -> None:
        """/model NAME: the current agent goes on with another model of its provider (history kept)."""
        model = model.strip()
        if not model:
            raise ConfigError("name a model (/model lists them)")
        agent = self.agent.model_copy(update={"model": model})
        problem = knob_problem(agent, protocol_of(self.provider))
        if problem:
            raise ConfigError(problem)
        self.agent = agent
        self.conversation.agent = agent
        changed = msgs.AgentChanged(agent=agent.name, model=model, provider=agent.provider,
                                    protocol=protocol_of(self.provider))
        self.sink(changed)
        if self.transcript is not None:
            self.transcript.append(changed)

    def list_models(self) -> list[str]:
        """The provider's models from its server (GET /models on its wire). Raises ProviderError."""
        from mrsmith_tui.provider.factory import models_of

        return models_of(self.config.provider(self.agent.provider), api_key_for(self.config, self.agent.provider))

    def add_tools(self, tools: Iterable[Tool]) -> None:
        self._extra_tools.extend(tools)
        self.tools = self._select_tools()
        self.conversation.tools = self.tools

    def add_system_section(self, text: str) -> None:
        self._sections.append(text)

    def add_context(self, added: msgs.ContextAdded | str) -> None:
        """Put `added.entry` into the context (a loaded skill body); the Msg is posted and recorded."""
        self.conversation.add_context(added)

    def on_reset(self, cb: Callable[[], None]) -> None:
        self._on_reset.append(cb)

    def on_switch(self, cb: Callable[[], None]) -> None:
        """Run `cb` after every successful switch_agent."""
        self._on_switch.append(cb)

    def on_close(self, cb: Callable[[], None]) -> None:
        self._on_close.append(cb)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._context_limit.close()  # its connections close: it never holds the exit
        for cb in list(self._on_close):
            try:
                cb()
            except Exception:  # closing must reach the transcript whatever a hook does
                pass
        if self.transcript is not None:
            self.transcript.close()


def open_session(
    parts: SessionParts,
    *,
    agent: AgentConfig,
    session_id: str | None = None,
    append_to: Path | None = None,
    resumed: bool = False,
    history: History | None = None,
    add_ons: AddOnFactory | None = None,
) -> AgentSession:
    """A session on `agent` made of `parts`: a new one, or (`append_to`, the recorded transcript, and
    `session_id`) one that goes on with a recorded session."""
    provider = parts.provider_factory(parts.config.provider(agent.provider))
    session_id = session_id or new_session_id()
    if append_to is not None:
        transcript = parts.transcripts.append(append_to)
    else:
        transcript = parts.transcripts.new(session_id, agent)
    return AgentSession(parts, agent=agent, provider=provider, session_id=session_id, transcript=transcript,
                        history=history, resumed=resumed, add_ons=add_ons)


def build_session(
    *,
    config: Config,
    agent_name: str | None,
    cwd: Path,
    sink: Callable[[msgs.Msg], None],
    approver: Approver,
    persist: bool = True,
    provider_factory: ProviderFactory | None = None,
    session_id: str | None = None,
    append_to: Path | None = None,
    resumed: bool = False,
    history: History | None = None,
    gate_approver: Approver | None = None,
    allow: Iterable[str] = (),
    add_ons: AddOnFactory | None = None,
) -> AgentSession:
    """The session for `agent_name` (else the default agent). `gate_approver`, `allow`: see session_parts;
    `add_ons`: see AgentSession (agents.compose gives the fleet and skills). Raises config.load.ConfigError."""
    agent = resolve_agent(config, agent_name)
    parts = session_parts(config=config, agent=agent, cwd=cwd, sink=sink, approver=approver,
                          gate_approver=gate_approver, allow=allow, persist=persist, provider_factory=provider_factory)
    return open_session(parts, agent=agent, session_id=session_id, append_to=append_to, resumed=resumed,
                        history=history, add_ons=add_ons)
