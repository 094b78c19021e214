"""The real `mrsmith -p` CLI with the fleet against the loopback server: three background agents."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from loopback import text_turn, tool_calls_turn, tool_turn

from .helpers import Router

REPO = Path(__file__).resolve().parents[2]


def test_headless_spawn_three_wait_and_report(tmp_path, loopback):
    router = Router(
        {
            "main": [
                tool_calls_turn([("spawn_agent", {"task": f"W{i}: part {i}", "label": f"part {i}"}) for i in (1, 2, 3)]),
                tool_turn("wait_agents", {"timeout_ms": 20000}),
                text_turn("all three reported"),
            ],
            **{f"W{i}": [text_turn(f"report {i}")] for i in (1, 2, 3)},
        }
    )
    srv = loopback(responder=router)
    (tmp_path / "project").mkdir()
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO), "MRSMITH_SESSIONS_DIR": str(tmp_path / "sessions"),
           "OPENAI_BASE_URL": srv.base_url, "MODEL": "test-model", "OPENAI_API_KEY": "sk-test"}
    done = subprocess.run(
        [sys.executable, "-m", "mrsmith_tui", "-p", "split the work"], cwd=tmp_path / "project", env=env,
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=100,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "all three reported"
    for i in (1, 2, 3):
        assert f"[agent-{i}] started part {i}" in done.stderr and f"[agent-{i}] report {i}" in done.stderr
    collected = [m for m in router.requests("main")[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert all(f"report {i}" in collected for i in (1, 2, 3))
    (folder,) = (tmp_path / "sessions").iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["agent-1.jsonl", "agent-2.jsonl", "agent-3.jsonl", "transcript.jsonl"]
    for i in (1, 2, 3):
        lines = [json.loads(x) for x in (folder / f"agent-{i}.jsonl").read_text().splitlines()]
        assert lines[0]["type"] == "TranscriptHeader" and lines[-1]["type"] == "RunEnded"
