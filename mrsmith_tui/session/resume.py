"""From transcript records back to a session: its history, and the Msgs that redraw it.

`rebuild(records)` gives the history exactly as the live run held it (the same typed
entries, `mrsmith_tui.history`, that Conversation appends), plus the agent the session was
last on and its usage, so a resumed session goes on where it stopped. A transcript cut by a kill is repaired: a tool
call that never got its result gets a stand-in result, so the next request is well formed.

`replay_msgs(records)` gives the Msg stream a frontend folds to draw the session with the
same blocks as a live one. Replayed ids (runs, blocks, tool calls) carry an "h" prefix so
they never collide with the ids of the live session that goes on after them.

Compaction lives in the history as marks: the entries a summary replaces get
`compacted=True` (the context builder leaves them out) and the summary follows them as
a UserEntry of kind "summary". `apply_compaction` is the one place that does it,
for the live /compact and for resume alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.history import (
    HistoryEntry,
    ToolCallBlock,
    ToolResultEntry,
    UserEntry,
    assistant,
)
from mrsmith_tui.session.records import FORMAT_VERSION
from mrsmith_tui.session.store import prompt_of

__all__ = [
    "Rebuilt", "rebuild", "rebuild_history", "replay_msgs", "apply_compaction", "summary_entry",
    "SUMMARY_PREFIX", "NO_RESULT",
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
    header: dict[str, Any] = field(default_factory=dict)
    format: int = 0
    agent: str = ""  # the agent, model and provider the session was last on
    model: str = ""
    provider: str = ""
    usage: list[tuple[str, msgs.UsageInfo]] = field(default_factory=list)  # (run_id, usage) per model call
    context_tokens: int = 0  # what the context held at the end
    runs: int = 0  # user turns
    last_run_number: int = 0  # the highest N of the "runN" ids used


def _tool_calls(raw: Any) -> list[ToolCallBlock]:
    """Tool calls from the record's flat shape or an older OpenAI one."""
    out = []
    for call in raw or []:
        if not isinstance(call, dict):
            continue
        fn = call.get("function") if isinstance(call.get("function"), dict) else call
        arguments = fn.get("arguments", "")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        out.append(ToolCallBlock(id=str(call.get("id", "")), name=str(fn.get("name", "")), arguments=arguments))
    return out


def _run_number(run_id: Any) -> int:
    text = str(run_id or "")
    return int(text[3:]) if text.startswith("run") and text[3:].isdigit() else 0


def _usage(record: dict[str, Any]) -> msgs.UsageInfo:
    def num(key: str) -> int:
        value = record.get(key)
        return int(value) if isinstance(value, (int, float)) else 0

    return msgs.UsageInfo(prompt_tokens=num("prompt_tokens"), completion_tokens=num("completion_tokens"), cached_tokens=num("cached_tokens"),
                          reasoning_tokens=num("reasoning_tokens"), estimated=bool(record.get("estimated", False)))


