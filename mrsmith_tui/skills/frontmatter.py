"""The frontmatter most SKILL.md files have, read without loading a YAML parser (start-up time, #26).

Every start reads the bundled skills' frontmatter, which is a few `key: plain words` lines; PyYAML
costs ~10 ms to import and more to run. `plain_fields` reads exactly that shape and answers None
for anything else (quotes, lists, blocks, comments, continuation lines, a value YAML would read
as a boolean, a null, a number or a date, an anchor or a tag...), which the caller then hands to
`yaml.safe_load`. Where it answers, it answers what `yaml.safe_load` does (a test compares the two
over generated tables).
"""

from __future__ import annotations

import re

# `key: value` with a key of letters, digits, `_` and `-`, and a value that starts with a letter.
_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):[ ]+([A-Za-z][^\t\r\n]*?)[ ]*")
# YAML 1.1 (PyYAML's) words that are not strings: booleans, nulls, and the special floats.
_NOT_STRINGS = frozenset({
    "y", "yes", "n", "no", "true", "false", "on", "off", "null", "nan", "inf",
})
# Inside a plain value these end it, start a comment, or need a YAML reading.
_UNSAFE = (": ", " #", "\t")


def plain_fields(text: str) -> dict[str, str] | None:
    """{key: value} when `text` is only `key: plain value` lines; None when a YAML parser must read it."""
    fields: dict[str, str] = {}
    for raw in text.split("\n"):
        line = raw.removesuffix("\r")
        if not line:
            continue
        m = _LINE.fullmatch(line)
        if m is None or not line.isprintable():
            return None
        key, value = m.group(1), m.group(2)
        if key.lower() in _NOT_STRINGS or value.lower() in _NOT_STRINGS or key in fields:
            return None
        if value.endswith(":") or any(u in value for u in _UNSAFE):
            return None
        fields[key] = value
    return fields
