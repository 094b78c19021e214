"""The transcript's own Msgs: its header, and the Recorded ones the history is rebuilt from
(session.records; msgs re-exports them all)."""

from __future__ import annotations

from typing import Literal

from mrsmith_tui.history import AssistantEntry, UserEntry
from mrsmith_tui.msgs.msg_base import Msg

# --------------------------------------------------------------------------- the transcript
# What the history is rebuilt from. Posted like every Msg (the TUI draws an answer from
# AnswerRecorded when it streamed none: a replay), and written to the transcript with the
# complete Msgs around them (session.records). The headless `--json` stream leaves them out.


class Recorded(Msg):
    """Base of the Msgs that record a change of the history."""


class TranscriptHeader(Msg):
    """The first line of a transcript (never posted). `format` is the transcript's version; a
    transcript of an older format that a newer mrsmith goes on writing gets one before its first
    Msg line. An agent's own transcript names the agent (`agent_id`, ...)."""

    type: Literal["TranscriptHeader"] = "TranscriptHeader"
    format: int
    session_id: str
    created: float
    cwd: str
    agent: str = ""
    model: str = ""
    provider: str = ""
    protocol: str = ""  # the wire and vendor rules the session started on ("": written before protocols, openai)
    version: str = ""
    agent_id: str | None = None
    parent_id: str | None = None
    background: bool = False
    label: str = ""
    frontend: str = ""  # "tui" or "headless" ("": written before the field, or an agent's own: the TUI)


class PromptRecorded(Recorded):
    """The person's prompt as it entered the history: the attachments fenced before it."""

    type: Literal["PromptRecorded"] = "PromptRecorded"
    run_id: str
    entry: UserEntry
    attachments: tuple[str, ...] = ()  # their labels (piped stdin, -f FILE)


class AnswerRecorded(Recorded):
    """One answer of the model as it entered the history, whole (a cut one is `entry.partial`).

    `started` is when it began to stream (0: it streamed nothing); `reasoning_block` and `text_block`
    are the ids of the blocks it streamed as ("" when none streamed), so a frontend that drew them
    already knows this answer."""

    type: Literal["AnswerRecorded"] = "AnswerRecorded"
    run_id: str
    entry: AssistantEntry
    model: str = ""
    started: float = 0.0
    reasoning_block: str = ""
    text_block: str = ""


class ContextAdded(Recorded):
    """Text the program put in the context (a loaded skill: its name, folder and body)."""

    type: Literal["ContextAdded"] = "ContextAdded"
    entry: UserEntry
    skill: str = ""
    path: str = ""
    body: str = ""


class Compacted(Recorded):
    """The first `replaces` entries of the history are summarised by `summary` (session.rebuild.apply_compaction)."""

    type: Literal["Compacted"] = "Compacted"
    summary: str
    replaces: int
    context_tokens: int = 0  # what the context holds after it


class AgentChanged(Recorded):
    """The session goes on with another agent (the history is kept)."""

    type: Literal["AgentChanged"] = "AgentChanged"
    agent: str
    model: str
    provider: str = ""
    protocol: str = ""  # the new agent's provider's protocol ("": openai)
