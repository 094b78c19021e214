"""shell: run a command with `bash -c` in the root; read-only commands run without asking."""

from __future__ import annotations

import codecs
import io
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.security.environment import child_environment
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools import joblog
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.exact_command import offered
from mrsmith_tui.tools.jobs import JOBS, Job, job_log_dir
from mrsmith_tui.tools.output_limit import HeadTail, LiveThrottle
from mrsmith_tui.tools.shell.pipe_drain import drain

DEFAULT_TIMEOUT_MS = 30_000
MAX_TIMEOUT_MS = 600_000
MAX_OUTPUT = 50_000  # characters sent back to the model


def cap_output(text: str, limit: int = MAX_OUTPUT) -> str:
    """Head and tail of a long output, saying how much of the middle was cut."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit // 2], text[-(limit // 2) :]
    cut = len(text) - len(head) - len(tail)
    return f"{head}\n[... {cut} characters cut from the middle of {len(text)} ...]\n{tail}"


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the process group: children and grandchildren too
    except (ProcessLookupError, PermissionError):
        pass


def _refusal(command: str) -> str | None:
    """Why `command` cannot run here at all (a full-screen program: tools/shell/full_screen.py)."""
    from mrsmith_tui.tools.shell.full_screen import refusal  # the parser: at the first command

    return refusal(command)


class ShellTool(BaseTool):
    name = "shell"
    read_only = False
    description = (
        "Run a shell command with `bash -c` in the working directory and get its stdout, stderr and exit "
        "code. There is no terminal: stdin is closed (nothing can prompt you), so pass flags like --yes or use "
        "non-interactive modes; pagers print like cat, an editor fails (git commit -m), and a full-screen program "
        "(vim, nano, top, watch, ...) is refused. "
        f"Times out after {DEFAULT_TIMEOUT_MS // 1000} s unless you set timeout_ms (up to "
        f"{MAX_TIMEOUT_MS // 60000} minutes); on timeout the whole process group is killed. For a server or "
        "watcher that keeps running, set background: true: you get its pid and a log file to read later; "
        "it is stopped when mrsmith exits unless you also set detach: true. "
        "Read-only commands (ls, cat, grep, rg, find, git status/log/diff, ...) run at once; anything that "
        "may change files asks the person first. Prefer read_file/glob/edit for files. Output longer than "
        f"{MAX_OUTPUT // 1000} KB is cut in the middle (the start and the end are kept)."
    )
    parameters = {
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "The command line, run as `bash -c <command>`"},
            "timeout_ms": {"type": "integer", "description": f"Timeout in milliseconds (default {DEFAULT_TIMEOUT_MS}, max {MAX_TIMEOUT_MS})"},
            "background": {"type": "boolean", "description": "Start in the background and return at once with pid and log path"},
            "detach": {"type": "boolean", "description": "With background: keep it running after mrsmith exits"},
        },
        "required": ["command"],
        "additionalProperties": False,
    }

    def __init__(
        self,
        harmless: Iterable[str] = (),
        dangerous: Iterable[str] = (),
        env_passthrough: Iterable[str] = (),
        sensitive: SensitivePaths | None = None,
    ) -> None:
        self.harmless = tuple(harmless)
        self.dangerous = tuple(dangerous)
        self.env_passthrough = tuple(env_passthrough)  # shellEnvPassthrough: secret-looking names it may see
        self.sensitive = sensitive or SensitivePaths()  # config `sensitivePaths` extends it

    def summary(self, args: dict[str, Any]) -> str:
        command = args.get("command")
        return command.strip().splitlines()[0][:200] if isinstance(command, str) and command.strip() else ""

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            return None  # run() reports it
        from mrsmith_tui.tools.shell.classify import classify  # the parser and its rules: at the first command

        verdict = classify(command, self.harmless, self.dangerous, root=ctx.root, sensitive=self.sensitive)
        if verdict.read_only:
            return None
        return ApprovalNeed(reason=verdict.reason or "the command may change files", spec=verdict.spec, rule=verdict.rule,
                            exact=offered(self.name, command, verdict.spec))  # "always" remembers this command

    def plan_read_only(self, args: dict[str, Any], ctx: ToolContext) -> str | None:
        """Plan mode (tools.permission_mode): None when the allowlist alone judges the command read-only, the
        person's harmless commands left out (they may write: `make test`); otherwise why not."""
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            return None  # run() reports it
        from mrsmith_tui.tools.shell.classify import classify  # lazily, as approval() does

        verdict = classify(command, (), self.dangerous, root=ctx.root, sensitive=self.sensitive)
        return None if verdict.read_only else (verdict.reason or "the command may change files")

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            return ToolResult.error("command must be a non-empty string")
        if refused := _refusal(command):
            return ToolResult.error(refused)
        timeout_ms = args.get("timeout_ms", DEFAULT_TIMEOUT_MS)
        if not isinstance(timeout_ms, int) or isinstance(timeout_ms, bool) or not 0 < timeout_ms <= MAX_TIMEOUT_MS:
            return ToolResult.error(f"timeout_ms must be an integer from 1 to {MAX_TIMEOUT_MS}, got {timeout_ms!r}")
        if args.get("detach") and not args.get("background"):
            return ToolResult.error("detach applies to background jobs: set background: true too")
        if args.get("background"):
            return self._background(command, ctx, detach=bool(args.get("detach")))
        return self._foreground(command, timeout_ms / 1000, ctx)

    def _background(self, command: str, ctx: ToolContext, *, detach: bool = False) -> ToolResult:
        try:
            fd, log_path = tempfile.mkstemp(prefix="bg-", suffix=".log", dir=job_log_dir())
        except OSError as e:
            return ToolResult.error(f"cannot create a log file for the job: {e.strerror or e}")
        # A detached job outlives mrsmith, so it writes its log itself; any other writes into a pipe
        # that mrsmith copies to the log with a bound (joblog).
        read_fd, out_fd = (None, fd) if detach else os.pipe()
        try:
            proc = subprocess.Popen(
                ["bash", "-c", command], cwd=ctx.root, stdin=subprocess.DEVNULL, stdout=out_fd,
                stderr=subprocess.STDOUT, start_new_session=True, env=child_environment(self.env_passthrough, root=ctx.root),
            )
        except OSError as e:
            if read_fd is not None:
                os.close(read_fd)
                os.close(fd)
            return ToolResult.error(f"cannot start bash: {e}")
        finally:
            os.close(out_fd)
        if read_fd is not None:
            joblog.pump(read_fd, fd, f"mrsmith-log-{proc.pid}")
        emit = ctx.emit

        def ended(job: Job) -> None:
            emit(msgs.JobEnded(job_id=job.job_id, pid=job.pid, exit_code=job.proc.returncode))

        job = JOBS.add(proc, command, log_path, detach, on_exit=ended)
        emit(msgs.JobStarted(job_id=job.job_id, pid=job.pid, command=command, log=log_path, detach=detach))
        lifetime = ("it keeps running after mrsmith exits (detach)" if detach else
                    f"it is stopped when mrsmith exits; the log keeps the first {joblog.HEAD_BYTES >> 20} MiB and the latest output")
        return ToolResult(
            content=f"Started in the background: pid {proc.pid}; stdout and stderr go to {log_path}. "
            f"Read it with shell `tail -n 50 {log_path}`; stop it with `kill {proc.pid}`; {lifetime}."
        )

    def _foreground(self, command: str, timeout: float, ctx: ToolContext) -> ToolResult:
        try:
            proc = subprocess.Popen(
                ["bash", "-c", command], cwd=ctx.root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, env=child_environment(self.env_passthrough, root=ctx.root),
            )
        except OSError as e:
            return ToolResult.error(f"cannot start bash: {e}")
        kept = {"stdout": HeadTail(MAX_OUTPUT), "stderr": HeadTail(MAX_OUTPUT)}
        live = LiveThrottle(ctx.output)
        lock = threading.Lock()
        finished = threading.Event()  # the call has its result: a process still holding the pipe is not heard

        def pump(stream: io.BufferedReader, key: str) -> None:  # a pipe of Popen's, bytes and buffered
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            for raw in iter(lambda: stream.read1(65536), b""):
                text = decoder.decode(raw)
                with lock:
                    if finished.is_set():
                        continue  # drained, so the holder does not block on a full pipe, and dropped
                    kept[key].add(text)
                    live.feed(text)
            tail = decoder.decode(b"", final=True)
            with lock:
                if tail and not finished.is_set():
                    kept[key].add(tail)
            stream.close()

        assert proc.stdout is not None and proc.stderr is not None
        fds = [proc.stdout.fileno(), proc.stderr.fileno()]
        readers = [threading.Thread(target=pump, args=(proc.stdout, "stdout"), daemon=True),
                   threading.Thread(target=pump, args=(proc.stderr, "stderr"), daemon=True)]
        for r in readers:
            r.start()
        unregister = ctx.cancel.on_cancel(lambda: _kill_group(proc))
        untrack = JOBS.track(proc.pid)  # killed if mrsmith is, mid-call
        deadline = time.monotonic() + timeout
        timed_out = False
        try:
            while True:
                try:
                    proc.wait(timeout=0.05)
                    break
                except subprocess.TimeoutExpired:
                    if time.monotonic() >= deadline:
                        timed_out = True
                        _kill_group(proc)
        finally:
            unregister()
            untrack()
            _kill_group(proc)  # children left behind (`sleep 100 &`) would hold the pipes open
            drain(readers, fds)
            with lock:
                finished.set()
        live.close()
        cancelled = ctx.cancel.cancelled
        with lock:
            out, err = kept["stdout"].text(), kept["stderr"].text()
        parts = []
        if out:
            parts.append(out)
        if err:
            parts.append("[stderr]\n" + err)
        if timed_out:
            parts.append(f"[timed out after {timeout:g} s; the process group was killed]")
        elif cancelled:
            parts.append("[cancelled; the process group was killed]")
        code = proc.returncode
        parts.append(f"[exit code {code}]")
        return ToolResult(content="\n".join(parts), ok=(code == 0 and not timed_out and not cancelled), exit_code=code)
