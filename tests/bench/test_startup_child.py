"""The start-up bench measures `mrsmith` as a person starts it, with .pyc caching on."""

from __future__ import annotations

import os
import subprocess
import sys

from bench import startup


def test_children_run_with_bytecode_caching_on():
    env = startup.child_env({"PYTHONDONTWRITEBYTECODE": "1", "HOME": "/somewhere"})
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["HOME"] == "/somewhere"


def test_the_app_child_is_the_real_cli_and_reaches_its_first_frame():
    proc = subprocess.run([sys.executable, "-m", "bench.startup", "mrsmith"], cwd=startup.REPO,
                          env=startup.child_env(dict(os.environ)), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines() == ["FRAME"], proc.stderr
    assert startup.time_once("mrsmith", startup.child_env(dict(os.environ))) is not None
