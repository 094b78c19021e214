"""A long answer as Markdown, drawn piece by piece so its cost does not grow with its length.

The text is cut into chunks at blank lines outside code fences, each at least CHUNK_CHARS long; the
cuts only depend on the text before them, so a streaming answer's finished chunks never change and
each is rendered once (the caller caches them). While the answer streams, its last chunk is still
open: it is shown as plain text (its end in view) until a cut closes it.
"""

from __future__ import annotations

import re

CHUNK_CHARS = 800  # a chunk is at least this long: small enough that rendering one stalls no frame for long
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def chunks(text: str, *, streaming: bool) -> tuple[list[str], str]:
    """(closed chunks, open tail). Done (not streaming), the tail is "" and every chunk is closed.
    A chunk ends with the blank line that closed it, so joining the chunks gives the text back."""
    closed: list[str] = []
    start = 0
    pos = 0
    fence = ""
    n = len(text)
    while pos < n:
        end = text.find("\n", pos)
        if end < 0:
            break  # the last line is still being written
        line = text[pos:end]
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if not fence:
                fence = marker[0] * 3
            elif marker.startswith(fence) and not line.strip()[len(marker):].strip():
                fence = ""
        pos = end + 1
        if not fence and not line.strip() and pos - start >= CHUNK_CHARS:
            closed.append(text[start:pos])
            start = pos
    rest = text[start:]
    if streaming:
        return closed, rest
    if rest:
        closed.append(rest)
    return closed, ""
