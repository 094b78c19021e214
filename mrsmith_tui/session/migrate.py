"""Transcripts of formats 0 and 1 (record dicts, before #15) as format-2 Msgs.

`from_v1(records)` gives, record by record, the Msgs a format-2 writer would have written for
the same session, so one reader serves every transcript: resume rebuilds the same history, the
screen draws the same blocks, export writes the same Markdown. What the old records did not keep
is filled in as the old replay did: a turn's UserPrompt is the prompt without its attachments,
its RunStarted names the agent the session was on, an answer began at the record before it, a
tool call that kept no `elapsed` took from its answer to its result.

Format 0 (a header without `format`) kept tool calls in the OpenAI shape; both shapes are read.
Types it does not know are skipped, as every reader does.
"""

from __future__ import annotations

import json
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.history import ToolCallBlock, UserEntry, assistant
from mrsmith_tui.session.records import prompt_of

__all__ = ["from_v1", "tool_calls_of"]


def tool_calls_of(raw: Any) -> list[ToolCallBlock]:
    """The tool calls of an `assistant` record, in its flat shape or the OpenAI one."""
    out = []
    for call in raw or []:
        if not isinstance(call, dict):
            continue
        fn: dict[str, Any] = call["function"] if isinstance(call.get("function"), dict) else call
        arguments = fn.get("arguments", "")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        out.append(ToolCallBlock(id=str(call.get("id", "")), name=str(fn.get("name", "")), arguments=arguments))
    return out


def _int(record: dict[str, Any], key: str) -> int:
    value = record.get(key)
    return int(value) if isinstance(value, (int, float)) else 0


def _usage(record: dict[str, Any]) -> msgs.UsageInfo:
    return msgs.UsageInfo(prompt_tokens=_int(record, "prompt_tokens"), completion_tokens=_int(record, "completion_tokens"),
                          cached_tokens=_int(record, "cached_tokens"), reasoning_tokens=_int(record, "reasoning_tokens"),
                          estimated=bool(record.get("estimated", False)))


class _Migration:
    def __init__(self) -> None:
        self.out: list[msgs.Msg] = []
        self.agent = ""
        self.model = ""
        self.provider = ""
        self.at = 0.0  # the record's time
        self.before = 0.0  # the time of the record before it
        self.blocks = 0
        self.asked: dict[str, float] = {}  # tool call id -> when its answer was recorded
        self.context = 0  # the context gauge of the last usage record

    def emit(self, msg_type: type[msgs.Msg], **fields: Any) -> None:
        if self.at:  # a record without a time: the Msg's is now, as the old replay had it
            fields.setdefault("at", self.at)
        self.out.append(msg_type(**fields))

    def block_id(self, kind: str) -> str:
        self.blocks += 1
        return f"{kind}{self.blocks}"

    def record(self, index: int, r: dict[str, Any]) -> None:
        kind = r.get("type")
        at = r.get("at")
        self.before, self.at = self.at, float(at) if isinstance(at, (int, float)) else 0.0
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if kind == "header" and index != 0:  # a stray header names the agent, nothing more
            self.agent, self.model = str(r.get("agent", self.agent)), str(r.get("model", self.model))
            return
        if handler is not None:
            handler(self, r)


def _header(m: _Migration, r: dict[str, Any]) -> None:
    m.agent, m.model, m.provider = (str(r.get(k, "")) for k in ("agent", "model", "provider"))
    created = r.get("created", r.get("at"))
    background = r.get("background")
    m.emit(msgs.TranscriptHeader, format=r["format"] if isinstance(r.get("format"), int) else 0,
           session_id=str(r.get("id", "")), created=float(created) if isinstance(created, (int, float)) else 0.0,
           cwd=str(r.get("cwd", "")), agent=m.agent, model=m.model, provider=m.provider,
           version=str(r.get("version", "")), agent_id=r.get("agent_id") if isinstance(r.get("agent_id"), str) else None,
           parent_id=r.get("parent_id") if isinstance(r.get("parent_id"), str) else None,
           background=background is True, label=str(r.get("label") or ""))


