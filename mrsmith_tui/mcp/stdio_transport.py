"""The stdio transport, with a bounded line reader under it.

The SDK's `stdio_client` reads a message line however long it is (it peaked near 390 MB on one
50 MB line): here every line is read with a bound, and a longer one is dropped as it streams in,
turned into a JSON-RPC error for the request it answered (its id is read from the first or last
bytes of the line), so the call fails with a readable message and memory stays flat. Parsing and
the message types are the SDK's (`jsonrpc_message_adapter`, `SessionMessage`): no framing of our
own beyond the newline that ends a message.

The server runs in its own process session (a Ctrl-C for the run does not reach it), with the
environment given (the scrubbed one plus its own variables) and its stderr drained into a
StderrLog. Closing follows the MCP lifecycle: close stdin, wait, SIGTERM the group, SIGKILL.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.abc
import mcp_types as types
from mcp.shared.message import SessionMessage

from mrsmith_tui.mcp.stderr_log import StderrLog

__all__ = ["MAX_MESSAGE_BYTES", "LineReader", "bounded_stdio"]

MAX_MESSAGE_BYTES = 8 * 1024 * 1024
EXIT_GRACE = 2.0  # seconds the server has to leave after its stdin closes, and again after SIGTERM
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")')
_EDGE = 4096


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as e:
        return e


class LineReader:
    """Newline-ended messages out of a byte stream; a line over `limit` bytes never held whole."""

    def __init__(self, limit: int = MAX_MESSAGE_BYTES) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._skipping = False
        self._skipped = 0
        self._head = b""
        self._tail = b""

    def feed(self, chunk: bytes) -> list[SessionMessage | Exception]:
        out: list[SessionMessage | Exception] = []
        while chunk:
            end = chunk.find(b"\n")
            piece, chunk = (chunk, b"") if end < 0 else (chunk[:end], chunk[end + 1 :])
            if self._skipping:
                self._skipped += len(piece)
                self._tail = (self._tail + piece)[-_EDGE:]
            else:
                self._buf += piece
                if len(self._buf) > self.limit:
                    self._skipping, self._skipped = True, len(self._buf)
                    self._head, self._tail = bytes(self._buf[:_EDGE]), bytes(self._buf[-_EDGE:])
                    self._buf = bytearray()
            if end < 0:
                break
            if self._skipping:
                out.append(self._too_long())
            elif self._buf.strip():
                out.append(_unreadable_as_error(bytes(self._buf)))
            self._buf = bytearray()
        return out

    def _too_long(self) -> SessionMessage | Exception:
        size, head, tail = self._skipped, self._head, self._tail
        self._skipping, self._skipped, self._head, self._tail = False, 0, b"", b""
        text = f"the server sent a message of {size} bytes, over the limit of {self.limit // (1024 * 1024)} MiB; it was dropped"
        return _answer(head, tail, text)


def _unreadable_as_error(line: bytes) -> SessionMessage | Exception:
    """A line the SDK's parser cannot read (too deep, wrong shape) answers the request it names at once,
    with an error; the SDK alone would drop it and the call would wait for its timeout."""
    parsed = _parse(line)
    if not isinstance(parsed, Exception):
        return parsed
    text = "the server sent a message that could not be read (not valid JSON-RPC, or nested too deep); it was dropped"
    return _answer(line[:_EDGE], line[-_EDGE:], text)


def _answer(head: bytes, tail: bytes, text: str) -> SessionMessage | Exception:
    found = _ID.search(head) or _ID.search(tail)
    if found is None:
        return ValueError(text)
    raw = found.group(1)
    request_id: Any = int(raw) if raw[:1] != b'"' else raw[1:-1].decode("utf-8", "replace")
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=-32001, message=text))
    return SessionMessage(error)


@asynccontextmanager
async def bounded_stdio(
    argv: list[str], *, env: dict[str, str], cwd: str | None, log: StderrLog, on_exit: Callable[[], None],
    limit: int = MAX_MESSAGE_BYTES,
) -> AsyncIterator[tuple[Any, Any]]:
    """(read stream, write stream) of SessionMessages for the server `argv`. `on_exit` is called when its
    stdout ends (it died or closed it)."""
    process = await anyio.open_process(argv, env=env, cwd=cwd, start_new_session=True)
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    assert process.stdout is not None and process.stdin is not None and process.stderr is not None
    stdout, stdin, stderr = process.stdout, process.stdin, process.stderr

    async def read_stdout() -> None:
        lines = LineReader(limit)
        try:
            async with read_writer:
                async for chunk in stdout:
                    for item in lines.feed(chunk):
                        await read_writer.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            on_exit()

    async def read_stderr() -> None:
        try:
            async for chunk in stderr:
                log.write(chunk)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass

    async def write_stdin() -> None:
        try:
            async with write_reader:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await stdin.send(data.encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()

    async with anyio.create_task_group() as tg:
        tg.start_soon(read_stdout)
        tg.start_soon(read_stderr)
        tg.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await _stop(process)
                for stream in (read_stream, write_stream, read_writer, write_reader):
                    await stream.aclose()
            tg.cancel_scope.cancel()


async def _stop(process: anyio.abc.Process) -> None:
    try:
        if process.stdin is not None:
            await process.stdin.aclose()
    except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        pass
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None:
            try:
                os.killpg(process.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        with anyio.move_on_after(EXIT_GRACE):
            await process.wait()
        if process.returncode is not None:
            break
    for stream in (process.stdout, process.stderr):
        try:
            if stream is not None:
                await stream.aclose()
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            pass
