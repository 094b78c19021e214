"""Waiting for a finished command's pipe readers: all of its output, never for ever."""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Sequence

QUIET_SECONDS = 1.0  # a pipe with nothing to read for this long is held by a process that escaped the kill
CAP_SECONDS = 30.0  # however much keeps coming


def pipe_has_work(fd: int) -> bool:
    """True when a read of `fd` would not block: bytes wait in it, or its end (EOF) has come."""
    try:
        readable, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):  # the reader closed it: nothing more to wait for
        return False
    return bool(readable)


def drain(readers: Sequence[threading.Thread], fds: Sequence[int],
          quiet: float = QUIET_SECONDS, cap: float = CAP_SECONDS) -> None:
    """Join the readers once the command's process group is killed.

    A reader ends at EOF, which comes when the last process holding the pipe is gone. A process that
    left the group (`setsid`) may hold it open for ever, so waiting stops after `quiet` seconds in
    which no pipe had anything to read. While a pipe still holds bytes (or its EOF) the reader only
    has not got to them yet (a loaded machine): that is waited for, up to `cap`. A fixed one-second
    join used to drop the end of a command's output under load."""
    end = time.monotonic() + cap
    quiet_until = time.monotonic() + quiet
    for reader, fd in zip(readers, fds, strict=True):
        while reader.is_alive():
            now = time.monotonic()
            if now >= end:
                return
            if pipe_has_work(fd):
                quiet_until = now + quiet
            elif now >= quiet_until:
                return
            reader.join(timeout=0.05)
