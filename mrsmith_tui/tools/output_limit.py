"""Bounds on what a command prints: a head-and-tail buffer for the model, a throttle for the screen.

Whatever a command prints, memory stays flat: HeadTail keeps the first and the last
`limit // 2` characters and counts the rest. The live view (ctx.output, which the TUI
draws and headless copies to stderr) gets at most a screenful a second through
LiveThrottle; what it holds back is summed up in one "… N bytes more" line.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from mrsmith_tui.words import counted

SCREEN_BYTES = 4096  # per second to the live view
SCREEN_LINES = 50


class HeadTail:
    """The first and last `limit // 2` characters of a stream, and how many came in all."""

    def __init__(self, limit: int) -> None:
        self.half = limit // 2
        self.head = ""
        self._tail: deque[str] = deque()
        self._tail_len = 0
        self.total = 0

    def add(self, text: str) -> None:
        self.total += len(text)
        room = self.half - len(self.head)
        if room > 0:
            self.head += text[:room]
            text = text[room:]
        if not text:
            return
        if len(text) >= self.half:
            self._tail.clear()
            self._tail.append(text[-self.half :])
            self._tail_len = self.half
            return
        self._tail.append(text)
        self._tail_len += len(text)
        while self._tail_len - len(self._tail[0]) >= self.half:
            self._tail_len -= len(self._tail.popleft())

    def text(self) -> str:
        tail = "".join(self._tail)
        if self.total <= 2 * self.half:  # nothing was ever dropped: all of it, as it came
            return self.head + tail
        tail = tail[-self.half :] if len(tail) > self.half else tail
        cut = self.total - len(self.head) - len(tail)
        return f"{self.head}\n[... {cut} characters cut from the middle of {self.total} ...]\n{tail}"


class LiveThrottle:
    """Passes at most SCREEN_BYTES and SCREEN_LINES a second to `emit`; counts the rest (thread-safe)."""

    def __init__(self, emit: Callable[[str], None], *, clock: Callable[[], float] = time.monotonic,
                 per_second: int = SCREEN_BYTES, lines: int = SCREEN_LINES) -> None:
        self.emit = emit
        self.clock = clock
        self.per_second = per_second
        self.lines = lines
        self._lock = threading.Lock()
        self._window = clock()
        self._bytes = self._lines = 0
        self.held = 0  # bytes held back since the last note
        self._at_line_start = True

    def feed(self, text: str) -> None:
        with self._lock:
            now = self.clock()
            if now - self._window >= 1.0:
                self._note()
                self._window, self._bytes, self._lines = now, 0, 0
            shown = self._fit(text)
            if shown:
                self._send(shown)
            if len(shown) < len(text):
                self.held += len(text[len(shown) :].encode("utf-8", "replace"))

    def close(self) -> None:
        with self._lock:
            self._note()

    def _fit(self, text: str) -> str:
        room_b, room_l = self.per_second - self._bytes, self.lines - self._lines
        if self.held or room_b <= 0 or room_l <= 0:
            return ""  # once something is held back, the rest of this second is too (order stays)
        piece = text[:room_b]
        if piece.count("\n") > room_l:
            cut = -1
            for _ in range(room_l):
                cut = piece.index("\n", cut + 1)
            piece = piece[: cut + 1]
        return piece

    def _send(self, text: str) -> None:
        self._bytes += len(text)
        self._lines += text.count("\n")
        self._at_line_start = text.endswith("\n")
        self.emit(text)

    def _note(self) -> None:
        if self.held:
            lead = "" if self._at_line_start else "\n"
            self.emit(f"{lead}… {counted(self.held, 'byte')} more\n")
            self._at_line_start = True
            self.held = 0
