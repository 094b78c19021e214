"""One drop-in tool call in a child process (`python -I -B child.py`), bounded in time and output.

The child gets the code mrsmith read (never the path to read again), runs in the root with the
environment it is handed (the session's scrubbed one: security.environment.child_environment), in a
process group of its own. On the timeout, a cancel, or a result over MAX_RESULT_BYTES the whole group
is killed with SIGKILL, and the message says that much and no more: a process the tool moved into a
session of its own (setsid) has left the group and is not claimed killed. Reading never waits for
such a process either: once the child has ended, what its pipes hold is taken without blocking.

Standard library only (the bundled `self` skill's try_tool.py runs it outside mrsmith).
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CHILD", "MAX_RESULT_BYTES", "MAX_RESULT_CHARS", "Outcome", "run_code"]

CHILD = Path(__file__).resolve().parent / "child.py"
MAX_RESULT_BYTES = 1024 * 1024  # of the child's answer (JSON); more and the child is stopped
MAX_RESULT_CHARS = 50_000  # of the result handed back (head and tail kept)
STDERR_KEEP = 4000  # characters of the tool's stderr kept, head and tail each
_READ = 65536

OnCancel = Callable[[Callable[[], None]], Callable[[], None]]


@dataclass(frozen=True)
class Outcome:
    ok: bool
    text: str  # the result; or what went wrong, first line first


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def cap_text(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    if len(text) <= limit:
        return text
    head, tail = text[: limit // 2], text[-(limit // 2):]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters cut from the middle of {len(text)} ...]\n{tail}"


class _Pipes:
    """The child's three pipes, served by one selector: the request written, stdout and stderr read, bounded."""

    def __init__(self, proc: subprocess.Popen[bytes], request: bytes) -> None:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self.sel = selectors.DefaultSelector()
        self.pending = memoryview(request)
        self.out = bytearray()
        self.err_head = bytearray()
        self.err_tail = bytearray()
        self.err_cut = 0
        self.over = False
        self.open = 0
        for stream, events in ((proc.stdin, selectors.EVENT_WRITE), (proc.stdout, selectors.EVENT_READ),
                               (proc.stderr, selectors.EVENT_READ)):
            os.set_blocking(stream.fileno(), False)
            self.sel.register(stream.fileno(), events, stream)
            self.open += 1
        self.stdin_fd = proc.stdin.fileno()
        self.stdout_fd = proc.stdout.fileno()

    def _close(self, fd: int, stream: Any) -> None:
        self.sel.unregister(fd)
        stream.close()
        self.open -= 1

    def serve(self, wait: float) -> None:
        if self.open == 0:
            if wait > 0:
                time.sleep(wait)
            return
        for key, _ in self.sel.select(wait):
            fd, stream = int(key.fd), key.data
            if fd == self.stdin_fd:
                try:
                    n = os.write(fd, self.pending[:_READ])
                    self.pending = self.pending[n:]
                except BlockingIOError:
                    continue
                except OSError:  # the child is gone or closed its stdin
                    self.pending = memoryview(b"")
                if not self.pending:
                    self._close(fd, stream)
                continue
            try:
                chunk = os.read(fd, _READ)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._close(fd, stream)
            elif fd == self.stdout_fd:
                self.out += chunk
                self.over = self.over or len(self.out) > MAX_RESULT_BYTES
            else:
                self._keep_err(chunk)

    def _keep_err(self, chunk: bytes) -> None:
        room = STDERR_KEEP - len(self.err_head)
        if room > 0:
            self.err_head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.err_tail += chunk
            if len(self.err_tail) > STDERR_KEEP:
                self.err_cut += len(self.err_tail) - STDERR_KEEP
                del self.err_tail[: len(self.err_tail) - STDERR_KEEP]

    def drain(self) -> None:
        """What the pipes hold now, without waiting (a process that escaped the group may keep them open)."""
        for _ in range(64):
            before = (len(self.out), len(self.err_head) + len(self.err_tail) + self.err_cut, self.open)
            self.serve(0)
            if (len(self.out), len(self.err_head) + len(self.err_tail) + self.err_cut, self.open) == before:
                break
        for key in list(self.sel.get_map().values()):
            self._close(int(key.fd), key.data)
        self.sel.close()

    def stderr(self) -> str:
        head = self.err_head.decode("utf-8", "replace")
        tail = self.err_tail.decode("utf-8", "replace")
        cut = f"\n[... {self.err_cut} byte{'s' if self.err_cut != 1 else ''} of stderr cut ...]\n" if self.err_cut else ""
        return (head + cut + tail).strip()


def run_code(name: str, path: Path, code: str, args: dict[str, Any], *, cwd: Path, env: Mapping[str, str],
             timeout: float, on_cancel: OnCancel | None = None,
             track: Callable[[int], Callable[[], None]] | None = None, python: str | None = None) -> Outcome:
    """Run tool `name`'s `code` (read from `path`) on `args`. Never raises for what the tool does."""
    request = json.dumps({"path": str(path), "code": code, "args": args}).encode()
    try:
        proc = subprocess.Popen([python or sys.executable, "-I", "-B", str(CHILD)], cwd=cwd, env=dict(env),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except OSError as e:
        return Outcome(False, f"drop-in tool {name} could not start Python: {e.strerror or e}")
    cancelled: list[bool] = []

    def cancel() -> None:
        cancelled.append(True)
        _kill_group(proc.pid)

    unregister = on_cancel(cancel) if on_cancel is not None else (lambda: None)
    untrack = track(proc.pid) if track is not None else (lambda: None)
    pipes = _Pipes(proc, request)
    deadline = time.monotonic() + timeout
    timed_out = False
    try:
        while proc.poll() is None:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            if pipes.over:
                break
            pipes.serve(min(0.05, left))
    finally:
        unregister()
        _kill_group(proc.pid)  # what it left behind in its group (a `sleep &`) would hold the pipes
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        untrack()
        pipes.drain()
    return _outcome(name, proc, pipes, timeout=timeout, timed_out=timed_out, cancelled=bool(cancelled))


def _outcome(name: str, proc: subprocess.Popen[bytes], pipes: _Pipes, *, timeout: float, timed_out: bool,
             cancelled: bool) -> Outcome:
    err = pipes.stderr()
    tail = f"\n[stderr]\n{err}" if err else ""
    group = f"its process group ({proc.pid}) was killed; a process it moved out of that group (setsid) was not"
    if timed_out:
        return Outcome(False, f"drop-in tool {name} timed out after {timeout:g} s (dropInToolTimeout): {group}{tail}")
    if cancelled:
        return Outcome(False, f"drop-in tool {name} cancelled: {group}{tail}")
    if pipes.over:
        return Outcome(False, f"drop-in tool {name}: its answer passed {MAX_RESULT_BYTES // 1024} KiB: {group}{tail}")
    try:
        answer = json.loads(bytes(pipes.out).decode("utf-8", "replace")) if pipes.out else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        code = proc.returncode
        how = f"was killed by signal {-code}" if code is not None and code < 0 else f"ended (exit code {code})"
        return Outcome(False, f"drop-in tool {name} {how} without a result{tail}")
    if isinstance(answer.get("result"), str):
        return Outcome(True, cap_text(answer["result"]))
    said = str(answer.get("error") or "no result")[:2000]
    trace = str(answer.get("trace") or "").strip()
    detail = f"\n{trace}" if trace else ""
    return Outcome(False, cap_text(f"drop-in tool {name} failed: {said}{detail}{tail}"))
