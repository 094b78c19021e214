"""A background job's log, bounded: the first HEAD_BYTES as written, then only the latest output.

The job writes into a pipe; a thread copies it to the log file. Past HEAD_BYTES the file
holds the head, a line saying how much was left out, and the most recent TAIL_BYTES to
2 x TAIL_BYTES (rewritten each time the tail doubles, so the cost stays linear). The pipe is
always drained, so a job that prints without end keeps running; its log stays small.
"""

from __future__ import annotations

import os
import threading

from mrsmith_tui.words import counted

HEAD_BYTES = 8 * 1024 * 1024
TAIL_BYTES = 1024 * 1024
_CHUNK = 64 * 1024


class BoundedLog:
    def __init__(self, log_fd: int, head: int = HEAD_BYTES, tail: int = TAIL_BYTES) -> None:
        self.fd = log_fd
        self.head, self.tail_keep = head, tail
        self.written = 0  # bytes of the file up to the head's end (or all of it before the cap)
        self.tail = bytearray()
        self.dropped = 0  # bytes received and not kept

    def write(self, data: bytes) -> None:
        if self.written < self.head:
            room = self.head - self.written
            os.write(self.fd, data[:room])
            self.written += min(room, len(data))
            data = data[room:]
            if not data:
                return
        self.tail += data
        if len(self.tail) <= 2 * self.tail_keep:
            os.write(self.fd, data)
            return
        cut = len(self.tail) - self.tail_keep
        self.dropped += cut
        del self.tail[:cut]
        os.ftruncate(self.fd, self.written)
        os.lseek(self.fd, self.written, os.SEEK_SET)
        os.write(self.fd, f"\n[… log cut: {counted(self.dropped, 'byte')} left out; the latest output follows]\n".encode())
        os.write(self.fd, bytes(self.tail))


def pump(read_fd: int, log_fd: int, name: str) -> threading.Thread:
    """Copy a job's pipe into its log, bounded; closes both fds at the end of the pipe."""
    log = BoundedLog(log_fd)

    def run() -> None:
        try:
            while chunk := os.read(read_fd, _CHUNK):
                log.write(chunk)
        except OSError:
            pass
        finally:
            os.close(read_fd)
            os.close(log_fd)

    t = threading.Thread(target=run, name=name, daemon=True)
    t.start()
    return t