def _user(m: _Migration, r: dict[str, Any]) -> None:
    run_id = str(r.get("run_id") or "run")
    text = str(r.get("text", ""))
    attachments = r.get("attachments")
    m.emit(msgs.UserPrompt, run_id=run_id, text=prompt_of(text))
    m.emit(msgs.RunStarted, run_id=run_id, agent=m.agent, model=m.model)
    m.emit(msgs.PromptRecorded, run_id=run_id, entry=UserEntry(text=text),
           attachments=tuple(map(str, attachments)) if isinstance(attachments, list) else ())


def _assistant(m: _Migration, r: dict[str, Any]) -> None:
    content, reasoning = str(r.get("content") or ""), str(r.get("reasoning") or "")
    calls = tuple(tool_calls_of(r.get("tool_calls")))
    for call in calls:
        m.asked[call.id] = m.at
    m.emit(msgs.AnswerRecorded, run_id=str(r.get("run_id") or "run"),
           entry=assistant(content, reasoning, tool_calls=calls, partial=bool(r.get("partial"))),
           model=str(r.get("model") or ""), started=m.before or m.at,
           reasoning_block=m.block_id("r") if reasoning else "", text_block=m.block_id("t") if content else "")


def _tool_result(m: _Migration, r: dict[str, Any]) -> None:
    call_id = str(r.get("tool_call_id", ""))
    asked = m.asked.pop(call_id, m.at)
    elapsed, exit_code, diff = r.get("elapsed"), r.get("exit_code"), r.get("diff")
    waited = max(0.0, m.at - asked) if asked and m.at else 0.0
    m.emit(msgs.ToolCallFinished, call_id=call_id, name=str(r.get("name", "")), ok=bool(r.get("ok", True)),
           result=str(r.get("content", "")), exit_code=exit_code if isinstance(exit_code, int) else None,
           diff=diff if isinstance(diff, str) and diff else None,
           elapsed=float(elapsed) if isinstance(elapsed, (int, float)) else waited, denied=r.get("denied") is True)


def _usage_record(m: _Migration, r: dict[str, Any]) -> None:
    usage = _usage(r)
    context = r.get("context_tokens")
    m.context = context if isinstance(context, int) else usage.prompt_tokens + usage.completion_tokens
    m.emit(msgs.UsageReported, usage=usage, context_tokens=m.context)


def _run_end(m: _Migration, r: dict[str, Any]) -> None:
    error = r.get("error")
    m.emit(msgs.RunEnded, run_id=str(r.get("run_id") or "run"), cancelled=bool(r.get("cancelled", False)),
           error=str(error) if error else None, reason=str(r.get("reason") or ""))


def _skill(m: _Migration, r: dict[str, Any]) -> None:
    text = r.get("context", r.get("text", r.get("body", "")))
    m.emit(msgs.ContextAdded, entry=UserEntry(text=str(text), kind="context"), skill=str(r.get("name", "")),
           path=str(r.get("path", "")), body=str(r.get("body", "")))


def _compaction(m: _Migration, r: dict[str, Any]) -> None:
    replaces = r.get("replaces")
    context = r.get("context_tokens")
    m.emit(msgs.Compacted, summary=str(r.get("summary", "")), replaces=replaces if isinstance(replaces, int) else 0,
           context_tokens=context if isinstance(context, int) else m.context)


def _agent_switch(m: _Migration, r: dict[str, Any]) -> None:
    m.agent, m.model, m.provider = (str(r.get(k, old)) for k, old in
                                    (("agent", m.agent), ("model", m.model), ("provider", m.provider)))
    m.emit(msgs.AgentChanged, agent=m.agent, model=m.model, provider=m.provider)


_HANDLERS = {
    "header": _header,
    "user": _user,
    "assistant": _assistant,
    "tool_result": _tool_result,
    "usage": _usage_record,
    "error": lambda m, r: m.emit(msgs.Error, text=str(r.get("text", ""))),
    "warning": lambda m, r: m.emit(msgs.Warning, text=str(r.get("text", "")), code=str(r.get("code", ""))),
    "run_end": _run_end,
    "skill": _skill,
    "compaction": _compaction,
    "agent_switch": _agent_switch,
}


def from_v1(records: list[dict[str, Any]]) -> list[msgs.Msg]:
    """The format-2 Msgs of a format-0 or format-1 transcript's records (its header first, when it has one)."""
    migration = _Migration()
    for index, record in enumerate(records):
        migration.record(index, record)
    return migration.out
