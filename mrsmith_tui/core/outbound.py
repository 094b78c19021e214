"""Msgs on their way to a person: secrets redacted, terminal controls shown, not obeyed.

Every frontend puts one `OutboundFilter` between the core and what it writes (the headless
printer, the TUI's dispatch): one place per output path. Streamed pieces go through a
`StreamRedactor`, so a key cut across two deltas is still caught: the end of a piece that
could begin a key is held back until the next piece of the same stream, or its end
(BlockEnded, ToolCallFinished, RunEnded), which posts what was held first.
"""

from __future__ import annotations

from collections.abc import Callable

from mrsmith_tui import msgs as m
from mrsmith_tui.security.redact import PROCESS, Redactor, StreamRedactor, map_strings
from mrsmith_tui.security.terminal_text import clean as clean_text

_KINDS: dict[type, str] = {m.TextDelta: "text", m.ReasoningDelta: "reasoning", m.ToolOutput: "tool"}


def _delta(kind: str, stream_id: str, text: str) -> m.Msg:
    if kind == "text":
        return m.TextDelta(block_id=stream_id, text=text)
    if kind == "reasoning":
        return m.ReasoningDelta(block_id=stream_id, text=text)
    return m.ToolOutput(call_id=stream_id, text=text)


class OutboundFilter:
    """`filter(msg) -> [msg, ...]`: zero (a piece held back), one, or more (what was held, then msg).

    `clean` is applied to every string of every Msg (terminal_text.clean for a terminal; None to
    keep text as it is, as for JSON lines, which escape controls themselves). Not thread-safe:
    call it from one thread, or under the caller's lock.
    """

    def __init__(self, redactor: Redactor = PROCESS, *, clean: Callable[[str], str] | None = clean_text) -> None:
        self.redactor = redactor
        self._stream = StreamRedactor(redactor)
        self._clean = clean

    def __call__(self, msg: m.Msg) -> list[m.Msg]:
        redacted = self._filter(msg, ())
        if self._clean is None:
            return redacted
        return [map_strings(x, self._clean) for x in redacted]

    def _filter(self, msg: m.Msg, prefix: tuple[str, ...]) -> list[m.Msg]:
        """`msg` (and what was held before it) with every secret redacted."""
        if isinstance(msg, m.FromAgent):
            agent_id = self.redactor.redact(msg.agent_id)
            return [msg.model_copy(update={"msg": inner, "agent_id": agent_id})
                    for inner in self._filter(msg.msg, prefix + (msg.agent_id,))]
        if not self.redactor:
            return [msg]
        kind = _KINDS.get(type(msg))
        if kind is not None:  # a delta: its two strings redacted directly (walking the Msg costs more than they do)
            assert isinstance(msg, (m.TextDelta, m.ReasoningDelta, m.ToolOutput))
            id_field = "call_id" if kind == "tool" else "block_id"
            stream_id = getattr(msg, id_field)
            text = self._stream.feed((prefix, kind, stream_id), msg.text)
            return [msg.model_copy(update={"text": text, id_field: self.redactor.redact(stream_id)})] if text else []
        return [self.redactor.redact_value(x) for x in [*self._held_before(msg, prefix), msg]]

    def _held_before(self, msg: m.Msg, prefix: tuple[str, ...]) -> list[m.Msg]:
        """What was held back of the streams `msg` ends, as deltas to post before it."""
        keys: list[tuple[tuple[str, ...], str, str]]
        if isinstance(msg, m.BlockEnded):
            keys = [(prefix, msg.kind, msg.block_id)]
        elif isinstance(msg, m.ToolCallFinished):
            keys = [(prefix, "tool", msg.call_id)]
        elif isinstance(msg, m.RunEnded):
            keys = [k for k in self._stream.held_keys() if k[0] == prefix]
        else:
            return []
        out: list[m.Msg] = []
        for key in keys:
            held = self._stream.flush(key)
            if held:
                out.append(_delta(key[1], key[2], held))
        return out
