#!/usr/bin/env python3
"""Check skill folders the way mrsmith loads them: python3 check_skill.py FOLDER [FOLDER ...]

Standard library only (no YAML parser), so it checks the rules that matter and the simple
`key: value` frontmatter form; mrsmith itself parses the frontmatter as full YAML.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def problems(folder: Path) -> list[str]:
    skill = folder / "SKILL.md"
    if not skill.is_file():
        return [f"{skill}: missing"]
    try:
        lines = skill.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        return [f"{skill}: cannot read it as UTF-8 text: {e}"]
    if not lines or lines[0].strip() != "---":
        return [f"{skill}: must start with a '---' frontmatter block"]
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        return [f"{skill}: the frontmatter has no closing '---'"]
    fields = {}
    for line in lines[1:end]:
        key, sep, value = line.partition(":")
        if sep and key and not key.startswith((" ", "\t", "-")):
            value = value.strip()
            if ": " in value and not value.startswith(("'", '"', "|", ">")):
                return [f"{skill}: the value of {key.strip()!r} holds ': ' - quote it or YAML will not parse it"]
            fields[key.strip()] = value.strip("'\"")
    found = []
    name = fields.get("name", "")
    if not name:
        found.append(f"{skill}: frontmatter needs a 'name'")
    elif not NAME_RE.match(name):
        found.append(f"{skill}: name {name!r} must be lowercase letters and digits in words joined by '-'")
    elif name != folder.name:
        found.append(f"{skill}: name {name!r} differs from its folder {folder.name!r}")
    if "description" not in fields:
        found.append(f"{skill}: frontmatter needs a 'description'")
    if not "\n".join(lines[end + 1 :]).strip():
        found.append(f"{skill}: the body is empty")
    return found


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: check_skill.py FOLDER [FOLDER ...]", file=sys.stderr)
        return 2
    bad = 0
    for arg in argv:
        folder = Path(arg).resolve()
        found = problems(folder)
        for line in found:
            print(line)
        if found:
            bad += 1
        else:
            print(f"ok: {folder.name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
