"""compose_session: the one composition the frontends use. The services are in the session
from its first moment; nothing is added to it afterwards."""

from __future__ import annotations

import dataclasses

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui import msgs
from mrsmith_tui.agents.book import WaitingApprover
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.agents.fleet import Fleet
from mrsmith_tui.agents.subagent import SubagentRunner
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.core.session import AgentSession
from mrsmith_tui.history import UserEntry
from mrsmith_tui.skills.catalog import SkillCatalog, SkillDirs

from .helpers import PersonApprover, make_config, until

PATCHING = ("add_tools", "add_system_section", "on_reset", "on_switch", "on_close")


@pytest.fixture
def no_patching(monkeypatch):
    """Any later patching of a session fails the test."""
    for name in PATCHING:
        def refuse(self, *args, _name=name, **kw):
            raise AssertionError(f"the session was patched after it was built: {_name}")

        monkeypatch.setattr(AgentSession, name, refuse)


def skills(tmp_path):
    folder = tmp_path / "skills" / "plan"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: plan\ndescription: plans work\n---\nPlan first.\n")
    return SkillDirs((("project", tmp_path / "skills"),))


def test_the_composed_session_has_its_services_from_the_start(tmp_path, no_patching):
    sink, approver = msgs.ListSink(), PersonApprover()
    (tmp_path / "work").mkdir()
    session = compose_session(config=make_config(tmp_path, "http://127.0.0.1:9/v1"), cwd=tmp_path / "work",
                              sink=sink, approver=approver, allow=["shell:git status"], skills_dirs=skills(tmp_path))
    services = session.services
    assert isinstance(services.fleet, Fleet) and isinstance(services.skills, SkillCatalog)
    assert isinstance(services.subagents, SubagentRunner) and services.approval_gate is session.gate
    assert session.tool_ctx.services is services  # what the tools see is the same object
    with pytest.raises(dataclasses.FrozenInstanceError):
        services.fleet = None  # type: ignore[misc]
    assert {"skill", "task", "spawn_agent", "wait_agents", "stop_agent", "list_agents"} <= set(session.tools.names())
    assert set(session.conversation.tools.names()) == set(session.tools.names())
    assert "plan: plans work" in session.system_prompt()
    assert isinstance(session.gate.approver, WaitingApprover) and session.gate.approver.inner is approver
    assert session.approver is approver  # the person's agent asks the frontend directly
    assert [p.spec for p in session.gate.permissions() if p.origin == "--allow"] == ["shell:git status"]
    assert len(sink.of(msgs.SessionStarted)) == 1
    session.close()


def test_an_allow_naming_no_tool_is_an_error_headless_and_a_warning_in_the_ui(tmp_path):
    from mrsmith_tui.config.load import ConfigError

    (tmp_path / "work").mkdir()
    config = make_config(tmp_path, "http://127.0.0.1:9/v1")
    with pytest.raises(ConfigError, match=r"^--allow wrte_file: no tool is called wrte_file \(did you mean write_file\?\)$"):
        compose_session(config=config, cwd=tmp_path / "work", sink=msgs.ListSink(), approver=PersonApprover(),
                        allow=["wrte_file", "spawn_agent"], skills_dirs=SkillDirs(()), frontend="headless")
    sink = msgs.ListSink()
    session = compose_session(config=config, cwd=tmp_path / "work", sink=sink, approver=PersonApprover(),
                              allow=["wrte_file", "spawn_agent"], skills_dirs=SkillDirs(()))
    assert [w.text for w in sink.of(msgs.Warning) if w.code == "allow"] == [
        "--allow wrte_file: no tool is called wrte_file (did you mean write_file?)"]
    session.close()


def test_a_resumed_session_is_composed_the_same_way(tmp_path, loopback, no_patching):
    srv = loopback(responder=lambda body, n: tool_turn("spawn_agent", {"task": "W1: look"}) if n == 0
                   else text_turn("done"))
    config = make_config(tmp_path, srv.base_url)
    (tmp_path / "work").mkdir()
    first = compose_session(config=config, cwd=tmp_path / "work", sink=msgs.ListSink(), approver=PersonApprover(),
                            skills_dirs=SkillDirs(()))
    first.run("go", CancelToken())
    folder = first.transcript_path.parent
    until(lambda: (folder / "agent-1.jsonl").exists(), what="the worker's transcript")
    first.close()

    sink = msgs.ListSink()
    again = compose_session(config=config, cwd=tmp_path / "work", sink=sink, approver=PersonApprover(), resume=True,
                            skills_dirs=SkillDirs(()))
    assert again.session_id == first.session_id and again.transcript_path == first.transcript_path
    assert isinstance(again.services.fleet, Fleet) and again.services.approval_gate is again.gate
    assert [h.text for h in again.history if isinstance(h, UserEntry)] == ["go"]
    assert sink.of(msgs.SessionStarted)[0].resumed
    assert again.services.fleet.book.new_id("agent") == "agent-2"  # after the recorded agent-1
    again.close()


def test_skill_warnings_come_after_the_session_is_announced(tmp_path):
    bad = tmp_path / "skills" / "broken"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text("no frontmatter here\n")
    (tmp_path / "work").mkdir()
    sink = msgs.ListSink()
    session = compose_session(config=make_config(tmp_path, "http://127.0.0.1:9/v1"), cwd=tmp_path / "work",
                              sink=sink, approver=PersonApprover(), persist=False,
                              skills_dirs=SkillDirs((("project", tmp_path / "skills"),)))
    kinds = [type(m).__name__ for m in sink.msgs if isinstance(m, (msgs.SessionStarted, msgs.Warning))]
    assert kinds[0] == "SessionStarted" and "Warning" in kinds[1:]
    assert [w.code for w in sink.of(msgs.Warning)] == ["skill"]
    session.close()
