"""Resume: an AgentSession that goes on with a recorded session, appending to its transcript.

The history is rebuilt from the records (`session.rebuild.rebuild`), the usage ledger gets
the recorded usage back (the gauge shows what the context held), and new records go to the
same transcript (no second header). The session goes on with the agent it was last on
unless another is asked for (or that one is no longer configured); when the agent, model or
provider differs from the recorded one, an AgentChanged (recorded) and a Notice say so.

Two steps around building the session, so any composition can resume: `open_recorded` reads
the recorded session (before it is built: which folder, which agent, which id and transcript),
`go_on` restores the rest into the built session. `resume_session` is both around a session
without add-ons; agents.compose puts its own session between them.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from mrsmith_tui import msgs
from mrsmith_tui.config.load import sessions_dir
from mrsmith_tui.config.schema import Config, ProviderConfig
from mrsmith_tui.config.vendors import protocol_of, vendor
from mrsmith_tui.core.answer_blocks import unsigned
from mrsmith_tui.core.session import AgentSession, build_session
from mrsmith_tui.core.session_api import AddOnFactory, Sink
from mrsmith_tui.provider.types import Provider
from mrsmith_tui.session.rebuild import Rebuilt, rebuild
from mrsmith_tui.session.records import header_of
from mrsmith_tui.session.replay import for_screen
from mrsmith_tui.session.store import SessionNotFound, load_records, transcript_of
from mrsmith_tui.tools.base import Approver

__all__ = ["RecordedSession", "go_on", "load_records", "locate_transcript", "open_recorded", "resume_session"]


def locate_transcript(config: Config, target: str | Path | None, cwd: Path) -> Path:
    """The transcript of `target`: a transcript path, a session id (prefix), or None for the newest
    session started in `cwd`. Raises SessionNotFound."""
    return transcript_of(sessions_dir(config), target, cwd)


class OtherFolder(SessionNotFound):
    """The session was started in another folder and the caller did not say to go on there."""

    def __init__(self, message: str, folder: Path) -> None:
        super().__init__(message)
        self.folder = folder


def session_folder(records: list[msgs.Msg]) -> Path | None:
    header = header_of(records)
    return Path(header.cwd) if header is not None and header.cwd else None


def check_folder(path: Path, records: list[msgs.Msg], cwd: Path, *, other_folder: bool) -> Path:
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
    header = header_of(records)
    session_id = (header.session_id if header else "") or path.parent.name
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


@dataclass(frozen=True)
class RecordedSession:
    """A recorded session, read and ready to go on with."""

    path: Path  # its transcript
    records: list[msgs.Msg]  # its transcript's Msgs (older formats migrated)
    warnings: list[str]
    cwd: Path  # the folder it works in: its own
    state: Rebuilt
    session_id: str
    agent_name: str | None  # the agent to go on with (None: the default agent)


def open_recorded(
    *,
    config: Config,
    cwd: Path,
    sink: Sink,
    target: str | Path | None = None,
    agent_name: str | None = None,
    persist: bool = True,
    other_folder: bool = False,
) -> RecordedSession:
    """The recorded session `target` (id prefix, transcript path, or None for the newest in `cwd`),
    before its session is built. Raises SessionNotFound (OtherFolder)."""
    path = locate_transcript(config, target, cwd)
    records, warnings = load_records(path)
    work = check_folder(path, records, cwd, other_folder=other_folder)
    if work != cwd:
        sink(msgs.Notice(text=f"this session belongs to {work}: working there"))
        cwd = work
    state = rebuild(records)
    session_id = (state.header.session_id if state.header else "") or path.parent.name
    name = _choose_agent(config, agent_name, state, sink)
    if persist:  # appending to the recorded transcript, wherever it is: first cut a torn last line
        _mend_tail(path, sink)
    return RecordedSession(path=path, records=records, warnings=warnings, cwd=cwd, state=state, session_id=session_id,
                           agent_name=name)


def _summarizer(session: AgentSession) -> Callable[[str, str], str]:
    """A replayed tool call's header in its tool's own words (todowrite, question, the agent tools)."""
    def summarize(name: str, arguments: str) -> str:
        tool = session.tools.get(name)
        args = json.loads(arguments) if arguments else {}
        return tool.summary(args) if tool is not None and isinstance(args, dict) else ""
    return summarize


def go_on(session: AgentSession, recorded: RecordedSession, *, replay: bool = False) -> None:
    """The rest of `recorded` into its freshly built session (built with its id, transcript and
    history): the usage, the run ids, the replayed Msgs (`replay`: the TUI draws them), warnings."""
    state = recorded.state
    _restore_usage(session, state)
    for _ in range(state.last_run_number):  # new run ids go on after the recorded ones
        session.ids.next("run")
    if replay:
        for m in for_screen(recorded.records, context_limit=session.agent.max_context_tokens,
                            summarize=_summarizer(session)):
            if isinstance(m, msgs.TasksChanged):  # the model goes on with the list it left
                session.tool_ctx.tasks = list(m.todos)
            session.sink(m)
    for text in recorded.warnings + state.warnings:
        session.sink(msgs.Warning(text=text, code="transcript"))
    _note_switch(session, state)
    session.sink(msgs.Notice(text=f"resumed session {recorded.session_id} ({state.runs} turn{'s' if state.runs != 1 else ''})"))


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
    gate_approver: Approver | None = None,
    allow: Iterable[str] = (),
    add_ons: AddOnFactory | None = None,
) -> AgentSession:
    """An AgentSession on the recorded session `target` (id prefix, transcript path, or None for the
    newest in `cwd`). `replay=True` posts the recorded session's Msgs to the sink first (the TUI draws
    it; headless leaves it out). The rest as for build_session. Raises SessionNotFound or ConfigError."""
    recorded = open_recorded(config=config, cwd=cwd, sink=sink, target=target, agent_name=agent_name,
                             persist=persist, other_folder=other_folder)
    session = build_session(
        config=config, agent_name=recorded.agent_name, cwd=recorded.cwd, sink=sink, approver=approver,
        persist=persist, provider_factory=provider_factory, session_id=recorded.session_id,
        append_to=recorded.path if persist else None, resumed=True, history=list(recorded.state.history),
        gate_approver=gate_approver, allow=allow, add_ons=add_ons,
    )
    go_on(session, recorded, replay=replay)
    return session


def _mend_tail(path: Path, sink: Callable[[msgs.Msg], None]) -> None:
    """Make the file end at a line end before appending: a torn last record (a kill mid-write) is
    cut off, a whole one that only lacks its newline gets it. Otherwise the next record would
    be glued to the torn bytes and lost with them."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)  # never cut the file a link points to
        with os.fdopen(fd, "r+b") as f:
            data = f.read()
            if not data or data.endswith(b"\n"):
                return
            start = data.rfind(b"\n") + 1
            try:
                whole = isinstance(json.loads(data[start:].decode("utf-8")), dict)
            except (UnicodeDecodeError, ValueError, RecursionError):
                whole = False
            if whole:
                f.write(b"\n")
            else:
                f.truncate(start)
    except OSError as e:  # the writer will report it when it fails to append
        if e.errno != errno.ELOOP:  # a symbolic link: the writer refuses it and says so, once
            sink(msgs.Warning(text=f"cannot repair the end of {path}: {e.strerror or e}", code="transcript"))


