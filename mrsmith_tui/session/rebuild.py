"""From a transcript's Msgs back to a session: its history, its agent, its usage.

`rebuild(msgs)` gives the history exactly as the live run held it (the same typed entries,
`mrsmith_tui.history`, that Conversation appends: PromptRecorded, AnswerRecorded, ContextAdded
and ToolCallFinished carry them, Compacted marks them), plus the agent the session was last on
and its usage, so a resumed session goes on where it stopped. A transcript cut by a kill is
repaired: a tool call that never got its result gets a stand-in result, so the next request is
well formed. (What redraws the session is session.replay.)

Compaction lives in the history as marks: the entries a summary replaces get
`compacted=True` (the context builder leaves them out) and the summary follows them as
a UserEntry of kind "summary". `apply_compaction` is the one place that does it,
for the live /compact and for resume alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from mrsmith_tui import msgs
from mrsmith_tui.history import HistoryEntry, ToolResultEntry, UserEntry
from mrsmith_tui.session.records import FORMAT_VERSION

__all__ = [
    "NO_RESULT",
    "SUMMARY_PREFIX",
    "Rebuilt",
    "apply_compaction",
    "rebuild",
    "rebuild_history",
    "summary_entry",
]

SUMMARY_PREFIX = "[Summary of the earlier conversation, written when the context was compacted]\n\n"
NO_RESULT = "(no result: the program stopped before this tool call finished)"


def summary_entry(summary: str) -> UserEntry:
    return UserEntry(text=SUMMARY_PREFIX + summary, kind="summary")


def apply_compaction(history: list[HistoryEntry], summary: str, replaces: int) -> None:
    """Mark the first `replaces` entries as compacted and put the summary after them (in place)."""
    replaces = max(0, min(replaces, len(history)))
    for i in range(replaces):
        if not history[i].compacted:
            history[i] = history[i].model_copy(update={"compacted": True})
    history.insert(replaces, summary_entry(summary))


@dataclass
class Rebuilt:
    history: list[HistoryEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    header: msgs.TranscriptHeader | None = None
    format: int = 0
    agent: str = ""  # the agent, model and provider the session was last on
    model: str = ""
    provider: str = ""
    protocol: str = ""  # "" when the transcript never said (then the wire it was on is not known)
    usage: list[tuple[str, msgs.UsageInfo]] = field(default_factory=list)  # (run_id, usage) per model call
    context_tokens: int = 0  # what the context held at the end
    runs: int = 0  # user turns
    last_run_number: int = 0  # the highest N of the "runN" ids used


def _run_number(run_id: str) -> int:
    return int(run_id[3:]) if run_id.startswith("run") and run_id[3:].isdigit() else 0


class _Rebuild:
    def __init__(self) -> None:
        self.out = Rebuilt()
        self.pending: list[tuple[str, str]] = []  # (call id, name) of tool calls still waiting for a result
        self.run: str | None = None  # the run open (a kill leaves one open until the next prompt)
        self.usage: msgs.UsageReported | None = None  # a model call not yet counted (a compaction's?)
        self.counted: set[str] = set()  # runs counted: at the person's prompt, or at its record

    def settle(self) -> None:
        for call_id, name in self.pending:
            self.out.history.append(ToolResultEntry(call_id=call_id, name=name, content=NO_RESULT))
        self.pending.clear()

    def count_run(self, run_id: str) -> None:
        if run_id not in self.counted:
            self.counted.add(run_id)
            self.out.runs += 1
            self.out.last_run_number = max(self.out.last_run_number, _run_number(run_id))

    def count_usage(self, run_id: str) -> None:
        if self.usage is not None:
            self.out.usage.append((run_id, self.usage.usage))
            self.usage = None

    def msg(self, index: int, m: msgs.Msg) -> None:
        out = self.out
        if not isinstance(m, msgs.Compacted):  # a compaction's model call comes right before it
            self.count_usage(self.run or "compact")
        if isinstance(m, msgs.TranscriptHeader):
            if index == 0:
                self.header(m)
        elif isinstance(m, msgs.UserPrompt):
            # A kill between the prompt and its record leaves a turn the screen shows (cut off) but the
            # history never held: it still counts as a turn, as the replay counts it.
            self.count_run(m.run_id)
        elif isinstance(m, msgs.PromptRecorded):
            self.settle()
            self.run = m.run_id
            self.count_run(m.run_id)
            out.history.append(m.entry)
        elif isinstance(m, msgs.AnswerRecorded):
            self.settle()
            entry = m.entry
            if entry.partial and not entry.text:  # a cut answer with only reasoning never entered the history
                return
            self.pending.extend((c.id, c.name) for c in entry.tool_calls)
            out.history.append(entry)
        elif isinstance(m, msgs.ToolCallFinished):
            self.pending[:] = [p for p in self.pending if p[0] != m.call_id]
            out.history.append(ToolResultEntry(call_id=m.call_id, name=m.name, content=m.result))
        elif isinstance(m, msgs.ContextAdded):
            self.settle()
            out.history.append(m.entry)
        elif isinstance(m, msgs.Compacted):
            self.count_usage("compact")
            self.settle()
            apply_compaction(out.history, m.summary, m.replaces)
            out.context_tokens = m.context_tokens
        elif isinstance(m, msgs.AgentChanged):
            out.agent, out.model, out.provider = m.agent, m.model, m.provider
            out.protocol = m.protocol or "openai"
        elif isinstance(m, msgs.UsageReported):
            self.usage = m
            out.context_tokens = m.context_tokens
        elif isinstance(m, msgs.RunEnded):
            self.run = None
        # the rest (what the screen shows) does not change the history

    def header(self, h: msgs.TranscriptHeader) -> None:
        out = self.out
        out.header, out.format = h, h.format
        out.agent, out.model, out.provider = h.agent, h.model, h.provider
        out.protocol = h.protocol or "openai"
        if h.format > FORMAT_VERSION:
            out.warnings.append(
                f"the transcript is format {h.format}, newer than this mrsmith reads ({FORMAT_VERSION}); "
                "records it does not know are skipped"
            )


def rebuild(records: Iterable[msgs.Msg]) -> Rebuilt:
    """The session a transcript's Msgs (session.transcript.read_transcript) record."""
    state = _Rebuild()
    for index, m in enumerate(records):
        state.msg(index, m)
    state.count_usage(state.run or "compact")
    state.settle()
    return state.out


def rebuild_history(records: Iterable[msgs.Msg]) -> list[HistoryEntry]:
    return rebuild(records).history
