"""Shared pieces for the agents tests: a session over the loopback server, a router that
scripts the main agent, sub-agents and background agents separately, and small tools."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loopback import Turn, text_turn
from mrsmith_tui import msgs
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.skills.catalog import SkillDirs
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult


def role_of(body: dict[str, Any]) -> tuple[str, str]:
    """("main" | "sub" | "worker", the context's first user message)."""
    messages = body.get("messages", [])
    system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
    first_user = next((m["content"] for m in messages if m["role"] == "user"), "")
    if "# You are a sub-agent" in system:
        return "sub", first_user
    if "# You are a background agent" in system:
        return "worker", first_user
    return "main", first_user


class Router:
    """Scripts keyed by "main" or by a marker in an agent's task; the turn is picked by how many
    assistant messages the request already holds (the round), so routing needs no state."""

    def __init__(self, scripts: dict[str, list[Turn]]) -> None:
        self.scripts = scripts
        self.seen: list[tuple[str, str, dict[str, Any]]] = []
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any], n: int) -> Turn:
        role, first = role_of(body)
        with self._lock:
            self.seen.append((role, first, body))
        key = "main" if role == "main" else next((k for k in self.scripts if k != "main" and k in first), None)
        turns = self.scripts.get(key) if key else None
        if not turns:
            return text_turn(f"(nothing scripted for {role}: {first[:40]})")
        rounds = sum(1 for m in body.get("messages", []) if m["role"] == "assistant")
        return turns[min(rounds, len(turns) - 1)]

    def requests(self, role: str, marker: str = "") -> list[dict[str, Any]]:
        with self._lock:
            return [b for r, first, b in self.seen if r == role and marker in first]


class PersonApprover:
    """Answers every approval with `decision`, after `gate` is set (so a test can watch the wait)."""

    def __init__(self, decision: str = "yes") -> None:
        self.decision = decision
        self.queries: list[Any] = []
        self.gate = threading.Event()
        self.gate.set()

    def approve(self, query):
        self.queries.append(query)
        self.gate.wait(90)  # a safety net, not a budget
        return self.decision

    def confirm_continue(self, rounds, agent_id=None):
        return False

    def ask(self, questions, agent_id=None):
        return None


class EchoTool(BaseTool):
    name = "echo"
    description = "Echo the text back."
    def __init__(self) -> None:
        self.parameters = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
        self.contexts: list[ToolContext] = []

    def run(self, args, ctx):
        self.contexts.append(ctx)
        return ToolResult(content=f"echo: {args['text']}")


class GuardedTool(BaseTool):
    name = "guarded_write"
    description = "Needs the person's approval."
    read_only = False

    def approval(self, args, ctx):
        return ApprovalNeed(reason="it writes", spec="guarded_write")

    def run(self, args, ctx):
        return ToolResult(content="wrote")


class SlowShell(BaseTool):
    """A shell-like tool: a real process in its own group, killed when the run is cancelled."""

    name = "slow_shell"
    description = "Run sleep."
    def __init__(self) -> None:
        self.parameters = {"type": "object", "properties": {"seconds": {"type": "number"}}, "required": ["seconds"]}
        self.procs: list[subprocess.Popen] = []
        self.started = threading.Event()

    def run(self, args, ctx):
        proc = subprocess.Popen(["sleep", str(args["seconds"])], start_new_session=True)
        self.procs.append(proc)
        remove = ctx.cancel.on_cancel(lambda: os.killpg(proc.pid, signal.SIGKILL))
        self.started.set()
        try:
            code = proc.wait()
        finally:
            remove()
        ctx.cancel.check()
        return ToolResult(content=f"exit {code}")


def make_config(tmp_path: Path, base_url: str, *, limit: int | None = None) -> Config:
    return Config(
        providers=[ProviderConfig(name="p", base_url=base_url, api_key="sk-agents-test-key")],
        agents=[
            AgentConfig(name="main", provider="p", model="m-main", max_tool_calls_per_session=limit),
            AgentConfig(name="other", provider="p", model="m-other"),
        ],
        sessions_dir=str(tmp_path / "sessions"),
    )


def make_session(
    tmp_path: Path,
    base_url: str,
    *,
    tools: tuple = (),
    approver: Any = None,
    limit: int | None = None,
    max_agents: int = 4,
    agent_wait_ms: int = 120_000,
    skills_dirs: SkillDirs | None = None,
    persist: bool = True,
):
    sink = msgs.ListSink()
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    session = compose_session(
        config=make_config(tmp_path, base_url, limit=limit), cwd=work, sink=sink,
        approver=approver or PersonApprover(), persist=persist, tools=tools,
        max_agents=max_agents, agent_wait_ms=agent_wait_ms,
        skills_dirs=skills_dirs if skills_dirs is not None else SkillDirs(()),
    )
    return session, sink


def until(predicate: Callable[[], Any], timeout: float = 90.0, what: str = "condition") -> Any:
    """Poll until `predicate` holds; the timeout is a safety net for a broken test, not a budget."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def agent_msgs(sink: msgs.ListSink, agent_id: str, kind: type | None = None) -> list[msgs.Msg]:
    inner = [m.msg for m in list(sink.msgs) if isinstance(m, msgs.FromAgent) and m.agent_id == agent_id]
    return [m for m in inner if kind is None or isinstance(m, kind)]


def states(sink: msgs.ListSink, agent_id: str) -> list[str]:
    return [m.state for m in list(sink.msgs) if isinstance(m, msgs.AgentStateChanged) and m.agent_id == agent_id]


def tool_names(body: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in body.get("tools", [])}