def _restore_usage(session: AgentSession, state: Rebuilt) -> None:
    for run_id, usage in state.usage:
        session.ledger.add(run_id, usage)
    session.ledger.context_tokens = state.context_tokens


def _note_switch(session: AgentSession, state: Rebuilt) -> None:
    _note_wire(session, state)
    agent = session.agent
    now = (agent.name, agent.model, agent.provider)
    was = (state.agent, state.model, state.provider)
    if not any(was) or (now == was and state.protocol in ("", protocol_of(session.provider))):
        return
    h = state.header or msgs.TranscriptHeader(format=0, session_id="", created=0.0, cwd="", agent="?", model="?")
    started = f"{h.agent} ({h.model}" + (f" on {h.provider})" if h.provider else ")")
    changed = msgs.AgentChanged(agent=agent.name, model=agent.model, provider=agent.provider,
                                protocol=protocol_of(session.provider))
    session.sink(changed)
    if session.transcript is not None:
        session.transcript.append(changed)
    session.sink(msgs.Notice(text=f"continuing on agent {agent.name} (model {agent.model} on {agent.provider}) — started on {started}"))



def _note_wire(session: AgentSession, state: Rebuilt) -> None:
    """Resuming on another protocol says so, and what that means for the thinking already recorded."""
    now = protocol_of(session.provider)
    was = state.protocol
    if not was or was == now:
        return
    session.history[:] = unsigned(session.history)  # another vendor verifies no signature (core.answer_blocks)
    wire_now, wire_was = vendor(now).wire, vendor(was).wire
    words = {"chat": "Chat Completions", "messages": "Messages"}
    if wire_now != wire_was:
        what = (f"the session started on the {was} protocol ({words[wire_was]} wire) and goes on on {now} "
                f"({words[wire_now]} wire): the history is translated for the new wire")
        if wire_now == "messages":
            what += "; its earlier reasoning carries no signature, so it is not sent back"
    else:
        what = f"the session started on the {was} protocol and goes on on {now} (same {words[wire_now]} wire)"
    session.sink(msgs.Notice(text=what))