def rebuild(records: list[dict[str, Any]]) -> Rebuilt:
    out = Rebuilt()
    history = out.history
    pending: list[tuple[str, str]] = []  # (call id, name) of tool calls still waiting for a result

    def settle() -> None:
        for call_id, name in pending:
            history.append(ToolResultEntry(call_id=call_id, name=name, content=NO_RESULT))
        pending.clear()

    for index, r in enumerate(records):
        kind = r.get("type")
        if kind == "header":
            if index == 0:
                out.header = r
                out.format = r["format"] if isinstance(r.get("format"), int) else 0
                out.agent, out.model, out.provider = (str(r.get(k, "")) for k in ("agent", "model", "provider"))
                if out.format > FORMAT_VERSION:
                    out.warnings.append(
                        f"the transcript is format {out.format}, newer than this mrsmith reads ({FORMAT_VERSION}); "
                        "records it does not know are skipped"
                    )
        elif kind == "user":
            settle()
            out.runs += 1
            out.last_run_number = max(out.last_run_number, _run_number(r.get("run_id")))
            history.append(UserEntry(text=str(r.get("text", ""))))
        elif kind == "assistant":
            settle()
            content, reasoning = str(r.get("content") or ""), str(r.get("reasoning") or "")
            if r.get("partial"):
                if content:  # a cut answer with only reasoning never entered the history
                    history.append(assistant(content, reasoning, partial=True))
                continue
            calls = _tool_calls(r.get("tool_calls"))
            pending.extend((c.id, c.name) for c in calls)
            history.append(assistant(content, reasoning, tool_calls=tuple(calls)))
        elif kind == "tool_result":
            call_id = str(r.get("tool_call_id", ""))
            pending[:] = [p for p in pending if p[0] != call_id]
            history.append(ToolResultEntry(call_id=call_id, name=str(r.get("name", "")),
                                           content=str(r.get("content", ""))))
        elif kind == "skill":
            settle()
            text = r.get("context", r.get("text", r.get("body", "")))
            history.append(UserEntry(text=str(text), kind="context"))
        elif kind == "compaction":
            settle()
            replaces = r.get("replaces")
            apply_compaction(history, str(r.get("summary", "")), replaces if isinstance(replaces, int) else 0)
            if isinstance(r.get("context_tokens"), int):
                out.context_tokens = r["context_tokens"]
        elif kind == "agent_switch":
            out.agent = str(r.get("agent", out.agent))
            out.model = str(r.get("model", out.model))
            out.provider = str(r.get("provider", out.provider))
        elif kind == "usage":
            usage = _usage(r)
            out.usage.append((str(r.get("run_id", "")), usage))
            context = r.get("context_tokens")
            out.context_tokens = context if isinstance(context, int) else usage.prompt_tokens + usage.completion_tokens
        # error, warning, run_end and unknown types do not change the history
    settle()
    return out


def rebuild_history(records: list[dict[str, Any]]) -> list[HistoryEntry]:
    return rebuild(records).history


# --------------------------------------------------------------------------- replay


def _summary_of(name: str, arguments: str) -> str:
    """A short header for a replayed tool call (the live one came from the tool itself)."""
    try:
        args = json.loads(arguments) if arguments else {}
    except ValueError:
        return ""
    if not isinstance(args, dict):
        return ""
    for key in ("command", "path", "file_path", "pattern", "url", "description", "name"):
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            line = value.strip().splitlines()[0]
            return line if len(line) <= 100 else line[:99] + "…"
    return ""


