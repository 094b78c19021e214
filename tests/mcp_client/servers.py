"""Helpers for the MCP tests: configs that run the fixture server (fixture_server.py, the SDK's own
server API), a hub around them, and the HTTP fixture server as a subprocess on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.mcp.config import load_specs
from mrsmith_tui.mcp.service import McpServers
from mrsmith_tui.tools.base import ApprovalQuery, Decision, ToolContext, ToolResult

FIXTURE = Path(__file__).with_name("fixture_server.py")


def stdio_entry(**extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(FIXTURE), "stdio"], **extra}


def write_config(path: Path, servers: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


class Recorder:
    """A sink that keeps every Msg (thread-safe enough: list.append)."""

    def __init__(self) -> None:
        self.msgs: list[msgs.Msg] = []

    def __call__(self, m: msgs.Msg) -> None:
        self.msgs.append(m)

    def warnings(self, code: str) -> list[str]:
        return [m.text for m in self.msgs if isinstance(m, msgs.Warning) and m.code == code]


class ScriptedApprover:
    """Answers trust prompts (and approvals) from a list; remembers what it was asked."""

    def __init__(self, *answers: Decision) -> None:
        self.answers = list(answers)
        self.asked: list[ApprovalQuery] = []
        self.lock = threading.Lock()

    def approve(self, query: ApprovalQuery) -> Decision:
        with self.lock:
            self.asked.append(query)
            return self.answers.pop(0) if self.answers else "no"

    def confirm_continue(self, rounds: int, agent_id: str | None = None) -> bool:
        return False

    def ask(self, questions: Any, agent_id: str | None = None) -> str | None:
        return None


@contextmanager
def hub_for(root: Path, servers: dict[str, Any], *, mode: str = "yes", approver: Any = None,
            user: dict[str, Any] | None = None, wait: float = 90.0):  # a safety net: it returns once settled
    """McpServers over `servers` as root/.mcp.json (and `user` as the user file), started and settled."""
    write_config(root / ".mcp.json", servers)
    user_path = write_config(root.parent / f"{root.name}-user-mcp.json", user or {})
    specs, warnings = load_specs(root, user_path=user_path)
    assert not warnings, warnings
    sink = Recorder()
    hub = McpServers(specs, root=root, emit=sink, mode=mode, approver=approver)  # type: ignore[arg-type]
    hub.sink = sink  # type: ignore[attr-defined]
    try:
        hub.start()
        hub.wait_settled(wait)
        yield hub
    finally:
        hub.close()


def tool(hub: McpServers, name: str):
    found = [t for t in hub.current_tools() if t.name == name]
    assert found, f"{name} not among {[t.name for t in hub.current_tools()]}"
    return found[0]


def call(hub: McpServers, name: str, args: dict[str, Any], cancel: CancelToken | None = None) -> ToolResult:
    ctx = ToolContext(root=hub.hub.root, cancel=cancel or CancelToken(), approver=ScriptedApprover())
    return tool(hub, name).run(args, ctx)


@contextmanager
def state_home(tmp_path_factory: pytest.TempPathFactory):
    """Module fixtures outlive the per-test HOME: keep their logs and trust store in a folder of their own."""
    with pytest.MonkeyPatch.context() as mp:
        home = tmp_path_factory.mktemp("mcp-home")
        mp.setenv("XDG_STATE_HOME", str(home / "state"))
        mp.setenv("XDG_CONFIG_HOME", str(home / "config"))
        yield home


@contextmanager
def http_server(name: str = "web", *, json_response: bool = False):
    """The fixture server over streamable HTTP on 127.0.0.1 (a free port): yields (url, process). With
    `json_response` it answers with plain JSON bodies instead of event streams."""
    env = {**os.environ, "FIXTURE_NAME": name, "FIXTURE_JSON": "1" if json_response else "0"}
    proc = subprocess.Popen([sys.executable, str(FIXTURE), "http"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("PORT "), line
        yield f"http://127.0.0.1:{int(line.split()[1])}/mcp", proc
    finally:
        proc.kill()
        proc.wait(10)
