"""Session ids: UUID v7 (RFC 9562), time-ordered and monotonic within this process.

Layout: 48-bit Unix milliseconds | version 7 | 12-bit rand_a | variant 0b10 | 62-bit rand_b.
rand_a is used as a counter seeded at random each new millisecond (RFC 9562 §6.2 method 1),
so two ids made in the same millisecond still sort in the order they were made.
"""

from __future__ import annotations

import secrets
import threading
import time
import uuid

_lock = threading.Lock()
_last_ms = -1
_counter = 0


def new_session_id() -> str:
    global _last_ms, _counter
    with _lock:
        ms = time.time_ns() // 1_000_000
        if ms > _last_ms:
            _last_ms, _counter = ms, secrets.randbits(11)  # headroom for ids in the same ms
        else:
            _counter += 1
            if _counter > 0xFFF:  # counter spent: borrow the next millisecond
                _last_ms, _counter = _last_ms + 1, secrets.randbits(11)
        value = (_last_ms & 0xFFFF_FFFF_FFFF) << 80 | 0x7 << 76 | _counter << 64 | 0b10 << 62 | secrets.randbits(62)
    return str(uuid.UUID(int=value))
