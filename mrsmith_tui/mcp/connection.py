"""One server's connection, inside the hub's asyncio loop: start, list the tools, call, close.

`serve` is one generation of a server's life in one task (the SDK's context managers are entered
and left in the same task): it opens the transport, initializes within the startup timeout, lists
the tools, says it is ready, and then waits until it is told to stop or the server goes away. A
call runs in a task of its own, behind the server's lock (one call at a time per server, from
every agent), within its timeout.
"""

from __future__ import annotations

import asyncio
import errno
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

from mrsmith_tui import __version__
from mrsmith_tui.mcp.config import ServerSpec
from mrsmith_tui.mcp.listing import Listing, clean_text, read_listing
from mrsmith_tui.mcp.results import result_text
from mrsmith_tui.mcp.stderr_log import StderrLog
from mrsmith_tui.mcp.stdio_transport import MAX_MESSAGE_BYTES, bounded_stdio
from mrsmith_tui.security.environment import child_environment
from mrsmith_tui.security.redact import PROCESS

__all__ = ["Link", "call", "reason_of", "serve"]

MAX_PAGES = 8  # tools/list pages read from one server


@dataclass
class Link:
    """What the hub keeps of one generation: the live session, and how to end it."""

    stop: asyncio.Event = field(default_factory=asyncio.Event)
    gone: asyncio.Event = field(default_factory=asyncio.Event)  # the server went away by itself
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    session: Any = None
    exit_detail: str = ""
    http: bool = False


def reason_of(error: BaseException) -> str:
    """One readable line for what went wrong (the first leaf of an exception group)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    if isinstance(error, TimeoutError | asyncio.TimeoutError):
        return "timed out"
    if isinstance(error, FileNotFoundError):
        return f"cannot start: no such program {error.filename or ''}".rstrip()
    if isinstance(error, PermissionError):
        return f"cannot start: permission denied ({error.filename or ''})"
    if isinstance(error, OSError) and error.errno in (errno.ECONNREFUSED, errno.ECONNRESET):
        return f"connection refused ({error.strerror or error})"
    message = getattr(error, "message", None) or str(error) or type(error).__name__
    return clean_text(PROCESS.redact(str(message).splitlines()[0] if str(message) else type(error).__name__), 300)


async def serve(spec: ServerSpec, link: Link, log: StderrLog, ready: Callable[[Listing], None]) -> None:
    """Run one generation of `spec` until `link.stop` or the server goes away. Raises what stopped it
    from starting; returns when it ends after it was ready."""
    from mcp.client.session import ClientSession
    from mcp_types import Implementation

    async with AsyncExitStack() as stack:
        if spec.transport == "stdio":
            env = child_environment() | dict(spec.env)

            def exited() -> None:
                link.gone.set()

            read, write = await stack.enter_async_context(bounded_stdio(
                [spec.command, *spec.args], env=env, cwd=spec.cwd, log=log, on_exit=exited))
        else:
            link.http = True
            read, write = await stack.enter_async_context(_http(spec))
        session = await stack.enter_async_context(ClientSession(read, write, client_info=Implementation(
            name="mrsmith", version=__version__)))
        async with asyncio.timeout(spec.startup_timeout):
            init = asyncio.ensure_future(session.initialize())
            gone = asyncio.ensure_future(link.gone.wait())
            try:
                done, _ = await asyncio.wait({init, gone}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                gone.cancel()
            if init not in done:
                init.cancel()
                init.add_done_callback(_consume)  # it may end with the closed connection's error: read it
                raise ConnectionError("the server exited before it answered initialize")
            init.result()
            listing = await _list_tools(session)
        link.session = session
        ready(listing)
        stop = asyncio.ensure_future(link.stop.wait())
        gone = asyncio.ensure_future(link.gone.wait())
        try:
            await asyncio.wait({stop, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
            gone.cancel()
            link.session = None
            async with asyncio.timeout(5):  # a running call may finish first (it holds the lock)
                async with link.lock:
                    pass


def _consume(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _http(spec: ServerSpec) -> Any:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    from mrsmith_tui.mcp.http_bounds import BoundedTransport

    client = httpx2.AsyncClient(headers=dict(spec.headers), timeout=httpx2.Timeout(30.0, read=spec.call_timeout + 30),
                                transport=BoundedTransport(MAX_MESSAGE_BYTES))

    class _Owned:
        async def __aenter__(self) -> Any:
            await client.__aenter__()
            self._inner = streamable_http_client(spec.url, http_client=client, max_sse_event_size=MAX_MESSAGE_BYTES)
            try:
                return await self._inner.__aenter__()
            except BaseException:
                await client.__aexit__(None, None, None)
                raise

        async def __aexit__(self, *exc: Any) -> None:
            try:
                await self._inner.__aexit__(*exc)
            finally:
                await client.__aexit__(None, None, None)

    return _Owned()


async def _list_tools(session: Any) -> Listing:
    from mcp_types import PaginatedRequestParams

    tools: list[Any] = []
    cursor = None
    for _ in range(MAX_PAGES):
        page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return read_listing(tools)


async def call(link: Link, tool: str, arguments: dict[str, Any], timeout: float) -> tuple[str, bool]:
    """(text, is_error) of one call. Raises ConnectionError when the server is not there (any more)."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED

    async with link.lock:
        session = link.session
        if session is None or link.gone.is_set():
            raise ConnectionError("not connected")
        try:
            async with asyncio.timeout(timeout):
                result = await session.call_tool(tool, arguments, read_timeout_seconds=timeout)
        except TimeoutError:
            return f"no answer within {timeout:g} s (toolTimeoutSec); the call was abandoned", True
        except MCPError as e:
            # Over HTTP an event stream that broke on its bound ends that call, not the server.
            if link.gone.is_set() or (e.code == CONNECTION_CLOSED and not (link.http and e.message.startswith("SSE stream failed"))):
                raise ConnectionError(e.message) from e
            return f"the server answered with an error ({e.code}): {clean_text(e.message, 2000)}", True
        if link.gone.is_set() and result is None:
            raise ConnectionError("the server went away")
    return result_text(result)
