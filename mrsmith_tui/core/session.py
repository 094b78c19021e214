"""The session facade: one person's conversation with one (switchable) agent.

`build_session` is the composition step the CLI and the TUI call: it resolves the agent,
builds its provider, tools, approval gate, usage ledger and transcript, and returns an
`AgentSession`. `run` is blocking (call it from a worker thread); everything it does
reaches the frontend as Msgs through the sink.

History is a plain list of OpenAI message dicts (plus "reasoning"), without the system
prompt, which is rebuilt for every call (so sections added later take effect); resume can
rebuild a session by filling `history`. `/reset` starts a fresh session id and transcript,
so a transcript always holds one continuous conversation.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from mrsmith_tui import __version__, msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.load import api_key_for, resolve_agent, sessions_dir
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.budget import ToolCallBudget
from mrsmith_tui.core.compact import compact as compact_session
from mrsmith_tui.core.compact import maybe_auto_compact
from mrsmith_tui.core.conversation import Conversation, RunResult
from mrsmith_tui.core.ids import IdSource
from mrsmith_tui.core.prompt import build_system_prompt
from mrsmith_tui.core.small_context import is_small
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.provider.base import Provider
from mrsmith_tui.session import records
from mrsmith_tui.session.transcript import TranscriptWriter, new_session_id
from mrsmith_tui.tools.approval import ApprovalGate, Permission
from mrsmith_tui.tools.base import Approver, Tool, ToolContext
from mrsmith_tui.tools.registry import ToolRegistry

__all__ = ["AgentSession", "RunResult", "build_session", "default_provider_factory"]

ProviderFactory = Callable[[ProviderConfig], Provider]

CONTEXT_PROBE_WAIT = 5.0  # seconds the first run waits for the server to tell its context size


def default_provider_factory(config: Config) -> ProviderFactory:
    from mrsmith_tui.provider.openai_compat import make_provider

    return lambda pc: make_provider(pc, api_key_for(config, pc.name), config.include_usage)


def _builtin_tools(agent: AgentConfig, config: Config) -> list[Tool]:
    from mrsmith_tui.tools.builtin import builtin_tools  # here: nine tool modules, not needed to import the core

    return list(builtin_tools(agent, config))


def _file_ledger() -> Any:
    try:
        from mrsmith_tui.tools.ledger import FileLedger
    except ModuleNotFoundError as e:
        if e.name != "mrsmith_tui.tools.ledger":
            raise
        return None
    return FileLedger()


class AgentSession:
    def __init__(
        self,
        *,
        config: Config,
        agent: AgentConfig,
        cwd: Path,
        sink: Callable[[msgs.Msg], None],
        approver: Approver,
        persist: bool = True,
        provider_factory: ProviderFactory | None = None,
        session_id: str | None = None,
        append_to: Path | None = None,
        resumed: bool = False,
    ) -> None:
        """Resuming: `resumed` (SessionStarted says so) and `append_to`, the recorded transcript to go on
        writing without a new header (None with persist off)."""
        self.config = config
        self.agent = agent
        self.cwd = Path(cwd).resolve()
        self.sink = sink
        self.approver = approver
        self.persist = persist
        self._provider_factory = provider_factory or default_provider_factory(config)
        self.services: dict[str, Any] = {}
        self.ids = IdSource()
        self.gate = ApprovalGate(approver, [Permission(spec, "config") for spec in config.allow])
        self.services["approval_gate"] = self.gate  # a tool asking mid-run (web_fetch's redirects) goes through it
        self.file_ledger = _file_ledger()
        self.budget = ToolCallBudget(agent.max_tool_calls_per_session)
        self.ledger = UsageLedger(sink, max_context_tokens=agent.max_context_tokens, budget=self.budget)
        self.history: list[dict[str, Any]] = []
        self._sections: list[str] = []
        self._extra_tools: list[Tool] = []
        self._on_reset: list[Callable[[], None]] = []
        self._on_close: list[Callable[[], None]] = []
        self._on_switch: list[Callable[[], None]] = []
        self._run_lock = threading.Lock()
        self._closed = False
        self.tool_ctx = ToolContext(
            root=self.cwd, cancel=CancelToken(), approver=approver, emit=sink, ledger=self.file_ledger,
            services=self.services,
        )
        self.provider = self._provider_factory(config.provider(agent.provider))
        self.tools = self._select_tools()
        self.session_id = session_id or new_session_id()
        self._append_to = append_to
        self._resumed = resumed
        self.transcript = self._open_transcript()
        self.conversation = self._new_conversation()
        self._announce()
        self._context_probe: threading.Thread | None = None
        self._probe_context()

    # ------------------------------------------------------------------ composition

    @property
    def provider_name(self) -> str:
        return self.agent.provider

    @property
    def transcript_path(self) -> Path | None:
        if self.transcript is None or not self.transcript.enabled:
            return None
        return self.transcript.path

    def secrets(self) -> list[str]:
        keys = {pc.api_key for pc in self.config.providers if pc.api_key}
        keys |= {k for pc in self.config.providers if (k := api_key_for(self.config, pc.name))}
        return sorted(keys)

    def _open_transcript(self) -> TranscriptWriter | None:
        if not self.persist:
            return None
        if self._append_to is not None:
            return TranscriptWriter(self._append_to, sink=self.sink, secrets=self.secrets())
        path = sessions_dir(self.config) / self.session_id / "transcript.jsonl"
        header = records.header(
            session_id=self.session_id, created=time.time(), cwd=str(self.cwd), agent=self.agent.name,
            model=self.agent.model, provider=self.provider_name, version=__version__,
        )
        return TranscriptWriter(path, sink=self.sink, secrets=self.secrets(), header=header)

    def _select_tools(self) -> ToolRegistry:
        return self.tools_for(self.agent)

    def tools_for(self, agent: AgentConfig) -> ToolRegistry:
        """The tools `agent` gets in this session: the built-in ones and those added, as its config selects."""
        return ToolRegistry(_builtin_tools(agent, self.config) + self._extra_tools).select(agent.tools)

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

    def system_prompt(self) -> str:
        return build_system_prompt(self.agent, self.cwd, self._sections, compact=is_small(self.agent.max_context_tokens))

    # ------------------------------------------------------------------ the context size

    def _probe_context(self) -> None:
        """The context size: the server's when it tells (asked in a thread; the first run waits for
        the answer), else the config's maxContextTokens, else the default. /usage names the source."""
        agent = self.agent
        configured = "max_context_tokens" in agent.model_fields_set
        self.ledger.context_source = "config (maxContextTokens)" if configured else "default (set maxContextTokens)"
        self.ledger.prompt_overhead = lambda: self.conversation.prompt_overhead()
        base_url = getattr(self.provider, "base_url", None)
        if not isinstance(base_url, str) or os.environ.get("MRSMITH_NO_CONTEXT_PROBE"):
            return
        api_key = api_key_for(self.config, agent.provider)

        def probe() -> None:
            from mrsmith_tui.provider.context_probe import probe_context_size

            try:
                tokens, source = probe_context_size(base_url, agent.model, api_key)
            except Exception:  # noqa: BLE001 - a server that cannot tell leaves the configured size
                return
            if tokens and self.agent is agent and not self._closed:
                self._set_context(tokens, f"the server ({source})")

        self._context_probe = threading.Thread(target=probe, name="mrsmith-context-probe", daemon=True)
        self._context_probe.start()

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
        probe = self._context_probe
        if probe is not None and probe is not threading.current_thread():
            probe.join(timeout)

    # ------------------------------------------------------------------ the run

    def run(self, prompt: str, cancel: CancelToken, *, attachments: Sequence[tuple[str, str]] = ()) -> RunResult:
        """One user turn with all its tool rounds. Blocking: call it from a worker thread."""
        if not self._run_lock.acquire(blocking=False):
            self.sink(msgs.Error(text="a run is already in progress"))
            return RunResult(final_text="", error="a run is already in progress")
        try:
            # A slow or silent server does not hold the first turn up for long; its answer still counts later.
            self.wait_for_context_size(CONTEXT_PROBE_WAIT)
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
        self.transcript = self._open_transcript()
        self.conversation = self._new_conversation()
        self._announce()

    def switch_agent(self, name: str) -> None:
        """Go on with another configured agent; history is kept. Raises ConfigError."""
        agent = resolve_agent(self.config, name)
        if agent.provider != self.agent.provider:
            self.provider = self._provider_factory(self.config.provider(agent.provider))
        self.agent = agent
        self.budget.limit = agent.max_tool_calls_per_session
        self.ledger.max_context_tokens = agent.max_context_tokens
        self.tools = self._select_tools()
        self.conversation = self._new_conversation()
        self._probe_context()
        if self.transcript is not None:
            self.transcript.append(
                {"type": "agent_switch", "agent": agent.name, "model": agent.model, "provider": agent.provider}
            )
        self.sink(msgs.Notice(text=f"agent {agent.name} ({agent.model} on {agent.provider})"))
        for cb in list(self._on_switch):
            cb()

    def set_reasoning_effort(self, value: str | None) -> None:
        value = value.strip() if value else None
        self.agent = self.agent.model_copy(update={"reasoning_effort": value or None})
        self.conversation.agent = self.agent
        self.conversation.reasoning_effort = self.agent.reasoning_effort

    def add_tools(self, tools: Iterable[Tool]) -> None:
        self._extra_tools.extend(tools)
        self.tools = self._select_tools()
        self.conversation.tools = self.tools

    def add_system_section(self, text: str) -> None:
        self._sections.append(text)

    def add_context(self, role_text: str, record: dict | None = None) -> None:
        """Put text into the context as a user message (a loaded skill body); `record` goes to the transcript."""
        self.conversation.add_context(role_text, record)

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
        for cb in list(self._on_close):
            try:
                cb()
            except Exception:  # closing must reach the transcript whatever a hook does
                pass
        if self.transcript is not None:
            self.transcript.close()


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
) -> AgentSession:
    """The session for `agent_name` (else the default agent). Raises config.load.ConfigError."""
    agent = resolve_agent(config, agent_name)
    return AgentSession(
        config=config, agent=agent, cwd=cwd, sink=sink, approver=approver, persist=persist,
        provider_factory=provider_factory, session_id=session_id, append_to=append_to,
        resumed=resumed,
    )
