"""An incremental Server-Sent Events parser (WHATWG HTML "event stream" interpretation).

Bytes go in as they come off the network, complete events come out. Network chunks may
cut anywhere: inside a UTF-8 character, between the `\\r` and `\\n` of a CRLF, inside a
field name. Lines end with CR, LF or CRLF; `:` lines are comments (keep-alives such as
`: ping` or `: OPENROUTER PROCESSING`); `data:` lines accumulate, joined by `\\n`; an
empty line dispatches the event.

One deliberate leniency: at the end of the stream, a pending event whose data is
complete but not followed by the blank line is still delivered (the spec drops it), so
a server that forgets the last blank line does not lose its final chunk.

Work is linear in the bytes fed: an unfinished line is kept as a list of pieces and only
new text is searched for line ends. A line longer than `max_line` characters raises
SSELineTooLong instead of growing without end.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from mrsmith_tui.errors import MrSmithError

_LINE_END = re.compile(r"\r\n|\r|\n")
MAX_LINE_CHARS = 64 * 1024 * 1024  # one SSE line (one event's data): far above any sane chunk


def _lines(text: str) -> list[str]:
    """`text` cut at every CR, LF or CRLF (the last item is what follows the last line end)."""
    return _LINE_END.split(text) if "\r" in text else text.split("\n")  # str.split: the common case, and faster


class SSELineTooLong(MrSmithError, ValueError):
    def __init__(self, size: int) -> None:
        super().__init__(f"a line of more than {size} characters")
        self.size = size


@dataclass(frozen=True)
class SSEEvent:
    data: str
    event: str = "message"
    id: str | None = None


class SSEParser:
    def __init__(self, max_line: int = MAX_LINE_CHARS) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._max_line = max_line
        self._partial: list[str] = []  # pieces of the line not yet ended
        self._partial_len = 0
        self._skip_leading_lf = False  # the previous chunk ended in CR; a following LF belongs to it
        self._at_stream_start = True
        self._data: list[str] = []
        self._event_type = ""
        self._last_id: str | None = None

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return self._feed_text(self._decoder.decode(chunk))

    def close(self) -> list[SSEEvent]:
        """End of stream: flush the decoder and any unterminated final line/event."""
        events = self._feed_text(self._decoder.decode(b"", final=True))
        if self._partial:
            line, self._partial, self._partial_len = "".join(self._partial), [], 0
            self._process_line(line, events)
        if self._data:
            self._dispatch(events)
        return events

    def _feed_text(self, text: str) -> list[SSEEvent]:
        events: list[SSEEvent] = []
        if not text:
            return events
        if self._skip_leading_lf and text.startswith("\n"):
            text = text[1:]
        self._skip_leading_lf = False
        if self._at_stream_start and text:
            self._at_stream_start = False
            text = text.removeprefix("\ufeff")
        lines = _lines(text)
        rest = lines.pop()  # what follows the last line end: the start of a line not yet ended
        for line in lines:
            if self._partial:
                line, self._partial, self._partial_len = "".join(self._partial) + line, [], 0
            self._process_line(line, events)
        if rest:
            self._partial.append(rest)
            self._partial_len += len(rest)
            if self._partial_len > self._max_line:
                raise SSELineTooLong(self._max_line)
        # A CR at the very end may be the first half of a CRLF split across chunks.
        self._skip_leading_lf = text.endswith("\r")
        return events

    def _process_line(self, line: str, events: list[SSEEvent]) -> None:
        if line == "":
            self._dispatch(events)
            return
        if line.startswith(":"):
            return  # comment / keep-alive
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event_type = value
        elif name == "id" and "\0" not in value:
            self._last_id = value
        # `retry` and unknown fields are ignored: the provider reconnects by retrying the POST.

    def _dispatch(self, events: list[SSEEvent]) -> None:
        data, event_type = self._data, self._event_type
        self._data, self._event_type = [], ""
        if not data:
            return
        events.append(SSEEvent(data="\n".join(data), event=event_type or "message", id=self._last_id))
