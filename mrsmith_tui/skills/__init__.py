"""SKILL.md parsing and discovery (the bundled skills themselves live in the repo's skills/)."""
from __future__ import annotations

from mrsmith_tui.skills.catalog import SkillCatalog, SkillDirs, discover
from mrsmith_tui.skills.skill import NAME_RE, Skill, SkillError, parse_skill

__all__ = ["NAME_RE", "Skill", "SkillCatalog", "SkillDirs", "SkillError", "discover", "parse_skill"]
