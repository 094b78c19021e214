"""Resume: an AgentSession that goes on with a recorded session, appending to its transcript.

The history is rebuilt from the records (`session.resume.rebuild`), the usage ledger gets
the recorded usage back (the gauge shows what the context held), and new records go to the
same transcript (no second header). The session goes on with the agent it was last on
unless another is asked for (or that one is no longer configured); when the agent, model or
provider differs from the recorded one, an `agent_switch` record and a Notice say so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from mrsmith_tui import msgs
from mrsmith_tui.config.load import sessions_dir
from mrsmith_tui.config.schema import Config, ProviderConfig
from mrsmith_tui.core.session import AgentSession, build_session
from mrsmith_tui.provider.base import Provider
from mrsmith_tui.session.resume import Rebuilt, rebuild, replay_msgs
from mrsmith_tui.session.store import SessionNotFound, load_records, transcript_of
from mrsmith_tui.tools.base import Approver

__all__ = ["resume_session", "locate_transcript", "load_records"]


def locate_transcript(config: Config, target: str | Path | None, cwd: Path) -> Path:
    """The transcript of `target`: a transcript path, a session id (prefix), or None for the newest
    session started in `cwd`. Raises SessionNotFound."""
    return transcript_of(sessions_dir(config), target, cwd)


class OtherFolder(SessionNotFound):
    """The session was started in another folder and the caller did not say to go on there."""

    def __init__(self, message: str, folder: Path) -> None:
        super().__init__(message)
        self.folder = folder


def session_folder(records: list[dict[str, Any]]) -> Path | None:
    cwd = records[0].get("cwd") if records and records[0].get("type") == "header" else None
    return Path(cwd) if isinstance(cwd, str) and cwd else None


def check_folder(path: Path, records: list[dict[str, Any]], cwd: Path, *, other_folder: bool) -> Path:
    """The folder the resumed session works in: its own. Raises OtherFolder when that is not `cwd`
    and `other_folder` was not given (headless: --other-folder; the TUI asks first)."""
    folder = session_folder(records)
    if folder is None:
        return cwd
    try:
        same = folder.resolve() == Path(cwd).resolve()
    except OSError:
        same = False
    if same:
        return cwd
    session_id = str(records[0].get("id") or path.parent.name)
    if not folder.is_dir():
        raise SessionNotFound(f"session {session_id} belongs to {folder}, which no longer exists")
    if not other_folder:
        raise OtherFolder(f"session {session_id} belongs to {folder}, not this folder ({Path(cwd).resolve()}); "
                          f"run mrsmith there, or add --other-folder to go on with it (it works in {folder})", folder)
    return folder


def _choose_agent(config: Config, asked: str | None, state: Rebuilt, sink: Callable[[msgs.Msg], None]) -> str | None:
    if asked is not None:
        return asked
    names = {a.name for a in config.agents}
    if state.agent in names:
        return state.agent
    if state.agent:
        sink(msgs.Notice(text=f"agent {state.agent!r} of this session is not configured any more; using the default agent"))
    return None


def resume_session(
    *,
    config: Config,
    cwd: Path,
    sink: Callable[[msgs.Msg], None],
    approver: Approver,
    target: str | Path | None = None,
    agent_name: str | None = None,
    persist: bool = True,
    provider_factory: Callable[[ProviderConfig], Provider] | None = None,
    replay: bool = False,
    other_folder: bool = False,
) -> AgentSession:
    """An AgentSession on the recorded session `target` (id prefix, transcript path, or None for the
    newest in `cwd`). `replay=True` posts the recorded session's Msgs to the sink first (the TUI
    draws it; headless leaves it out). Raises SessionNotFound or ConfigError."""
    path = locate_transcript(config, target, cwd)
    records, warnings = load_records(path)
    work = check_folder(path, records, cwd, other_folder=other_folder)
    if work != cwd:
        sink(msgs.Notice(text=f"this session belongs to {work}: working there"))
        cwd = work
    state = rebuild(records)
    session_id = str(state.header.get("id") or path.parent.name)
    name = _choose_agent(config, agent_name, state, sink)
    if persist:  # appending to the recorded transcript, wherever it is: first cut a torn last line
        _mend_tail(path, sink)
    session = build_session(
        config=config, agent_name=name, cwd=cwd, sink=sink, approver=approver, persist=persist,
        provider_factory=provider_factory, session_id=session_id, append_to=path if persist else None,
        resumed=True,
    )
    session.history.extend(state.history)
    _restore_usage(session, state)
    for _ in range(state.last_run_number):  # new run ids go on after the recorded ones
        session.ids.next("run")
    if replay:
        for m in replay_msgs(records, context_limit=session.agent.max_context_tokens):
            sink(m)
    for text in warnings + state.warnings:
        sink(msgs.Warning(text=text, code="transcript"))
    _note_switch(session, state)
    sink(msgs.Notice(text=f"resumed session {session_id} ({state.runs} turn{'s' if state.runs != 1 else ''})"))
    return session


def _mend_tail(path: Path, sink: Callable[[msgs.Msg], None]) -> None:
    """Make the file end at a line end before appending: a torn last record (a kill mid-write) is
    cut off, a whole one that only lacks its newline gets it. Otherwise the next record would
    be glued to the torn bytes and lost with them."""
    try:
        with open(path, "r+b") as f:
            data = f.read()
            if not data or data.endswith(b"\n"):
                return
            start = data.rfind(b"\n") + 1
            try:
                whole = isinstance(json.loads(data[start:].decode("utf-8")), dict)
            except (UnicodeDecodeError, ValueError):
                whole = False
            if whole:
                f.write(b"\n")
            else:
                f.truncate(start)
    except OSError as e:  # the writer will report it when it fails to append
        sink(msgs.Warning(text=f"cannot repair the end of {path}: {e.strerror or e}", code="transcript"))


def _restore_usage(session: AgentSession, state: Rebuilt) -> None:
    for run_id, usage in state.usage:
        session.ledger.add(run_id, usage)
    session.ledger.context_tokens = state.context_tokens


def _note_switch(session: AgentSession, state: Rebuilt) -> None:
    agent = session.agent
    now = (agent.name, agent.model, agent.provider)
    was = (state.agent, state.model, state.provider)
    if not any(was) or now == was:
        return
    if session.transcript is not None:
        session.transcript.append({"type": "agent_switch", "agent": agent.name, "model": agent.model, "provider": agent.provider})
    h = state.header
    started = f"{h.get('agent', '?')} ({h.get('model', '?')}" + (f" on {h['provider']})" if h.get("provider") else ")")
    session.sink(msgs.Notice(text=f"continuing on agent {agent.name} (model {agent.model} on {agent.provider}) — started on {started}"))

