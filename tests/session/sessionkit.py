"""Helpers for the session tests: a config with two agents, a session on scripted providers."""

from __future__ import annotations

from pathlib import Path

from core.fakes import FakeProvider, ScriptedApprover  # tests/ is on sys.path (conftest)
from mrsmith_tui import msgs
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.session import build_session


def two_agents(tmp_path: Path, **main_kw) -> Config:
    return Config(
        providers=[ProviderConfig(name="p", base_url="http://127.0.0.1:9/v1"), ProviderConfig(name="q", base_url="http://127.0.0.1:9/v1")],
        agents=[
            AgentConfig(name="main", provider="p", model="m1", **main_kw),
            AgentConfig(name="other", provider="q", model="m2"),
        ],
        sessions_dir=str(tmp_path / "sessions"),
    )


class Factory:
    """A provider factory that plays `scripts`; every provider it made is kept."""

    def __init__(self, *scripts) -> None:
        self.scripts = scripts
        self.made: list[FakeProvider] = []

    def __call__(self, pc: ProviderConfig) -> FakeProvider:
        provider = FakeProvider(*self.scripts)
        provider.name = pc.name
        self.made.append(provider)
        return provider

    @property
    def requests(self):
        return [r for p in self.made for r in p.requests]


def new_session(config: Config, cwd: Path, *scripts, tools=()):
    sink = msgs.ListSink()
    factory = Factory(*scripts)
    s = build_session(config=config, agent_name=None, cwd=cwd, sink=sink, approver=ScriptedApprover(),
                      provider_factory=factory)
    if tools:
        s.add_tools(tools)
    return s, sink, factory
