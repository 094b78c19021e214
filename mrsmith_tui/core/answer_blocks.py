"""An answer's blocks as they enter the history, and as they are recorded and shown.

The provider gives the answer's blocks in the order they came (`StreamDone.blocks`). Two forms
leave here:

- what is **sent back** (the history): every block redacted of the process's secrets, except
  a signed one. A thinking block with a signature and a redacted-thinking block go back byte for
  byte, or the wire refuses them: the provider wrote them and already knows what they hold.
- what is **recorded and shown** (AnswerRecorded: transcript, screen, export): every block
  redacted. A signed thinking block whose text held a secret loses its signature there, so a
  resumed session never sends altered text under a signature: that thinking stays out of the
  next requests (the Messages wire sends no unsigned thinking; earlier turns' thinking is
  optional there). Redacted thinking is encrypted: nothing in it to redact.

A signature is only worth something to the provider that wrote it. When the session goes on with
another provider (`/agent`, or a resume on another protocol), `unsigned` turns the history's signed
blocks into plain redacted reasoning and drops encrypted thinking: another vendor can verify none of
them, and a key inside them must not reach it.
"""

from __future__ import annotations

from mrsmith_tui.history import (
    AssistantBlock,
    AssistantEntry,
    HistoryEntry,
    ReasoningBlock,
    RedactedThinkingBlock,
    ToolCallBlock,
    assistant,
)
from mrsmith_tui.provider.types import StreamDone
from mrsmith_tui.security.redact import PROCESS

__all__ = ["answer_entry", "kept_and_recorded", "redacted", "unsigned"]


def answer_entry(done: StreamDone, offer_tools: bool) -> AssistantEntry:
    """The answer as a history entry: its blocks in order (tool calls only when tools were offered)."""
    blocks = done.blocks or assistant(done.content, done.reasoning, tool_calls=tuple(
        ToolCallBlock(id=c.id, name=c.name, arguments=c.arguments) for c in done.tool_calls)).blocks
    if not offer_tools:
        blocks = tuple(b for b in blocks if not isinstance(b, ToolCallBlock))
    return AssistantEntry(blocks=blocks)


def redacted(entry: AssistantEntry) -> AssistantEntry:
    """`entry` with the process's secrets replaced in every string it holds (the same entry when none is there)."""
    out = PROCESS.redact_value(entry)  # map_strings rebuilds a model only where a string changed
    assert isinstance(out, AssistantEntry)
    return out


def _signed(block: AssistantBlock) -> bool:
    return isinstance(block, RedactedThinkingBlock) or (isinstance(block, ReasoningBlock) and bool(block.signature))


def kept_and_recorded(entry: AssistantEntry) -> tuple[AssistantEntry, AssistantEntry]:
    """(what the history keeps and sends back, what is recorded and shown)."""
    if not any(_signed(b) for b in entry.blocks):
        clean = redacted(entry)
        return clean, clean
    sent: list[AssistantBlock] = []
    shown: list[AssistantBlock] = []
    for block in entry.blocks:
        if isinstance(block, RedactedThinkingBlock):
            sent.append(block)
            shown.append(block)
        elif isinstance(block, ReasoningBlock) and block.signature:
            sent.append(block)
            text = PROCESS.redact(block.text)
            shown.append(block if text == block.text else ReasoningBlock(text=text, signature=""))
        else:
            plain = redacted(AssistantEntry(blocks=(block,))).blocks[0]
            sent.append(plain)
            shown.append(plain)
    return (entry.model_copy(update={"blocks": tuple(sent)}), entry.model_copy(update={"blocks": tuple(shown)}))


def unsigned(history: list[HistoryEntry]) -> list[HistoryEntry]:
    """The history for another provider: no signatures, no encrypted thinking, every string redacted."""
    out: list[HistoryEntry] = []
    for entry in history:
        if isinstance(entry, AssistantEntry) and any(_signed(b) for b in entry.blocks):
            blocks = tuple(ReasoningBlock(text=b.text) if isinstance(b, ReasoningBlock) else b
                           for b in entry.blocks if not isinstance(b, RedactedThinkingBlock))
            entry = redacted(entry.model_copy(update={"blocks": blocks}))
        out.append(entry)
    return out