class _Replayer:
    def __init__(self, context_limit: int) -> None:
        self.out: list[msgs.Msg] = []
        self.context_limit = context_limit
        self.blocks = 0
        self.run_id: str | None = None  # the open run (no run_end seen yet)
        self.calls: dict[str, tuple[str, str, float]] = {}  # call id -> (name, arguments, asked at), no result yet
        self.at = 0.0
        self.before = 0.0  # the `at` of the record before this one
        self.agent = ""
        self.model = ""

    def emit(self, msg_type: type, *, at: float | None = None, **fields: Any) -> None:
        at = self.at if at is None else at
        self.out.append(msg_type(at=at, **fields) if at else msg_type(**fields))

    def block(self, kind: str, text: str) -> None:
        # The transcript stamps a message when it is complete; it began streaming after the
        # record before it (the prompt or the last tool result), so that is when the block starts.
        self.blocks += 1
        block_id = f"h{'r' if kind == 'reasoning' else 't'}{self.blocks}"
        self.emit(msgs.ReasoningDelta if kind == "reasoning" else msgs.TextDelta, block_id=block_id, text=text,
                  at=self.before or self.at)
        self.emit(msgs.BlockEnded, block_id=block_id, kind=kind, text=text)

    def call_started(self, call_id: str, name: str = "") -> tuple[str, float]:
        """Post the ToolCallStarted of a call asked for earlier (or of `name`, never asked for);
        (its name, seconds from asking to now)."""
        name, arguments, asked = self.calls.pop(call_id, (name, "", self.at))
        self.emit(msgs.ToolCallStarted, call_id=f"h{call_id}", name=name, arguments=arguments,
                  summary=_summary_of(name, arguments), at=asked)
        return name, max(0.0, self.at - asked) if asked and self.at else 0.0

    def settle_calls(self) -> None:
        for call_id in list(self.calls):
            name, _ = self.call_started(call_id)
            self.emit(msgs.ToolCallFinished, call_id=f"h{call_id}", name=name, ok=False, result=NO_RESULT)

    def end_open_run(self) -> None:
        self.settle_calls()
        if self.run_id is not None:
            self.emit(msgs.Notice, text="this turn was cut off: the program stopped before it finished")
            self.emit(msgs.RunEnded, run_id=self.run_id, cancelled=True)
            self.run_id = None

    def record(self, r: dict[str, Any]) -> None:
        kind = r.get("type")
        at = r.get("at")
        self.before = self.at
        self.at = float(at) if isinstance(at, (int, float)) else 0.0
        if kind == "user":
            self.end_open_run()
            self.run_id = f"h{r.get('run_id') or 'run'}"
            self.emit(msgs.UserPrompt, run_id=self.run_id, text=prompt_of(str(r.get("text", ""))))
            self.emit(msgs.RunStarted, run_id=self.run_id, agent=self.agent, model=self.model)
        elif kind == "assistant":
            self.settle_calls()
            if r.get("reasoning"):
                self.block("reasoning", str(r["reasoning"]))
            if r.get("content"):
                self.block("text", str(r["content"]))
            for call in _tool_calls(r.get("tool_calls")):
                self.calls[call.id] = (call.name, call.arguments, self.at)
        elif kind == "tool_result":
            call_id = str(r.get("tool_call_id", ""))
            name, waited = self.call_started(call_id, str(r.get("name", "")))
            elapsed = r.get("elapsed")
            exit_code = r.get("exit_code")
            diff = r.get("diff")
            self.emit(msgs.ToolCallFinished, call_id=f"h{call_id}", name=name, ok=bool(r.get("ok", True)),
                      result=str(r.get("content", "")),
                      elapsed=float(elapsed) if isinstance(elapsed, (int, float)) else waited,
                      exit_code=exit_code if isinstance(exit_code, int) else None,
                      diff=diff if isinstance(diff, str) and diff else None, denied=r.get("denied") is True)
        elif kind == "usage":
            context = r.get("context_tokens")
            usage = _usage(r)
            self.emit(msgs.UsageReported, usage=usage,
                      context_tokens=context if isinstance(context, int) else usage.prompt_tokens + usage.completion_tokens,
                      context_limit=self.context_limit)
        elif kind == "error":
            self.emit(msgs.Error, text=str(r.get("text", "")))
        elif kind == "warning":
            self.emit(msgs.Warning, text=str(r.get("text", "")), code=str(r.get("code", "")))
        elif kind == "run_end":
            self.settle_calls()
            if self.run_id is not None:
                error = r.get("error")
                self.emit(msgs.RunEnded, run_id=self.run_id, cancelled=bool(r.get("cancelled", False)),
                          error=str(error) if error else None)
                self.run_id = None
        elif kind == "skill":
            self.emit(msgs.SkillLoaded, name=str(r.get("name", "")), path=str(r.get("path", "")))
        elif kind == "compaction":
            self.emit(msgs.Notice, text=f"compacted {r.get('replaces', 0)} earlier messages into a summary")
        elif kind in ("header", "agent_switch"):
            self.agent, self.model = str(r.get("agent", self.agent)), str(r.get("model", self.model))
        if kind == "agent_switch":
            self.emit(msgs.Notice, text=f"agent {r.get('agent', '')} ({r.get('model', '')} on {r.get('provider', '')})")


def replay_msgs(records: list[dict[str, Any]], *, context_limit: int = 0) -> list[msgs.Msg]:
    """The Msgs that draw the recorded session as a live run drew it (header excluded)."""
    replayer = _Replayer(context_limit)
    for r in records:
        replayer.record(r)
    replayer.end_open_run()
    return replayer.out
