"""The Provider port: one streamed chat completion, already assembled into events.

A provider turns a `ChatRequest` into an iterator of `StreamEvent`s. The request carries the
typed, wire-neutral history entries the core chose for the context, not wire messages: each
provider translates them for its own wire (Chat Completions: `provider.chat_wire`), so
another wire (the Anthropic Messages API) plugs in by translating the same entries. Dialect quirks
(where reasoning arrives, how tool-call fragments are keyed, where usage comes) stay
inside the provider; the run only ever sees these events, ending with one `StreamDone`.
Failures raise `ProviderError` with a one-line message fit to show the person.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.errors import MrSmithError
from mrsmith_tui.history import AssistantBlock, HistoryEntry
from mrsmith_tui.msgs import UsageInfo

Thinking = Literal["strip", "preserve"]  # whether earlier reasoning is sent back to the model
Cache = Literal["auto", "active"]  # "active": cache_control breakpoints (Messages wire)


MAX_ARGUMENT_CHARS = 8 * 1024 * 1024  # one tool call's arguments; a call with more is refused, not run


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text (an object the model sent is re-serialised)
    too_large: int = 0  # characters of arguments the model sent past MAX_ARGUMENT_CHARS ("" kept): not run


@dataclass(frozen=True)
class ChatRequest:
    model: str
    system_prompt: str
    entries: tuple[HistoryEntry, ...]  # the context, oldest first (compacted entries are left out on the wire)
    tools: list[dict[str, Any]] = field(default_factory=list)  # OpenAI "function" tool specs
    thinking: Thinking = "strip"  # "preserve": earlier reasoning goes back to the model where the wire can carry it
    reasoning_effort: str | None = None
    include_usage: bool = True
    max_tokens: int | None = None  # the answer's cap; the Messages wire always sends one (its vendor default when None)
    cache: Cache = "auto"
    thinking_style: Literal["budget", "adaptive"] | None = None  # Messages: how an effort is asked for (None: by model)


@dataclass(frozen=True)
class StreamText:
    text: str


@dataclass(frozen=True)
class StreamReasoning:
    text: str


@dataclass(frozen=True)
class StreamToolCall:
    """A tool call began or grew (for live display); the final calls come in StreamDone."""

    index: int
    name: str
    arguments_chars: int  # how much of the arguments has come (a count, not a copy: calls can be megabytes)
    arguments_tail: str  # their last few hundred characters, for a live preview


@dataclass(frozen=True)
class StreamDone:
    content: str
    reasoning: str
    tool_calls: tuple[ToolCall, ...]
    finish_reason: str | None  # the wire's own word ("stop", "length", "end_turn", "max_tokens", "refusal", ...)
    usage: UsageInfo  # real, or estimated (usage.estimated) when the provider sent none
    # The answer's blocks in the order they came (thinking with its signature, redacted thinking,
    # text, tool calls): what goes into the history. Empty: build them from the fields above.
    blocks: tuple[AssistantBlock, ...] = ()


@dataclass(frozen=True)
class StreamNotice:
    """Something the person should hear about while the answer goes on.

    kind "retry": a failed try will be repeated (text: "retrying in 2 s (429 from host)");
    kind "skipped_chunk": a malformed chunk was skipped (text names the provider and the chunk).
    """

    kind: str
    text: str


StreamEvent = StreamText | StreamReasoning | StreamToolCall | StreamDone | StreamNotice


def joined(events: list[StreamEvent]) -> list[StreamEvent]:
    """`events` with each run of adjacent text (or reasoning) pieces joined into one piece.

    A provider applies it to what one network read brought: a server that sends a token an event
    as fast as it can then costs the run one event a read, not one a token, and none of it waits
    (the whole read goes out before the next one). Order and every other event are kept.
    """
    out: list[StreamEvent] = []
    run: list[str] = []  # the texts of the open run
    kind: type[StreamText] | type[StreamReasoning] | None = None
    for event in events:
        if type(event) is kind:
            run.append(event.text)
            continue
        if kind is not None:
            out.append(kind("".join(run)))
        if isinstance(event, (StreamText, StreamReasoning)):
            kind, run = type(event), [event.text]
        else:
            kind, run = None, []
            out.append(event)
    if kind is not None:
        out.append(kind("".join(run)))
    return out


class ProviderError(MrSmithError):
    """A failed call, with a message for the person.

    `partial_content` / `partial_reasoning` hold what streamed before a mid-way cut, so the
    run can keep it visible and in the transcript.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        partial_content: str = "",
        partial_reasoning: str = "",
        context_exceeded: bool = False,
        context_limit: int = 0,
        retryable: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.partial_content = partial_content
        self.partial_reasoning = partial_reasoning
        # The request did not fit the model's context (OpenAI context_length_exceeded, llama.cpp
        # exceed_context_size_error, vLLM "maximum context length"); context_limit when the server said it.
        self.context_exceeded = context_exceeded
        self.context_limit = context_limit
        # The server is overloaded (Anthropic's `overloaded_error` event): worth another try when
        # none of the answer has come yet, like a 429 or a 529.
        self.retryable = retryable


class Provider(Protocol):
    name: str

    def stream(self, request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        """Stream one completion. Raises ProviderError; stops early (no StreamDone) when cancelled."""
        ...
