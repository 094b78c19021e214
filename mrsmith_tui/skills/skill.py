"""One skill: a folder holding a SKILL.md (YAML frontmatter, then a Markdown body).

    ---
    name: debug
    description: Find the cause of a failure before changing code.
    ---
    # Debugging
    ...

`name` must match NAME_RE and equal the folder's name; `description` is required; any other
frontmatter field is kept in `extra`. A file that breaks a rule raises SkillError with one
line naming the file and the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.errors import MrSmithError
from mrsmith_tui.history import UserEntry
from mrsmith_tui.skills.frontmatter import plain_fields

CONTEXT_PREFIX = '<skill name="'  # how every loaded skill's text starts in a context

NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SKILL_FILE = "SKILL.md"
MAX_SKILL_CHARS = 256 * 1024  # a skill is read whole into the context; a bigger file is a mistake


class SkillError(MrSmithError):
    """A SKILL.md that cannot be used. `message` is one line naming the file."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    body: str
    path: Path  # the SKILL.md file
    origin: str = ""  # which skills folder it came from: bundled, shared, global, project
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def folder(self) -> Path:
        return self.path.parent

    def context_added(self, text: str) -> msgs.ContextAdded:
        """The Msg of loading it: `text` is the exact text put in the context (the transcript keeps it, so a
        resumed session puts back the same words)."""
        return msgs.ContextAdded(entry=UserEntry(text=text, kind="context"), skill=self.name, path=str(self.folder),
                                 body=self.body)

    def context_text(self) -> str:
        """The body as it goes into a model's context, with the folder its files live in."""
        return (
            f'{CONTEXT_PREFIX}{self.name}" folder="{self.folder}">\n{self.body.strip()}\n</skill>\n'
            f"The skill {self.name!r} is loaded. Files it mentions are relative to {self.folder}; "
            "read or run them from there."
        )


def parse_skill(path: Path, *, origin: str = "") -> Skill:
    """Read and check one SKILL.md. Raises SkillError."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise SkillError(f"{path}: cannot read it: {e.strerror or e}") from None
    if len(raw) > MAX_SKILL_CHARS:
        raise SkillError(f"{path}: larger than {MAX_SKILL_CHARS // 1024} KiB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SkillError(f"{path}: not UTF-8 text") from None
    front, body = split_frontmatter(text, path)
    return _checked(front, body, path, origin)


def split_frontmatter(text: str, path: Path) -> tuple[dict[str, Any], str]:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        raise SkillError(f"{path}: must start with a '---' frontmatter block")
    for end in range(1, len(lines)):
        if lines[end].strip() == "---":
            break
    else:
        raise SkillError(f"{path}: the frontmatter has no closing '---'")
    source = "".join(lines[1:end])
    front = plain_fields(source)  # the usual `key: words` lines, without loading a YAML parser
    if front is None:
        front = _yaml(source, path)
    if not isinstance(front, dict):
        raise SkillError(f"{path}: frontmatter must be a mapping of fields")
    return front, "".join(lines[end + 1 :])


def _yaml(source: str, path: Path) -> Any:
    import yaml  # only for frontmatter beyond plain `key: words` lines

    try:
        front = yaml.safe_load(source)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        problem = getattr(e, "problem", None) or "invalid YAML"
        raise SkillError(f"{path}: frontmatter is not valid YAML{where}: {problem}") from None
    return {} if front is None else front


def _checked(front: dict[str, Any], body: str, path: Path, origin: str) -> Skill:
    name = front.get("name")
    if not isinstance(name, str) or not name:
        raise SkillError(f"{path}: frontmatter needs a 'name'")
    if not NAME_RE.match(name):
        raise SkillError(f"{path}: name {name!r} must be lowercase letters and digits in words joined by '-'")
    folder = path.parent.name
    if name != folder:
        raise SkillError(f"{path}: name {name!r} differs from its folder {folder!r}")
    description = front.get("description")
    if not isinstance(description, str) or not description.strip():
        raise SkillError(f"{path}: frontmatter needs a 'description'")
    if not body.strip():
        raise SkillError(f"{path}: the body is empty")
    extra = {k: v for k, v in front.items() if k not in ("name", "description")}
    return Skill(
        name=name, description=" ".join(description.split()), body=body, path=path, origin=origin, extra=extra
    )
