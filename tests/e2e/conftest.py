"""Running the real `mrsmith` CLI as a subprocess against the loopback server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Finished:
    code: int
    out: str
    err: str
    sessions: Path

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]

    def transcripts(self) -> list[list[dict]]:
        """Every transcript written, each line parsed as JSON (a torn line fails the test)."""
        return [[json.loads(line) for line in p.read_text().splitlines()] for p in sorted(self.sessions.glob("*/transcript.jsonl"))]


class Cli:
    def __init__(self, tmp_path: Path) -> None:
        self.cwd = tmp_path / "project"
        self.cwd.mkdir()
        self.sessions = tmp_path / "sessions"
        self.env = {
            **os.environ,
            "NO_COLOR": "1",
            "MRSMITH_SESSIONS_DIR": str(self.sessions),
            "PYTHONPATH": str(REPO),
        }
        self.env.pop("MRSMITH_DEBUG", None)

    def using(self, base_url: str, model: str = "test-model", api_key: str = "sk-test") -> Cli:
        self.env.update({"OPENAI_BASE_URL": base_url, "MODEL": model, "OPENAI_API_KEY": api_key})
        return self

    def args(self, *argv: str) -> list[str]:
        return [sys.executable, "-m", "mrsmith_tui", *argv]

    def run(self, *argv: str, input: str | None = None, timeout: float = 100, env: dict | None = None) -> Finished:
        proc = subprocess.run(
            self.args(*argv),
            input=input,
            stdin=None if input is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd=self.cwd,
            env={**self.env, **(env or {})},
            timeout=timeout,
        )
        return Finished(proc.returncode, proc.stdout, proc.stderr, self.sessions)

    def popen(self, *argv: str) -> subprocess.Popen:
        return subprocess.Popen(
            self.args(*argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.cwd, env=self.env,
            preexec_fn=_default_signals,
        )


def _default_signals() -> None:
    """The child gets the signal dispositions of a terminal session even when the suite runs under
    nohup or as a background job (which ignore SIGHUP / SIGINT): the signal tests send them."""
    for sig in (signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)


@pytest.fixture
def cli(tmp_path) -> Cli:
    return Cli(tmp_path)
