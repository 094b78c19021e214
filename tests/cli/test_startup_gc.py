"""The program's own run collects no garbage while it starts, and collects as usual once the session
is built (cli.startup_gc, #26); main([...]) called by a host leaves its collector alone."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Runs `python -m mrsmith_tui` and counts the collections from the CLI's import until the session is
# built (ready() freezes start-up's objects) and after, and the collector's state at the end.
CHILD = """
import atexit, gc, json, runpy, sys
seen = {"start": 0, "run": 0}
def count(step, info):
    if step == "start" and "mrsmith_tui.cli" in sys.modules:
        phase = "run" if gc.get_freeze_count() else "start"
        seen[phase] += 1
gc.callbacks.append(count)
def report():
    sys.stderr.write("GC " + json.dumps({**seen, "enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}) + "\\n")
atexit.register(report)
sys.argv = ["mrsmith", *sys.argv[1:]]
runpy.run_module("mrsmith_tui", run_name="__main__", alter_sys=True)
"""


def test_no_collection_while_starting_then_collection_as_usual(loopback, tmp_path):
    from loopback import text_turn

    srv = loopback([text_turn("the answer " * 2000)])
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, "--base-url", srv.base_url, "--model", "m", "--api-key", "none", "-p", "hi"],
        cwd=work, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        env={**os.environ, "MRSMITH_NO_CONTEXT_PROBE": "1", "PYTHONPATH": str(REPO), "HOME": str(tmp_path),
             "MRSMITH_SESSIONS_DIR": str(tmp_path / "sessions")})
    assert proc.returncode == 0, proc.stderr
    assert "the answer" in proc.stdout
    seen = json.loads(next(line for line in proc.stderr.splitlines() if line.startswith("GC "))[3:])
    assert seen["start"] == 0  # imports, config and session: not one collection
    assert seen["enabled"] and seen["frozen"] > 10_000 and seen["run"] > 0  # on again, start-up out of its way


def test_main_with_arguments_leaves_the_collector_alone(tmp_path, monkeypatch, capsys):
    from mrsmith_tui.cli import main

    monkeypatch.chdir(tmp_path)
    frozen = gc.get_freeze_count()
    assert main(["--list", "--sessions-dir", str(tmp_path / "sessions")]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
