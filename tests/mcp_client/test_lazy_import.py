"""`import mcp` costs most of a second: it never happens on the thread that composes a session, and not
at all without a config naming a server (or with only untrusted ones, headless)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = r"""
import sys, threading, json
from pathlib import Path
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.tools.approval import PolicyApprover
config = Config(providers=[ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1")],
                agents=[AgentConfig(name="a", provider="p", model="m")], sessions_dir=sys.argv[2])
seen = []
session = compose_session(config=config, cwd=Path(sys.argv[1]), sink=seen.append, approver=PolicyApprover(),
                          persist=False, mcp_trust=sys.argv[3])
print(json.dumps({"mcp": "mcp" in sys.modules, "mcp_types": "mcp_types" in sys.modules,
                  "hub": session.services.mcp is not None}))
session.close()
"""


def _probe(tmp_path: Path, servers: dict | None, mode: str) -> dict:
    root = tmp_path / "root"
    root.mkdir()
    if servers is not None:
        (root / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "MRSMITH_NO_CONTEXT_PROBE": "1"}
    out = subprocess.run([sys.executable, "-c", PROBE, str(root), str(tmp_path / "s"), mode], capture_output=True,
                         text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_no_config_no_sdk_no_hub(tmp_path):
    assert _probe(tmp_path, None, "stored") == {"mcp": False, "mcp_types": False, "hub": False}


def test_an_untrusted_project_server_loads_nothing_of_the_sdk(tmp_path):
    assert _probe(tmp_path, {"demo": {"command": "x"}}, "stored") == {"mcp": False, "mcp_types": False, "hub": True}
