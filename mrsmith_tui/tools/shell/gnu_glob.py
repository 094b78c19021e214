"""glibc's fnmatch as GNU grep applies it to --include/--exclude/--exclude-dir.

Python's fnmatch differs where it matters: it reads `[^x]` as the set {^, x} (glibc: anything
but x) and `\\.` as a backslash and any character (glibc: a literal dot), so a scope judged with
it missed `.env` under `--include='\\.env'` or `--include='[^x]env'`. Here: `*`, `?`, bracket
sets with `!` or `^` negation, ranges and `[:class:]`, and backslash escapes. A pattern this
cannot read is reported as None, and the caller takes the side that reads more.
"""

from __future__ import annotations

import functools
import re

_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
            "space": r"\s", "blank": r" \t", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
            "xdigit": "0-9A-Fa-f", "cntrl": r"\x00-\x1f\x7f", "print": r"\x20-\x7e", "graph": r"\x21-\x7e"}


@functools.lru_cache(maxsize=512)
def gnu_pattern(pattern: str) -> re.Pattern[str] | None:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 < n:
                out.append(re.escape(pattern[i + 1]))
                i += 2
            else:
                out.append("(?!)")  # a trailing backslash: glibc's fnmatch fails, nothing matches
                i += 1
        elif c == "*":
            out.append(".*")
            i += 1
        elif c == "?":
            out.append(".")
            i += 1
        elif c == "[":
            parsed = _bracket(pattern, i + 1)
            if parsed is None:
                out.append(re.escape("["))  # no closing `]`: a literal [
                i += 1
            else:
                out.append(parsed[0])
                i = parsed[1]
        else:
            out.append(re.escape(c))
            i += 1
    try:
        return re.compile("(?s:" + "".join(out) + r")\Z")
    except re.error:
        return None


def _bracket(pattern: str, i: int) -> tuple[str, int] | None:
    n = len(pattern)
    negate = i < n and pattern[i] in "!^"
    if negate:
        i += 1
    parts: list[str] = []
    first = True
    while i < n:
        c = pattern[i]
        if c == "]" and not first:
            return ("[" + ("^" if negate else "") + "".join(parts) + "]", i + 1)
        first = False
        if c == "[" and pattern.startswith("[:", i):
            end = pattern.find(":]", i + 2)
            if end == -1 or pattern[i + 2:end] not in _CLASSES:
                return None
            parts.append(_CLASSES[pattern[i + 2:end]])
            i = end + 2
            continue
        if c == "\\" and i + 1 < n:
            c = pattern[i + 1]
            i += 1
        if i + 2 < n and pattern[i + 1] == "-" and pattern[i + 2] != "]":
            hi = pattern[i + 2]
            if hi == "\\" and i + 3 < n:
                hi = pattern[i + 3]
                i += 1
            if hi < c:
                return None
            parts.append(re.escape(c) + "-" + re.escape(hi))
            i += 3
            continue
        parts.append(re.escape(c))
        i += 1
    return None


def gnu_match(name: str, pattern: str) -> bool | None:
    """Whether glibc's fnmatch(pattern, name, 0) matches; None when the pattern is not understood."""
    compiled = gnu_pattern(pattern)
    return None if compiled is None else compiled.match(name) is not None
