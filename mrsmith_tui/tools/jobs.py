"""Background shell jobs: one registry per process, so none outlives mrsmith unless asked to.

Foreground commands are tracked too while they run, so a SIGTERM in the middle of one ends it.

Each job runs in its own session (process group). When mrsmith exits (normally, on
Ctrl-C, or on SIGTERM/SIGHUP) every job not started with `detach: true` gets SIGTERM on its
whole group, then SIGKILL if it is still there shortly after. SIGKILL of mrsmith itself
cannot be caught; nothing can clean up after that.

A process can leave its group (`setsid`, `set -m`, `disown`), so on Linux mrsmith is also a
child subreaper: whatever its commands leave behind is re-parented to mrsmith instead of
init, and at exit every such descendant (outside a detached job's session) is killed and
reaped. An orphan stays a zombie child of mrsmith until then, which also keeps its pid and
group id from being reused: a job is marked ended only when its leader has been reaped and
its group is empty, and an ended job is never signalled.
"""

from __future__ import annotations

import atexit
import builtins
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mrsmith_tui.security.private_files import owned_private_dir

GRACE_SECONDS = 1.0  # between SIGTERM and SIGKILL at exit


class Job:
    """A background shell command (a plain class, not a dataclass: this module loads at start-up, #26)."""

    def __init__(self, job_id: str, pid: int, command: str, log: str, detach: bool, proc: subprocess.Popen[bytes]) -> None:
        self.job_id, self.pid, self.command, self.log, self.detach, self.proc = job_id, pid, command, log, detach, proc
        self.started = time.time()
        self.ended = False  # leader reaped and group empty: its ids may belong to someone else now

    def __repr__(self) -> str:
        return f"Job({self.job_id!r}, pid={self.pid}, command={self.command!r}, ended={self.ended})"

    @property
    def exit_code(self) -> int | None:
        return self.proc.poll()

    def describe(self) -> str:
        code = self.exit_code
        state = "running" if code is None else f"exited {code}"
        detached = " · detached" if self.detach else ""
        return f"{self.job_id}  pid {self.pid}  {state}{detached}  {self.command.splitlines()[0][:80]}  → {self.log}"


class JobRegistry:
    def __init__(self) -> None:
        self._jobs: list[Job] = []
        self._foreground: set[int] = set()  # process groups of running foreground commands
        self._lock = threading.Lock()
        self._n = 0

    def track(self, pgid: int) -> Callable[[], None]:
        """Count a foreground command's group as ours until the returned function is called."""
        with self._lock:
            self._foreground.add(pgid)

        def untrack() -> None:
            with self._lock:
                self._foreground.discard(pgid)

        return untrack

    def add(self, proc: subprocess.Popen[bytes], command: str, log: str, detach: bool,
            on_exit: Callable[[Job], None] | None = None) -> Job:
        with self._lock:
            self._n += 1
            job = Job(f"job{self._n}", proc.pid, command, log, detach, proc)
            self._jobs.append(job)

        def reap() -> None:  # no zombie, and the frontend hears the end
            proc.wait()
            job.ended = not _group_alive(proc.pid)
            if on_exit is not None:
                try:
                    on_exit(job)
                except Exception:  # a closed frontend must not matter
                    pass

        threading.Thread(target=reap, name=f"mrsmith-{job.job_id}", daemon=True).start()
        return job

    def list(self) -> list[Job]:
        with self._lock:
            return list(self._jobs)

    def stop_all(self, grace: float = GRACE_SECONDS) -> builtins.list[Job]:  # `list` is the method above
        """SIGTERM, then SIGKILL, to the process group of every job not detached; the jobs signalled.

        A foreground command still running (mrsmith was killed mid-call) gets SIGKILL at once, as on cancel."""
        with self._lock:
            foreground = list(self._foreground)
        for pgid in foreground:
            _signal_group(pgid, signal.SIGKILL)
        targets = [j for j in self.list() if not j.detach and not j.ended]
        signalled = [j for j in targets if _signal_group(j.pid, signal.SIGTERM)]
        end = time.monotonic() + grace
        while signalled and time.monotonic() < end and any(_group_alive(j.pid) for j in signalled):
            time.sleep(0.02)
        for j in signalled:
            _signal_group(j.pid, signal.SIGKILL)
        groups = [j.pid for j in signalled] + foreground
        end = time.monotonic() + grace
        while time.monotonic() < end and any(_group_alive(g) for g in groups):
            time.sleep(0.01)  # their reapers collect them; gone means gone before mrsmith exits
        if _subreaper:
            kill_orphans({j.pid for j in self.list() if j.detach})
        return signalled


