"""compose_session(): the skills section, the skill tool end to end, /skills by hand, reset and agent switch."""

from __future__ import annotations

from pathlib import Path

from loopback import text_turn, tool_turn
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.history import UserEntry
from mrsmith_tui.paths import BUNDLED_SKILLS_DIR
from mrsmith_tui.session.transcript import read_transcript
from mrsmith_tui.skills.catalog import SkillDirs, discover

from .helpers import Router, make_session

BUNDLED = ["debug", "delegate", "explore", "new-skill", "plan", "refactor", "review", "self", "tasks", "tdd", "verify"]


def write_skill(root: Path, name: str, description: str, body: str) -> None:
    (root / name).mkdir(parents=True, exist_ok=True)
    (root / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}\n")


def dirs(tmp_path: Path) -> SkillDirs:
    return SkillDirs((("bundled", tmp_path / "bundled"), ("project", tmp_path / "project")))


def test_the_bundled_skills_all_parse():
    warnings: list[str] = []
    skills = discover(SkillDirs((("bundled", BUNDLED_SKILLS_DIR),)), warnings.append)
    assert warnings == []
    assert [s.name for s in skills] == BUNDLED
    for skill in skills:
        assert len(skill.description) > 40 and len(skill.body) > 600, skill.name


def test_skill_tool_loads_the_body_into_the_context_and_the_transcript(tmp_path, loopback):
    write_skill(tmp_path / "bundled", "lint", "Bundled lint.", "BUNDLED BODY")
    write_skill(tmp_path / "project", "lint", "Project lint rules.", "PROJECT BODY: run ./check.sh")
    (tmp_path / "project" / "broken").mkdir(parents=True)
    (tmp_path / "project" / "broken" / "SKILL.md").write_text("nope\n")
    router = Router({"main": [tool_turn("skill", {"name": "lint"}), text_turn("linted")]})
    srv = loopback(responder=router)
    session, sink = make_session(tmp_path, srv.base_url, skills_dirs=dirs(tmp_path))

    skill_warnings = [w for w in sink.of(msgs.Warning) if w.code == "skill"]
    assert len(skill_warnings) == 1 and "broken" in skill_warnings[0].text

    session.run("lint it", CancelToken())
    first, second = router.requests("main")
    assert "- lint: Project lint rules." in first["messages"][0]["content"]
    assert "PROJECT BODY" not in first["messages"][0]["content"]  # names and descriptions only
    loaded = [m for m in second["messages"] if m["role"] == "user" and "PROJECT BODY" in m["content"]]
    assert len(loaded) == 1 and str(tmp_path / "project" / "lint") in loaded[0]["content"]
    # It lands after the tool result, never between the tool call and its result.
    roles = [m["role"] for m in second["messages"]]
    assert roles[-3:] == ["assistant", "tool", "user"]
    assert sink.of(msgs.SkillLoaded)[0].name == "lint"
    catalog = session.services.skills
    assert catalog.is_loaded("lint")
    records, _ = read_transcript(session.transcript_path)
    skill_records = [r for r in records if isinstance(r, msgs.ContextAdded)]
    assert [(r.skill, r.path, r.body) for r in skill_records] == [
        ("lint", str(tmp_path / "project" / "lint"), "PROJECT BODY: run ./check.sh\n")]
    assert skill_records[0].entry.text == loaded[0]["content"]

    session.reset()
    assert not catalog.is_loaded("lint")


def test_load_by_hand_twice_and_agent_switch_drops_it(tmp_path, loopback):
    write_skill(tmp_path / "bundled", "plan", "Plan first.", "PLAN BODY")
    srv = loopback(responder=Router({"main": [text_turn("ok")]}))
    session, sink = make_session(tmp_path, srv.base_url, skills_dirs=dirs(tmp_path))
    catalog = session.services.skills
    catalog.load("plan")
    catalog.load("plan")
    assert sum(isinstance(m, UserEntry) and "PLAN BODY" in m.text for m in session.history) == 1
    assert len(sink.of(msgs.SkillLoaded)) == 1

    again = session.tools.get("skill").run({"name": "plan"}, session.tool_ctx)
    assert "already loaded" in again.content
    missing = session.tools.get("skill").run({"name": "nope"}, session.tool_ctx)
    assert not missing.ok and "the skills are: plan" in missing.content

    session.switch_agent("other")
    assert not catalog.is_loaded("plan")
    assert not any(isinstance(m, UserEntry) and "PLAN BODY" in m.text for m in session.history)
    assert "skill" in session.tools and "spawn_agent" in session.tools


def test_no_skills_means_no_section(tmp_path, loopback):
    router = Router({"main": [text_turn("ok")]})
    srv = loopback(responder=router)
    session, _ = make_session(tmp_path, srv.base_url)
    session.run("hi", CancelToken())
    assert "# Skills" not in router.requests("main")[0]["messages"][0]["content"]


def test_new_skill_checker_script(tmp_path):
    import subprocess
    import sys

    script = BUNDLED_SKILLS_DIR / "new-skill" / "check_skill.py"
    ok = subprocess.run([sys.executable, script, *[BUNDLED_SKILLS_DIR / n for n in BUNDLED]], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.count("ok: ") == len(BUNDLED)
    write_skill(tmp_path, "Bad-Name", "x: y", "body")
    bad = subprocess.run([sys.executable, script, tmp_path / "Bad-Name"], capture_output=True, text=True)
    assert bad.returncode == 1 and "quote it" in bad.stdout
