"""SKILL.md parsing, discovery order and the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from mrsmith_tui.config.schema import Config
from mrsmith_tui.paths import BUNDLED_SKILLS_DIR
from mrsmith_tui.skills import SkillCatalog, SkillDirs, SkillError, discover, parse_skill


def write_skill(root: Path, folder: str, text: str) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def skill_text(name: str, description: str = "Does a thing.", body: str = "# Body\nSteps.\n", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}"


def test_parse_keeps_fields_body_and_extra(tmp_path):
    path = write_skill(tmp_path, "db-migrate", skill_text("db-migrate", "Write a migration.\n  Then check it.", extra="license: MIT\nallowed-tools: [shell]\n"))
    skill = parse_skill(path, origin="project")
    assert skill.name == "db-migrate"
    assert skill.description == "Write a migration. Then check it."
    assert skill.body == "# Body\nSteps.\n"
    assert skill.extra == {"license": "MIT", "allowed-tools": ["shell"]}
    assert skill.folder == path.parent and skill.origin == "project"
    assert str(path.parent) in skill.context_text() and "Steps." in skill.context_text()


@pytest.mark.parametrize(
    ("folder", "text", "needle"),
    [
        ("Bad", skill_text("Bad"), "lowercase"),
        ("a--b", skill_text("a--b"), "lowercase"),
        ("other", skill_text("mine"), "differs from its folder 'other'"),
        ("nofront", "# just markdown\n", "must start with a '---'"),
        ("open", "---\nname: open\n", "no closing"),
        ("yaml", "---\nname: [yaml\n---\nbody\n", "not valid YAML"),
        ("listy", "---\n- a\n---\nbody\n", "mapping"),
        ("nodesc", "---\nname: nodesc\n---\nbody\n", "'description'"),
        ("noname", "---\ndescription: x\n---\nbody\n", "'name'"),
        ("empty", skill_text("empty", body="\n  \n"), "body is empty"),
    ],
)
def test_broken_skill_raises_one_line_naming_the_file(tmp_path, folder, text, needle):
    path = write_skill(tmp_path, folder, text)
    with pytest.raises(SkillError) as info:
        parse_skill(path)
    assert needle in info.value.message
    assert info.value.message.startswith(str(path))
    assert "\n" not in info.value.message


def test_not_utf8_is_an_error(tmp_path):
    path = tmp_path / "bin" / "SKILL.md"
    path.parent.mkdir()
    path.write_bytes(b"---\nname: bin\n\xff\xfe\n---\n")
    with pytest.raises(SkillError, match="UTF-8"):
        parse_skill(path)


def dirs(tmp_path: Path) -> SkillDirs:
    return SkillDirs(tuple((o, tmp_path / o) for o in ("bundled", "shared", "global", "project")))


def test_later_folder_wins_and_broken_one_warns_once(tmp_path):
    write_skill(tmp_path / "bundled", "plan", skill_text("plan", "bundled plan"))
    write_skill(tmp_path / "bundled", "debug", skill_text("debug", "bundled debug"))
    write_skill(tmp_path / "shared", "debug", skill_text("debug", "shared debug"))
    write_skill(tmp_path / "global", "debug", skill_text("debug", "global debug"))
    write_skill(tmp_path / "project", "plan", skill_text("plan", "project plan"))
    broken = write_skill(tmp_path / "project", "broken", "no frontmatter\n")
    (tmp_path / "project" / "not-a-skill").mkdir()  # a folder without SKILL.md is ignored quietly
    warnings: list[str] = []
    found = {s.name: s for s in discover(dirs(tmp_path), warnings.append)}
    assert sorted(found) == ["debug", "plan"]
    assert found["plan"].description == "project plan" and found["plan"].origin == "project"
    assert found["debug"].description == "global debug"
    assert len(warnings) == 1 and str(broken) in warnings[0]


def test_missing_folders_are_fine(tmp_path):
    warnings: list[str] = []
    assert discover(dirs(tmp_path), warnings.append) == []
    assert warnings == []


def test_from_config_order_and_defaults(tmp_path):
    cfg = Config()
    d = SkillDirs.from_config(cfg, tmp_path / "proj", home=tmp_path)
    assert [o for o, _ in d.folders] == ["bundled", "shared", "global", "project"]
    assert d.folders[0][1] == BUNDLED_SKILLS_DIR
    assert d.folders[1][1] == tmp_path / ".agents" / "skills"
    assert d.folders[2][1].parts[-2:] == ("mrsmith", "skills")
    assert d.folders[3][1] == tmp_path / "proj" / "skills"
    cfg = Config(global_skills_dir=str(tmp_path / "g"), project_skills_dir="/abs/s")
    d = SkillDirs.from_config(cfg, tmp_path, home=tmp_path)
    assert d.folders[2][1] == tmp_path / "g" and d.folders[3][1] == Path("/abs/s")


def test_catalog_load_once_reset_and_fork(tmp_path):
    write_skill(tmp_path / "bundled", "plan", skill_text("plan"))
    loads = []
    catalog = SkillCatalog(discover(dirs(tmp_path), print), on_load=loads.append)
    assert catalog.load("plan").name == "plan"
    catalog.load("plan")
    assert [s.name for s in loads] == ["plan"] and catalog.is_loaded("plan")
    with pytest.raises(SkillError, match="no skill named 'nope'; the skills are: plan"):
        catalog.load("nope")
    other = catalog.fork()
    assert other.names() == ["plan"] and not other.is_loaded("plan")
    catalog.reset()
    assert catalog.loaded() == []
    catalog.load("plan")
    assert len(loads) == 2


def test_failed_on_load_leaves_it_unloaded(tmp_path):
    write_skill(tmp_path / "bundled", "plan", skill_text("plan"))

    def boom(skill):
        raise RuntimeError("no")

    catalog = SkillCatalog(discover(dirs(tmp_path), print), on_load=boom)
    with pytest.raises(RuntimeError):
        catalog.load("plan")
    assert not catalog.is_loaded("plan")


def test_system_section_lists_names_and_descriptions_only(tmp_path):
    write_skill(tmp_path / "bundled", "plan", skill_text("plan", "Make a plan.", body="SECRET BODY\n"))
    section = SkillCatalog(discover(dirs(tmp_path), print)).system_section()
    assert "- plan: Make a plan." in section and "SECRET BODY" not in section and "`skill`" in section
    assert SkillCatalog().system_section() == ""
