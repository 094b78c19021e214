"""The transcript format: the contract between the writer (a live run) and its readers (resume,
list, view, export).

Format 2 (this version). A transcript is JSONL: each line is one Msg as `msgs.to_json` writes
it, the same objects the headless `--json` stream prints: `{"type": "<Msg class>", "at": <epoch
seconds>, ...fields}`, read back with `msgs.from_json`. The first line is a `TranscriptHeader`
carrying the version:

    {"type": "TranscriptHeader", "at": …, "format": 2, "session_id": …, "created": …, "cwd": …,
     "agent": …, "model": …, "provider": …, "version": …}   (an agent's own transcript adds
                                                              agent_id, parent_id, background, label)

Then the complete Msgs the session posted, never the progress ones (deltas, BlockEnded,
ToolCallStarted, ToolOutput, ToolBudget), the requests for the person or Notices, and the
Recorded Msgs (msgs.Recorded) the history is rebuilt from:

    UserPrompt, RunStarted        the turn begins (what the screen shows)
    PromptRecorded                the prompt as it entered the history (attachments included)
    AnswerRecorded                one answer, whole: reasoning, text, tool calls (history.AssistantEntry)
    ToolCallFinished              one tool result: `result` is exactly what the model was sent
    UsageReported                 one model call (a compaction's comes right before its Compacted)
    Warning, Error, RunEnded      as posted
    ContextAdded                  a skill body put into the context
    Compacted                     {summary, replaces, context_tokens}: the first `replaces` entries
                                  of the history are summarised by `summary`
    AgentChanged                  {agent, model, provider}: the session goes on with another agent

These, and the header, are the only types a transcript holds (TRANSCRIPT_TYPES): the writer
writes no other, and readers skip any other as they skip types they do not know (a newer writer
may add some), so a transcript from elsewhere can never bring a request for the person (an
approval, a question) or a FromAgent onto the screen. A line that cannot be read (not JSON, nested
deeper than MAX_DEPTH, a torn last line) is dropped with a warning. A transcript written by an older mrsmith (format 1, and format 0 before the header
had a `format`: lowercase record types, `header`, `user`, …) is read through
`session.migrate.from_v1`; when a newer mrsmith goes on writing one (resume), it first appends a
format-2 TranscriptHeader, and from that line on the lines are Msgs.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mrsmith_tui import __version__, msgs

FORMAT_VERSION = 2

# The Msg types a format-2 transcript holds: what the writer writes and all that readers read.
TRANSCRIPT_TYPES = frozenset(
    {"TranscriptHeader", "UserPrompt", "RunStarted", "PromptRecorded", "AnswerRecorded", "ToolCallFinished",
     "UsageReported", "Warning", "Error", "RunEnded", "ContextAdded", "Compacted", "AgentChanged"}
)
assert msgs.MSG_TYPES.keys() >= TRANSCRIPT_TYPES

# No line the writer writes nests deeper than a few levels; a deeper one is hostile, and reading it
# (or printing its values) could exhaust the interpreter's recursion limit.
MAX_DEPTH = 100

# The record types of formats 0 and 1 (session.migrate reads them).
V1_TYPES = frozenset(
    {"header", "user", "assistant", "tool_result", "usage", "error", "warning", "run_end", "skill", "compaction",
     "agent_switch"}
)


def header(*, session_id: str, created: float, cwd: str, agent: str, model: str, provider: str,
           protocol: str = "", version: str = __version__, agent_id: str | None = None, parent_id: str | None = None,
           background: bool = False, label: str = "", frontend: str = "") -> msgs.TranscriptHeader:
    """The first line of a new transcript (an agent's own names the agent: agent_id, parent_id, background, label)."""
    return msgs.TranscriptHeader(at=created, format=FORMAT_VERSION, session_id=session_id, created=created, cwd=cwd,
                                 agent=agent, model=model, provider=provider, protocol=protocol, version=version, agent_id=agent_id,
                                 parent_id=parent_id, background=background, label=label, frontend=frontend)


def load_line(line: bytes) -> dict[str, Any] | None:
    """One transcript line as a JSON object; None when it is not one (not UTF-8, not JSON, not an
    object, or nested deeper than MAX_DEPTH)."""
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and not _deeper_than(value, MAX_DEPTH) else None


def _deeper_than(value: Any, limit: int) -> bool:
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        todo += [(child, depth + 1) for child in children if isinstance(child, (dict, list))]
    return False


_ATTACHMENT = re.compile(r'<attachment name="[^"]*">\n.*?\n</attachment>\n\n', re.DOTALL)


def prompt_of(text: str) -> str:
    """The person's prompt without the attachments (piped stdin, -f FILE) fenced before it in the history."""
    return _ATTACHMENT.sub("", text)


def header_of(records: list[msgs.Msg]) -> msgs.TranscriptHeader | None:
    """The transcript's header: its first Msg, when that is one."""
    return records[0] if records and isinstance(records[0], msgs.TranscriptHeader) else None
