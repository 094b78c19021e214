"""The history a session keeps: typed and wire-neutral.

The core appends these entries as a conversation goes on; a wire adapter translates them into
what its server takes, in one place per wire (`provider.chat_wire` for Chat Completions,
`provider.messages_wire` for the Messages API). Nothing here knows a wire: reasoning is a block
with an optional signature (Anthropic's thinking blocks need it back; Chat Completions servers
take it as `reasoning_content` or drop it), encrypted thinking is a block of its own, and a tool
call keeps its arguments as the raw JSON text the model wrote. An answer keeps its blocks in the
order they came, so a signed answer goes back exactly as it was given.

Entries are frozen records (mrsmith_tui.records), so a transcript can carry them as they are and
read them back (checked with pydantic, loaded then). Marks that change (a compaction hides the
entries a summary replaces) make a new entry with `model_copy(update=...)`.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from mrsmith_tui.records import Frozen, Tag


class HistoryModel(Frozen):
    """The base of every entry and block (a key a newer writer added is left out when read back)."""

    extra_keys: ClassVar[str] = "ignore"


# --------------------------------------------------------------------------- assistant blocks


class TextBlock(HistoryModel):
    type: Literal["text"] = "text"
    text: str


class ReasoningBlock(HistoryModel):
    type: Literal["reasoning"] = "reasoning"
    text: str
    signature: str = ""  # the provider's proof of the thinking, sent back verbatim where the wire asks


class RedactedThinkingBlock(HistoryModel):
    """Thinking the provider encrypted (Anthropic's `redacted_thinking`): nothing to show, but it goes
    back to the same wire byte for byte, like a signed thinking block."""

    type: Literal["redacted_thinking"] = "redacted_thinking"
    data: str


class UnknownBlock(HistoryModel):
    """A block of a type this mrsmith does not know (a newer writer's): kept so the answer around it
    is not lost, never shown and never sent."""

    type: Literal["unknown"] = "unknown"
    original_type: str = ""


class ToolCallBlock(HistoryModel):
    type: Literal["tool_call"] = "tool_call"
    id: str
    name: str
    arguments: str  # the JSON text as the model wrote it (it may not parse; the tool loop says so)


AssistantBlock = Annotated[TextBlock | ReasoningBlock | RedactedThinkingBlock | ToolCallBlock | UnknownBlock,
                           Tag("type")]
KNOWN_BLOCK_TYPES = frozenset({"text", "reasoning", "redacted_thinking", "tool_call", "unknown"})


# --------------------------------------------------------------------------- entries


UserKind = Literal["prompt", "context", "summary"]


class UserEntry(HistoryModel):
    """What the person said (`prompt`), text the program put in the context for them (`context`:
    a skill body, attachments) or the summary that stands for compacted entries (`summary`)."""

    role: Literal["user"] = "user"
    text: str
    kind: UserKind = "prompt"
    compacted: bool = False  # replaced by a later summary: kept, but left out of the context


class AssistantEntry(HistoryModel):
    """One answer of the model: its blocks in the order they came."""

    role: Literal["assistant"] = "assistant"
    blocks: tuple[AssistantBlock, ...] = ()
    partial: bool = False  # cut by a cancel or a broken stream; never has tool calls
    compacted: bool = False

    @classmethod
    def before(cls, data: Any) -> Any:
        """A block type a newer mrsmith wrote becomes an UnknownBlock instead of failing the whole answer."""
        value = data.get("blocks") if isinstance(data, dict) else None
        if not isinstance(value, (list, tuple)):
            return data
        return {**data, "blocks": [
            {"type": "unknown", "original_type": str(b.get("type"))[:100]}
            if isinstance(b, dict) and b.get("type") not in KNOWN_BLOCK_TYPES else b
            for b in value
        ]}

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.blocks if isinstance(b, TextBlock))

    @property
    def reasoning(self) -> str:
        return "".join(b.text for b in self.blocks if isinstance(b, ReasoningBlock))

    @property
    def tool_calls(self) -> tuple[ToolCallBlock, ...]:
        return tuple(b for b in self.blocks if isinstance(b, ToolCallBlock))


class ToolResultEntry(HistoryModel):
    """What a tool call gave back to the model (exactly the text the model is sent)."""

    role: Literal["tool"] = "tool"
    call_id: str
    name: str
    content: str
    compacted: bool = False


HistoryEntry = Annotated[UserEntry | AssistantEntry | ToolResultEntry, Tag("role")]


def assistant(text: str = "", reasoning: str = "", signature: str = "",
              tool_calls: tuple[ToolCallBlock, ...] = (), *, partial: bool = False) -> AssistantEntry:
    """An AssistantEntry from its parts, reasoning first (the order every wire expects)."""
    blocks: list[TextBlock | ReasoningBlock | ToolCallBlock] = []
    if reasoning or signature:
        blocks.append(ReasoningBlock(text=reasoning, signature=signature))
    if text:
        blocks.append(TextBlock(text=text))
    blocks.extend(tool_calls)
    return AssistantEntry(blocks=tuple(blocks), partial=partial)
