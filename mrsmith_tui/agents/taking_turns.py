"""Sub-agents take turns with each other for the interpreter lock (issue #26).

The screen's thread waits for the lock behind every thread that wants it: with 100 agents
streaming, a crowd of them was always ready (each turning its newest delta into Msgs), and the
event loop stalled for hundreds of milliseconds. Here an agent handles a streamed event only
while it holds a process-wide turn: the agents still read their sockets side by side, but at most
one of them at a time works on what it read, so the screen's thread never queues behind a crowd.
The main conversation does not take turns: the person's own run is never held up by agents.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.provider.types import ChatRequest, Provider, StreamEvent

_TURN = threading.Lock()


class TakingTurns:
    """A provider whose stream is handled one agent at a time: each event is yielded holding the
    turn, which goes back when the agent asks for the next one (or stops reading)."""

    def __init__(self, inner: Provider) -> None:
        self._inner = inner
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:  # the rest of the provider, as it is
        return getattr(self._inner, name)

    def stream(self, request: ChatRequest, cancel: CancelToken) -> Iterator[StreamEvent]:
        events = self._inner.stream(request, cancel)
        try:
            for event in events:
                with _TURN:
                    yield event
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()
