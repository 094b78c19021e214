"""What every wire's assembler does the same way with a streamed answer (pure: no I/O, no clock).

- A malformed chunk (not JSON, not an object) is skipped with a StreamNotice, as other clients
  do: a proxy's keep-alive junk or a half-written line must not lose the whole answer; after
  MAX_BAD_CHUNKS in a row the stream counts as broken.
- Lone surrogates in the JSON become U+FFFD (`wire_json.loads_chunk`).
- A whole answer past MAX_ANSWER_CHARS (text, reasoning and every call's arguments) ends the
  stream with a ProviderError; one call's arguments past MAX_ARGUMENT_CHARS are dropped and
  the call is marked `too_large` (the conversation refuses it with its size).

`assemble.StreamAssembler` (Chat Completions) and `messages_assemble.MessagesAssembler` both hold one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mrsmith_tui.provider.server_errors import one_line
from mrsmith_tui.provider.types import ProviderError, StreamEvent, StreamNotice
from mrsmith_tui.provider.wire_json import loads_chunk

__all__ = ["MAX_ANSWER_CHARS", "MAX_BAD_CHUNKS", "TAIL_CHARS", "StreamPolicy", "tail_of"]

MAX_BAD_CHUNKS = 5
MAX_ANSWER_CHARS = 32 * 1024 * 1024
TAIL_CHARS = 200  # of a growing call's arguments shown live


class StreamPolicy:
    """One stream's count of malformed chunks and of answer characters."""

    def __init__(self, provider_name: str, partial: Callable[[], tuple[str, str]]) -> None:
        """`partial()`: (content, reasoning) so far, for the error that ends a stream."""
        self.provider_name = provider_name
        self._partial = partial
        self.skipped_chunks = 0
        self._bad_in_a_row = 0
        self.answer_chars = 0

    def parse(self, data: str) -> tuple[dict[str, Any] | None, list[StreamEvent]]:
        """(the chunk, []) or (None, [the notice that it was skipped]). Raises after MAX_BAD_CHUNKS in a row."""
        try:
            chunk = loads_chunk(data)
        except ValueError:
            chunk = None
        if isinstance(chunk, dict):
            self._bad_in_a_row = 0
            return chunk, []
        self.skipped_chunks += 1
        self._bad_in_a_row += 1
        if self._bad_in_a_row >= MAX_BAD_CHUNKS:
            raise self.error(f"provider '{self.provider_name}' sent {self._bad_in_a_row} malformed chunks in a row "
                             f"(the last: {one_line(data, 80)})")
        return None, [StreamNotice("skipped_chunk", f"skipped a malformed chunk from provider '{self.provider_name}': "
                                                    f"{one_line(data, 80)}")]

    def grow(self, chars: int) -> None:
        self.answer_chars += chars
        if self.answer_chars > MAX_ANSWER_CHARS:
            raise self.error(
                f"provider '{self.provider_name}' sent an answer of more than {MAX_ANSWER_CHARS // (1024 * 1024)} MiB; "
                "stopped reading it"
            )

    def error(self, message: str) -> ProviderError:
        content, reasoning = self._partial()
        return ProviderError(message, partial_content=content, partial_reasoning=reasoning)


def tail_of(pieces: list[str]) -> str:
    """The last TAIL_CHARS characters of the joined pieces, joining only the pieces needed."""
    parts, n = [], 0
    for piece in reversed(pieces):
        parts.append(piece)
        n += len(piece)
        if n >= TAIL_CHARS:
            break
    return "".join(reversed(parts))[-TAIL_CHARS:]
