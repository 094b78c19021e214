"""The hub: every configured MCP server, one asyncio loop on a thread of its own.

The SDK is async and the tools run in worker threads; the hub is where they meet. Its methods are
called from any thread (the UI's /mcp, a tool call in a worker, the composition) and never block
on a server: they change the state under a lock and hand the work to the loop. Every server has a
generation: /mcp enable, disable, reconnect and disconnect each start a new one, so the later of
two commands on one server stands and an older generation that ends afterwards changes nothing.
A running call holds its server's lock and is allowed to finish.

States: starting, ready, failed (with why), disabled (config or /mcp disable), stopped
(/mcp disconnect), untrusted (a project server nobody trusted yet). Every change is posted as a
McpServerChanged Msg (the TUI's sidebar, `--json`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.mcp.config import ServerSpec
from mrsmith_tui.mcp.names import server_keys, tool_names
from mrsmith_tui.mcp.stderr_log import StderrLog, log_path
from mrsmith_tui.security.environment import MIN_REDACTED_VALUE
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.tools.base import Tool, ToolResult

if TYPE_CHECKING:
    from mrsmith_tui.mcp.connection import Link
    from mrsmith_tui.mcp.listing import Listing

__all__ = ["WAITING_FOR_TRUST", "McpHub", "ServerStatus", "State"]

State = Literal["starting", "ready", "failed", "disabled", "stopped", "untrusted"]
WAITING_FOR_TRUST = "waiting for your trust"  # an untrusted server whose prompt is not answered yet
CLOSE_SECONDS = 5.0


@dataclass(frozen=True)
class ServerStatus:
    """One server as /mcp, the sidebar and `mrsmith mcp list` show it."""

    name: str
    key: str  # its part of the tool names and approval specs: mcp__<key>__<tool>
    source: str
    transport: str
    shown: str  # command line or URL
    state: State
    tools: tuple[str, ...] = ()  # the names the model sees
    error: str = ""
    note: str = ""  # tools left out, and why
    log: str = ""  # the stderr log's path

    @property
    def spec_prefix(self) -> str:
        return f"mcp__{self.key}"


@dataclass
class _Server:
    spec: ServerSpec
    status: ServerStatus
    log: StderrLog
    generation: int = 0
    link: Link | None = None
    tools: tuple[Tool, ...] = ()
    trusted_for_hints: bool = True
    calls: int = 0
    future: concurrent.futures.Future[None] | None = field(default=None, repr=False)


class McpHub:
    def __init__(self, specs: Sequence[ServerSpec], *, root: Path, emit: Callable[[msgs.Msg], None],
                 keep_logs: bool = True) -> None:
        self.root = Path(root)
        self._emit = emit
        self._lock = threading.RLock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._settled = threading.Condition(self._lock)
        keys = server_keys(s.name for s in specs)
        self._servers: dict[str, _Server] = {}
        for spec in specs:
            path = log_path(self.root, spec.name) if keep_logs and spec.transport == "stdio" else None
            status = ServerStatus(name=spec.name, key=keys[spec.name], source=spec.source, transport=spec.transport,
                                  shown=spec.shown(), state="disabled" if spec.disabled else "starting",
                                  error=spec.error, log=str(path) if path else "")
            if spec.error:
                status = replace(status, state="failed")
            self._servers[spec.name] = _Server(spec=spec, status=status, log=StderrLog(path))

    # ------------------------------------------------------------------ reading

    def names(self) -> list[str]:
        return list(self._servers)

    def statuses(self) -> list[ServerStatus]:
        with self._lock:
            return [s.status for s in self._servers.values()]

    def status(self, name: str) -> ServerStatus | None:
        with self._lock:
            server = self._servers.get(name)
            return server.status if server else None

    def spec(self, name: str) -> ServerSpec | None:
        server = self._servers.get(name)
        return server.spec if server else None

    def log_tail(self, name: str, lines: int = 5) -> list[str]:
        server = self._servers.get(name)
        return server.log.tail(lines) if server else []

    def current_tools(self) -> list[Tool]:
        """The tools of every ready server, now (the registry asks before each request)."""
        with self._lock:
            return [t for s in self._servers.values() if s.status.state == "ready" for t in s.tools]

    def gone_tool(self, name: str) -> Tool | None:
        """A tool named for a server that is not ready (it died, is stopped or still starting): a stand-in
        that says so and how to bring it back, rather than "unknown tool"."""
        from mrsmith_tui.mcp.tool import DisconnectedTool

        with self._lock:
            for server in self._servers.values():
                if server.status.state != "ready" and name.startswith(f"{server.status.spec_prefix}__"):
                    return DisconnectedTool(name, server.spec.name)
        return None

    def starting(self) -> list[str]:
        with self._lock:
            return [n for n, s in self._servers.items() if s.status.state == "starting"]

    def wait_settled(self, timeout: float) -> bool:
        """Until no server is starting or waiting for its trust prompt (or `timeout` seconds); True when none is."""
        def settled() -> bool:
            return all(s.status.state != "starting" and s.status.error != WAITING_FOR_TRUST for s in self._servers.values())

        with self._settled:
            return self._settled.wait_for(settled, timeout)

    # ------------------------------------------------------------------ changing

    def announce(self) -> None:
        """Say every server's state once (the TUI draws its sidebar from these)."""
        for status in self.statuses():
            self._emit(_changed(status))

    def start(self, names: Iterable[str]) -> None:
        """Start these servers (the trust decision was made by the caller)."""
        for name in names:
            self._launch(name)

    def mark_untrusted(self, name: str, why: str) -> None:
        self._change(name, state="untrusted", error=why, bump=True)

    def enable(self, name: str) -> None:
        self._launch(name)

    def reconnect(self, name: str) -> None:
        self._launch(name)

    def disable(self, name: str) -> None:
        self._halt(name, "disabled")

    def disconnect(self, name: str) -> None:
        self._halt(name, "stopped")

    def _launch(self, name: str) -> None:
        with self._lock:
            server = self._servers[name]
            if self._closed:
                return
            if server.spec.error:
                self._change(name, state="failed", error=server.spec.error, bump=True)
                return
            # Only now, trusted and starting, do its expanded secrets join the redactor (process-wide state).
            PROCESS.add(*server.spec.secrets, min_length=MIN_REDACTED_VALUE)
            gen = self._change(name, state="starting", error="", bump=True)
            old = server.link
            loop = self._ensure_loop()
            server.future = asyncio.run_coroutine_threadsafe(self._generation(server, gen, old), loop)

    def _halt(self, name: str, state: State) -> None:
        with self._lock:
            server = self._servers[name]
            self._change(name, state=state, error="", bump=True)
            link, server.link = server.link, None
            if link is not None and self._loop is not None:
                self._loop.call_soon_threadsafe(link.stop.set)

    def _change(self, name: str, *, state: State, error: str = "", bump: bool = False, **fields: Any) -> int:
        with self._lock:
            server = self._servers[name]
            if bump:
                server.generation += 1
            if state != "ready":
                server.tools = ()
                fields.setdefault("tools", ())
                fields.setdefault("note", "")
            before = server.status
            server.status = replace(server.status, state=state, error=error, **fields)
            status = server.status
            self._settled.notify_all()
            gen = server.generation
        if status != before:
            self._emit(_changed(status))
        return gen

    # ------------------------------------------------------------------ the loop

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            _quiet_sdk_logs()
            loop = asyncio.new_event_loop()
            loop.set_exception_handler(lambda _loop, _context: None)  # never a raw line on the terminal
            self._loop = loop
            self._thread = threading.Thread(target=loop.run_forever, name="mrsmith-mcp", daemon=True)
            self._thread.start()
        return self._loop

    async def _generation(self, server: _Server, gen: int, old: Link | None) -> None:
        from mrsmith_tui.mcp.connection import Link, reason_of, serve  # the SDK loads here, on the hub's thread

        if old is not None:
            old.stop.set()
        link = Link()
        with self._lock:
            if server.generation != gen:
                return
            server.link = link
        try:
            await serve(server.spec, link, server.log, lambda listing: self._ready(server, gen, listing))
        except asyncio.CancelledError:
            raise
        except BaseException as e:
            self._failed(server, gen, reason_of(e))
            return
        if link.gone.is_set():
            self._failed(server, gen, "the server exited")

    def _failed(self, server: _Server, gen: int, reason: str) -> None:
        tail = server.log.tail(1)
        detail = f"{reason}: {tail[-1]}" if tail and reason != tail[-1] else reason
        with self._lock:
            if server.generation != gen or self._closed or server.status.state == "failed":
                return  # a newer command stands, or this generation's failure was said already
            self._change(server.spec.name, state="failed", error=detail)
        self._emit(msgs.Warning(text=f"mcp server {server.spec.name} failed: {detail} (/mcp list)", code="mcp"))

    def _ready(self, server: _Server, gen: int, listing: Listing) -> None:
        from mrsmith_tui.mcp.tool import McpTool

        with self._lock:
            if server.generation != gen:
                return
            key = server.status.key
            names = tool_names(key, (t.original for t in listing.tools))
            server.tools = tuple(McpTool(self, server.spec.name, key, info, names[info.original],
                                         honour_read_only=server.trusted_for_hints) for info in listing.tools)
            self._change(server.spec.name, state="ready", tools=tuple(t.name for t in server.tools), note=listing.note)

    # ------------------------------------------------------------------ calls (worker threads)

    def call(self, name: str, tool: str, arguments: dict[str, Any], cancel: CancelToken) -> ToolResult:
        from mrsmith_tui.mcp.connection import call as call_tool

        with self._lock:
            server = self._servers.get(name)
            link = server.link if server is not None else None
            if server is None or link is None or server.status.state != "ready" or self._loop is None:
                return ToolResult(content=f"error: mcp server {name} is not connected; /mcp reconnect {name}", ok=False)
            gen, timeout, loop = server.generation, server.spec.call_timeout, self._loop
        future = asyncio.run_coroutine_threadsafe(call_tool(link, tool, arguments, timeout), loop)

        def stop() -> None:
            future.cancel()  # cancels the call's task: the SDK tells the server

        remove = cancel.on_cancel(stop)
        try:
            text, is_error = future.result()
        except concurrent.futures.CancelledError:
            return ToolResult.error("cancelled by the person (the server was told to stop the call)")
        except ConnectionError:
            self._failed(server, gen, "the server went away")
            return ToolResult(content=f"error: mcp server {name} is not connected; /mcp reconnect {name}", ok=False)
        except Exception as e:
            from mrsmith_tui.mcp.connection import reason_of

            return ToolResult.error(f"mcp server {name}: {reason_of(e)}")
        finally:
            remove()
        return ToolResult(content=f"Error: {text}" if is_error else text, ok=not is_error)

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Stop every server gracefully (stdin closed, then TERM, then KILL), within a few seconds."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            loop, thread = self._loop, self._thread
            links = [s.link for s in self._servers.values() if s.link is not None]
            futures = [s.future for s in self._servers.values() if s.future is not None]
            # one still starting has nothing to finish: cut it off now, never wait out its initialize
            starting = [s.future for s in self._servers.values() if s.future is not None and s.status.state == "starting"]
        if loop is None or thread is None:
            return
        for future in starting:
            future.cancel()
        for link in links:
            loop.call_soon_threadsafe(link.stop.set)
        concurrent.futures.wait(futures, timeout=CLOSE_SECONDS)
        for future in futures:
            future.cancel()  # one still starting (or one that never answers) is cut off; its process is stopped
        concurrent.futures.wait(futures, timeout=CLOSE_SECONDS)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(CLOSE_SECONDS)
        for server in self._servers.values():
            server.log.close()


def _quiet_sdk_logs() -> None:
    """The SDK logs what a server sends wrong (its text is untrusted) and its own warnings; Python's
    last-resort handler would print them raw on stderr, under the TUI. What matters reaches the person
    as a server's state and error instead."""
    import logging

    for name in ("mcp", "client", "httpx2", "httpcore2"):
        logger = logging.getLogger(name)
        logger.addHandler(logging.NullHandler())
        logger.propagate = False


def _changed(status: ServerStatus) -> msgs.McpServerChanged:
    return msgs.McpServerChanged(name=status.name, state=status.state, tools=len(status.tools), error=status.error,
                                 source=status.source, transport=status.transport)
