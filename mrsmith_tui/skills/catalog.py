"""Skill discovery and the catalogue of one agent context.

Discovery reads the skills folders in order; a later folder wins a name clash:

    bundled skills/  <  ~/.agents/skills/  <  globalSkillsDir  <  projectSkillsDir

The catalogue knows every skill and which ones the context has loaded (`*` in /skills).
Loading goes through `on_load` (which puts the body into the context); a skill already
loaded is not loaded twice.
"""

from __future__ import annotations

import builtins
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from mrsmith_tui.config.schema import Config
from mrsmith_tui.paths import BUNDLED_SKILLS_DIR, config_dir
from mrsmith_tui.skills.skill import SKILL_FILE, Skill, SkillError, parse_skill


@dataclass(frozen=True)
class SkillDirs:
    """The skills folders, lowest precedence first, as (origin, folder) pairs."""

    folders: tuple[tuple[str, Path], ...]

    @staticmethod
    def from_config(config: Config, cwd: Path, *, home: Path | None = None) -> SkillDirs:
        home = home or Path.home()
        global_dir = Path(config.global_skills_dir).expanduser() if config.global_skills_dir else config_dir() / "skills"
        project = Path(config.project_skills_dir).expanduser()
        return SkillDirs(
            (
                ("bundled", BUNDLED_SKILLS_DIR),
                ("shared", home / ".agents" / "skills"),
                ("global", global_dir),
                ("project", project if project.is_absolute() else Path(cwd) / project),
            )
        )


def discover(dirs: SkillDirs, warn: Callable[[str], None]) -> list[Skill]:
    """Every usable skill, a later folder winning a clash; one `warn` line per skipped file."""
    found: dict[str, Skill] = {}
    seen: set[Path] = set()
    for origin, folder in dirs.folders:
        try:
            resolved = folder.resolve()
            if resolved in seen or not folder.is_dir():  # e.g. running in this repository: ./skills is bundled
                continue
            seen.add(resolved)
            children = sorted(folder.iterdir())
        except OSError as e:
            warn(f"{folder}: cannot read the skills folder: {e.strerror or e}")
            continue
        for child in children:
            skill_file = child / SKILL_FILE
            if not skill_file.is_file():
                continue
            try:
                skill = parse_skill(skill_file, origin=origin)
            except SkillError as e:
                warn(f"skill skipped: {e.message}")
                continue
            found[skill.name] = skill
    return sorted(found.values(), key=lambda s: s.name)


class SkillCatalog:
    """The skills one context can load, and which it has. Thread-safe."""

    def __init__(self, skills: Iterable[Skill] = (), *, on_load: Callable[[Skill], None] | None = None) -> None:
        self._skills = {s.name: s for s in skills}
        self._loaded: set[str] = set()
        self._on_load = on_load
        self._lock = threading.Lock()

    def list(self) -> list[Skill]:
        return sorted(self._skills.values(), key=lambda s: s.name)

    def names(self) -> builtins.list[str]:  # `list` is the method above
        return sorted(self._skills)

    def get(self, name: str) -> Skill | None:
        return self._skills.get(name)

    def is_loaded(self, name: str) -> bool:
        with self._lock:
            return name in self._loaded

    def loaded(self) -> builtins.list[str]:
        with self._lock:
            return sorted(self._loaded)

    def load(self, name: str) -> Skill:
        """Load `name` into the context (once). Raises SkillError for an unknown name."""
        skill = self._skills.get(name)
        if skill is None:
            known = ", ".join(self.names()) or "none"
            raise SkillError(f"no skill named {name!r}; the skills are: {known}")
        with self._lock:
            if name in self._loaded:
                return skill
            self._loaded.add(name)
        try:
            if self._on_load is not None:
                self._on_load(skill)
        except BaseException:
            with self._lock:
                self._loaded.discard(name)
            raise
        return skill

    def reset(self) -> None:
        """Nothing loaded (a fresh context: /reset or an agent switch)."""
        with self._lock:
            self._loaded.clear()

    def fork(self, *, on_load: Callable[[Skill], None] | None = None) -> SkillCatalog:
        """The same skills for another context (a sub-agent), with nothing loaded."""
        return SkillCatalog(self._skills.values(), on_load=on_load)

    def system_section(self) -> str:
        """The system prompt's list of skills: names and descriptions only."""
        if not self._skills:
            return ""
        lines = [
            "# Skills",
            "",
            "Skills are instructions for particular kinds of work. When a task matches a skill's "
            "description, call the `skill` tool with its name before you start; it loads the skill's "
            "instructions and tells you the folder its files are in.",
            "",
        ]
        lines += [f"- {s.name}: {s.description}" for s in self.list()]
        return "\n".join(lines)
