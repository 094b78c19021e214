"""Headless one-shot: `mrsmith -p PROMPT` against the same request made by a minimal httpx script
(bench/floor_client.py), both as child processes on one loopback answer, alternating.

The figure is spawn -> exit of each: the interpreter, the imports, the config, the request, the
streamed answer printed, the transcript written and closed. The children get a fresh HOME with no
config (the endpoint comes from the flags), and a warm .pyc cache (one untimed run of each first).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.report import Figure

REPO = Path(__file__).resolve().parent.parent
FLOOR = REPO / "bench" / "floor_client.py"
ANSWER_TOKENS = 2_000
MODEL = "bench-model"


def _env() -> dict[str, str]:
    home = Path(tempfile.mkdtemp(prefix="mrsmith-oneshot-"))
    # Python's defaults for both children: .pyc files written and read, stdout buffered (a floor writing
    # each token unbuffered, as PYTHONUNBUFFERED=1 would have it, is not the floor).
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED",
                                                          "OPENAI_API_KEY", "OPENAI_BASE_URL", "MODEL", "NO_COLOR")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               XDG_STATE_HOME=str(home / ".local/state"))
    (home / "project").mkdir()
    return env


def child_cpu() -> float:
    """CPU seconds (user + system) of every child waited for so far: a run's is the difference."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float | None, float, str]:
    """(wall seconds or None, CPU seconds, why it failed)."""
    cpu0, t0 = child_cpu(), time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)
    elapsed, cpu = time.perf_counter() - t0, child_cpu() - cpu0
    if proc.returncode != 0 or "ZQXEND" not in proc.stdout:
        lines = [x for x in (proc.stderr or proc.stdout).strip().splitlines() if x.strip()]
        return None, cpu, lines[-1] if lines else f"exit code {proc.returncode}"
    return elapsed, cpu, ""


def measure(base_url: str, repeats: int) -> list[Figure]:
    env = _env()
    cwd = str(Path(env["HOME"]) / "project")
    prompt = f"stream {ANSWER_TOKENS} plain"
    floor_argv = [sys.executable, str(FLOOR), base_url, MODEL, prompt]
    app_argv = [sys.executable, "-m", "mrsmith_tui", "--base-url", base_url, "--model", MODEL, "--api-key", "none",
                "-p", prompt]
    floor: list[tuple[float, float]] = []
    app: list[tuple[float, float]] = []
    problem = ""
    _time(floor_argv, env, cwd)
    _time(app_argv, env, cwd)
    for _ in range(repeats):
        t, cpu, _why = _time(floor_argv, env, cwd)
        if t is not None:
            floor.append((t, cpu))
        t, cpu, why = _time(app_argv, env, cwd)
        if t is not None:
            app.append((t, cpu))
        problem = problem or why
    f = statistics.median(t for t, _ in floor) if floor else None
    a = statistics.median(t for t, _ in app) if app else None
    fc = statistics.median(c for _, c in floor) if floor else None
    ac = statistics.median(c for _, c in app) if app else None
    return [
        Figure(f"httpx script: {ANSWER_TOKENS:,}-token answer, spawn -> exit", f * 1000 if f else None, "ms", "",
               f"median of {len(floor)}; CPU {fc * 1000:.0f} ms" if fc else ""),
        Figure("mrsmith -p: the same answer, spawn -> exit", a * 1000 if a else None, "ms", "",
               problem or (f"median of {len(app)}; CPU {ac * 1000:.0f} ms" if ac else "")),
        Figure("  ratio mrsmith / httpx script", a / f if a and f else None, "x", "<= 1.3"),
        Figure("  ratio of their CPU time (steadier on a busy machine)", ac / fc if ac and fc else None, "x", ""),
    ]
