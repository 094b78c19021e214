"""A scripted stand-in for a session (core.session_api.Session): each run plays a list of steps through the sink."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mrsmith_tui import msgs as m
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.usage import UsageLedger
from mrsmith_tui.tools.approval import ApprovalGate, PolicyApprover
from mrsmith_tui.tools.base import ApprovalQuery
from mrsmith_tui.tools.services import Services
from mrsmith_tui.tui.update import update

AT = 1_700_000_000.0  # frozen time for every scripted Msg

CONFIG = Config(providers=[ProviderConfig(name="local", base_url="http://127.0.0.1:9/v1")],
                agents=[AgentConfig(name="default", provider="local", model="qwen3-coder", max_context_tokens=32_000),
                        AgentConfig(name="fast", provider="local", model="qwen3-mini")])

Step = Callable[["FakeSession", Any], None]


def approve(tool: str = "write_file", diff: str | None = None) -> Step:
    def step(session: FakeSession, cancel: Any) -> None:
        session.answers.append(session.approver.approve(ApprovalQuery(
            tool=tool, arguments='{"path": "a.py"}', reason=f"{tool} creates a.py", spec=tool, diff=diff,
            rule="writes" if tool != "shell" else "runs")))
    return step


def hold_until(event: threading.Event) -> Step:
    """A step that waits for the test to let the run go on (so a request arrives when the test wants)."""
    def step(session: FakeSession, cancel: Any) -> None:
        event.wait(90)  # a safety net: the test sets it (a loaded machine may take many seconds to get there)
    return step


class Clock:
    """The app's clock for approval tests: the wall clock (the worker stamps its Msgs with it) plus an
    offset the test moves, so "pressed within the grace" or "after a pause" never depend on speed."""

    def __init__(self) -> None:
        self.offset = 0.0

    def later(self, seconds: float) -> None:
        self.offset += seconds

    def __call__(self) -> float:
        return time.time() + self.offset


def wait_cancel(session: FakeSession, cancel: Any) -> None:
    cancel.wait(90)  # a safety net: the test cancels


class FakeSession:
    def __init__(self, sink: Any, approver: Any, script: list[list[Any]] | None = None) -> None:
        self.sink, self.approver = sink, approver
        self.agent = CONFIG.agents[0]
        self.services = Services()
        self.session_id = "01930000-0000-7000-8000-000000000000"
        self.cwd = Path.cwd()
        self.transcript_path: Path | None = None
        self.gate = ApprovalGate(PolicyApprover())
        self.ledger = UsageLedger(lambda msg: None, max_context_tokens=32_000)
        self.compactions = 0
        self.script = list(script or [])
        self.prompts: list[str] = []
        self.answers: list[str] = []
        self.resets = 0
        self.closed = False
        self.effort: str | None = None

    def run(self, prompt: str, cancel: Any, *, attachments: Any = ()) -> None:
        self.prompts.append(prompt)
        rid = f"run-{len(self.prompts)}"
        self.sink(m.UserPrompt(run_id=rid, text=prompt, at=AT))
        self.sink(m.RunStarted(run_id=rid, agent="default", model="qwen3-coder", at=AT))
        steps = self.script.pop(0) if self.script else [m.TextDelta(block_id="t", text="ok", at=AT),
                                                         m.BlockEnded(block_id="t", kind="text", text="ok", at=AT)]
        for step in steps:
            if isinstance(step, m.Msg):
                self.sink(step)
            else:
                step(self, cancel)
        self.sink(m.RunEnded(run_id=rid, cancelled=cancel.cancelled, at=AT))

    def compact(self, cancel: Any) -> str:
        self.compactions += 1
        return ""

    def reset(self) -> None:
        self.resets += 1

    def switch_agent(self, name: str) -> None:
        self.agent = next(a for a in CONFIG.agents if a.name == name)

    def set_reasoning_effort(self, value: str | None) -> None:
        self.effort = value

    def close(self) -> None:
        self.closed = True


def fake_session(**fields: Any) -> FakeSession:
    """A session with no channel (for the commands' tests), `fields` set on it."""
    session = FakeSession(sink=None, approver=None)
    for name, value in fields.items():
        setattr(session, name, value)
    return session


def factory(script: list[list[Any]] | None = None, made: list | None = None) -> Callable[[Any, Any], FakeSession]:
    def make(sink: Any, approver: Any) -> FakeSession:
        session = FakeSession(sink, approver, script)
        if made is not None:
            made.append(session)
        return session
    return make


class FakeFleet:
    """Stands in for agents.fleet.Fleet: `stop` records the call and reports the states it passes."""

    def __init__(self, session: FakeSession) -> None:
        self.session = session
        self.stops: list[tuple[str, float]] = []

    def stop(self, agent_id: str, *, join_seconds: float = 2.0) -> None:
        self.stops.append((agent_id, join_seconds))
        self.session.sink(m.AgentStateChanged(agent_id=agent_id, state="stopping", at=AT))
        self.session.sink(m.AgentStateChanged(agent_id=agent_id, state="stopped", at=AT))

    def stop_all(self, *, join_seconds: float = 2.0) -> None:
        pass

    def list(self) -> list:
        return []


def fleet_factory(made: list) -> Callable[[Any, Any], FakeSession]:
    def make(sink: Any, approver: Any) -> FakeSession:
        session = FakeSession(sink, approver)
        session.services = Services(fleet=FakeFleet(session))
        made.append(session)
        return session
    return make


def fold(model, *msgs_):
    """The model after `update` took each Msg in turn, and every effect they asked for."""
    effects = []
    for msg in msgs_:
        model, more = update(model, msg)
        effects.extend(more)
    return model, effects
