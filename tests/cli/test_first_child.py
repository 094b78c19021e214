"""What must be in place before mrsmith's first child process (cli.first_child) is in place before it:
a headless run sets it up before it builds its session, the TUI once its first frame is on screen (it
costs start-up time, #26), or before the first frame when an apiKeyCommand runs then."""

from __future__ import annotations

import sys
import types

import pytest

import mrsmith_tui.security.environment as environment
import mrsmith_tui.tools.jobs as jobs
from mrsmith_tui.cli import command as cli
from mrsmith_tui.cli import first_child


@pytest.fixture
def guarded(monkeypatch):
    """The guard's steps, recorded instead of done to the test process."""
    done: list[str] = []
    monkeypatch.setattr(first_child, "_done", False)
    monkeypatch.setattr(environment, "keep_process_private", lambda: done.append("private") or True)
    monkeypatch.setattr(jobs, "stop_jobs_at_exit", lambda: done.append("jobs"))
    monkeypatch.setattr(cli, "_stdin_is_piped", lambda: False)
    monkeypatch.setattr(cli, "_stdin_is_terminal", lambda: True)
    return done


def _fake_tui(monkeypatch, seen: dict):
    def run_tui(make_session, *, first_frame, **kwargs):
        seen["before"] = list(seen["done"])
        first_frame()
        seen["after"] = list(seen["done"])
        return 0

    module = types.ModuleType("mrsmith_tui.tui.app")
    module.run_tui = run_tui  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mrsmith_tui.tui.app", module)


def test_the_tui_sets_it_up_at_its_first_frame(guarded, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    seen = {"done": guarded}
    _fake_tui(monkeypatch, seen)
    assert cli.main(["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--sessions-dir", str(tmp_path / "s")]) == 0
    assert seen["before"] == []
    assert seen["after"] == ["private", "jobs"]


def test_the_tui_sets_it_up_first_when_a_key_command_runs_before_the_first_frame(guarded, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.toml"
    config.write_text('[[providers]]\nname = "p"\nbase_url = "http://127.0.0.1:9/v1"\napi_key_command = "echo k"\n\n'
                      '[[agents]]\nname = "a"\nprovider = "p"\nmodel = "m"\n', encoding="utf-8")
    seen = {"done": guarded}
    _fake_tui(monkeypatch, seen)
    monkeypatch.delenv("MRSMITH_P_API_KEY", raising=False)
    assert cli.main(["--config", str(config), "--sessions-dir", str(tmp_path / "s")]) == 0
    assert seen["before"] == ["private", "jobs"]
    assert seen["after"] == ["private", "jobs"]  # once


def test_a_headless_run_sets_it_up_before_its_session(guarded, monkeypatch):
    def build(*args, **kwargs):
        guarded.append("session")
        raise RuntimeError("not this test's point")

    monkeypatch.setattr(cli, "_build_session", build)
    assert cli.main(["-p", "hi", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"]) == 1
    assert guarded == ["private", "jobs", "session"]


def test_the_key_command_itself_runs_after_the_guard(guarded, monkeypatch, tmp_path):
    from mrsmith_tui.config import load

    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.toml"
    config.write_text('[[providers]]\nname = "p"\nbase_url = "http://127.0.0.1:9/v1"\napi_key_command = "echo k"\n\n'
                      '[[agents]]\nname = "a"\nprovider = "p"\nmodel = "m"\n', encoding="utf-8")
    monkeypatch.setattr(load, "run_key_command", lambda pc, env=None: guarded.append("key command") or "k")
    monkeypatch.delenv("MRSMITH_P_API_KEY", raising=False)
    _fake_tui(monkeypatch, {"done": guarded})
    assert cli.main(["--config", str(config), "--sessions-dir", str(tmp_path / "s")]) == 0
    assert guarded[:3] == ["private", "jobs", "key command"]