_subreaper = False
_PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Have orphaned descendants re-parented to this process (Linux); whether it worked."""
    global _subreaper
    if not os.path.isdir("/proc/self"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


def _children() -> list[tuple[int, int]]:
    """(pid, session id) of this process's children, zombies included."""
    me = os.getpid()
    out: list[tuple[int, int]] = []
    names = _listed_children()
    if names is None:  # a kernel without the children lists: every process is looked at
        try:
            names = [name for name in os.listdir("/proc") if name.isdigit()]
        except OSError:
            return out
    for name in names:
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()  # the name in parentheses may hold spaces
        if len(fields) > 3 and int(fields[1]) == me:
            out.append((int(name), int(fields[3])))
    return out


def _listed_children() -> list[str] | None:
    """The pids the kernel lists as children of this process's threads (an orphan handed to a subreaper
    becomes the child of one of its threads), read from /proc/self/task/*/children: a few small reads
    at exit instead of one per process on the machine. None where the kernel does not keep the lists."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    pids: list[str] = []
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as f:
                pids += f.read().decode("ascii", "replace").split()
        except FileNotFoundError:
            if not os.path.isdir(f"/proc/self/task/{tid}"):
                continue  # the thread ended meanwhile
            return None  # the file itself is missing: no children lists here
        except OSError:
            return None
    return pids


def kill_orphans(keep_sessions: set[int], rounds: int = 50) -> int:
    """SIGKILL and reap every child outside `keep_sessions` until none is left (a killed process's own
    orphans come to us next); how many were killed."""
    killed = 0
    for _ in range(rounds):
        targets = [pid for pid, sid in _children() if sid not in keep_sessions]
        if not targets:
            break
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        for pid in targets:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass  # reaped by its job's thread
    return killed


def _signal_group(pgid: int, sig: int) -> bool:
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def job_log_dir() -> str:
    """A directory for job logs only we can use: $XDG_RUNTIME_DIR/mrsmith or <tmp>/mrsmith-<uid>, when it
    is a real directory (not a link) owned by us (made 0700 if it was not); else a fresh private one."""
    uid = os.getuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR") or ""
    use_runtime = bool(runtime) and os.path.isabs(runtime) and os.path.isdir(runtime)
    folder = Path(runtime, "mrsmith") if use_runtime else Path(tempfile.gettempdir(), f"mrsmith-{uid}")
    try:
        return str(owned_private_dir(folder))  # in a shared /tmp someone else may have made it first
    except (OSError, NotImplementedError):
        return tempfile.mkdtemp(prefix=f"mrsmith-{uid}-")


JOBS = JobRegistry()
_installed = False


def stop_jobs_at_exit(registry: JobRegistry = JOBS) -> None:
    """Stop the registry's jobs at interpreter exit and on SIGTERM/SIGHUP (call from the main thread)."""
    global _installed
    if _installed:
        return
    _installed = True
    become_subreaper()
    atexit.register(registry.stop_all)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        previous = signal.getsignal(sig)
        if previous == signal.SIG_IGN:
            continue  # under nohup a hangup is not an exit

        def handler(signum: int, frame: Any, previous: Any = previous) -> None:
            registry.stop_all()
            if callable(previous):
                previous(signum, frame)
                return
            signal.signal(signum, signal.SIG_DFL if previous in (None, signal.SIG_DFL) else previous)
            os.kill(os.getpid(), signum)

        try:
            signal.signal(sig, handler)
        except ValueError:  # not the main thread: atexit still applies
            break
