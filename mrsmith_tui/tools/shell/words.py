"""What bash makes of one word: quotes removed, braces and globs expanded, `~` resolved.

A word whose value depends on the environment or on another command (`$x`, `$(…)`,
backticks) has no value here (None); the classifier then decides whether the program can
take an unknown word. Everything else is expanded exactly as bash would, so that
`find . {-delete,-print}` is judged as `find . -delete -print` and `cat *` as the files it
names (the root's files are known when the command is judged).
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

MAX_WORDS = 512  # more expansions than this: judged unknown

Seg = tuple[str, bool]  # one character and whether it was quoted


@dataclass(frozen=True)
class Word:
    value: str | None  # None: only known when it runs
    text: str  # as written, for messages
    origin: str = "literal"  # literal | glob | substitution | xargs | procsub | dynamic

    @property
    def known(self) -> bool:
        return self.value is not None


_NAME_START = re.compile(r"[A-Za-z0-9_{(\[@*#?$!-]")
_ANSI = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
         "\\": "\\", "'": "'", '"': '"', "?": "?"}


def lex(text: str) -> list[Seg] | None:
    """The characters of an unexpanded word with their quoting, or None if it expands a value."""
    out: list[Seg] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                i += 2
            elif i + 1 < n:
                out.append((text[i + 1], True))
                i += 2
            else:
                out.append(("\\", True))
                i += 1
        elif c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                return None
            out += [(ch, True) for ch in text[i + 1 : j]]
            i = j + 1
        elif c == '"':
            end = _double_quoted(text, i + 1, out)
            if end is None:
                return None
            i = end
        elif c == "$" and text[i + 1 : i + 2] == "'":
            end = _ansi_c(text, i + 2, out)
            if end is None:
                return None
            i = end
        elif c == "$" and text[i + 1 : i + 2] == '"':
            end = _double_quoted(text, i + 2, out)
            if end is None:
                return None
            i = end
        elif c == "$" and i + 1 < n and _NAME_START.match(text[i + 1]):
            return None
        elif c == "`":
            return None
        elif c in "<>" and text[i + 1 : i + 2] == "(":
            return None
        else:
            out.append((c, False))
            i += 1
    return out


def _double_quoted(text: str, i: int, out: list[Seg]) -> int | None:
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            return i + 1
        if c == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt == "\n":
                i += 2
                continue
            if nxt in '$`"\\':
                out.append((nxt, True))
            else:
                out += [("\\", True), (nxt, True)]
            i += 2
        elif c == "`" or (c == "$" and i + 1 < n and _NAME_START.match(text[i + 1])):
            return None
        else:
            out.append((c, True))
            i += 1
    return None


def _ansi_c(text: str, i: int, out: list[Seg]) -> int | None:
    n = len(text)
    while i < n:
        c = text[i]
        if c == "'":
            return i + 1
        if c != "\\" or i + 1 >= n:
            out.append((c, True))
            i += 1
            continue
        e = text[i + 1]
        i += 2
        if e in _ANSI:
            out.append((_ANSI[e], True))
        elif e in "01234567":
            m = re.match(r"[0-7]{0,2}", text[i:])
            assert m is not None  # {0,2} matches the empty string too
            out.append((chr(int(e + m.group(0), 8) & 0xFF), True))
            i += m.end()
        elif e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            m = re.match(r"[0-9a-fA-F]{1,%d}" % width, text[i:])  # noqa: UP031 (a regex's braces read better so)
            if not m:
                out += [("\\", True), (e, True)]
                continue
            out.append((chr(int(m.group(0), 16)), True))
            i += m.end()
        elif e == "c" and i < n:
            out.append((chr(ord(text[i]) & 0x1F), True))
            i += 1
        else:
            out += [("\\", True), (e, True)]
    return None


# --------------------------------------------------------------------------- braces


def expand_braces(segs: list[Seg], budget: list[int] | None = None) -> list[list[Seg]] | None:
    """Bash brace expansion on unquoted `{a,b}` and `{1..3}`; None when it grows too large."""
    budget = budget if budget is not None else [MAX_WORDS]
    start = 0
    while True:
        found = _find_brace(segs, start)
        if found is None:
            return [segs]
        a, b, alternatives = found
        if alternatives is None:
            start = a + 1
            continue
        out: list[list[Seg]] = []
        prefix, suffix = segs[:a], segs[b + 1 :]
        for alt in alternatives:
            more = expand_braces(prefix + alt + suffix, budget)
            if more is None:
                return None
            out += more
            budget[0] -= len(more)
            if budget[0] < 0:
                return None
        return out


def _find_brace(segs: list[Seg], start: int) -> tuple[int, int, list[list[Seg]] | None] | None:
    for a in range(start, len(segs)):
        if segs[a] != ("{", False):
            continue
        depth = 0
        commas: list[int] = []  # where the top-level commas are
        for b in range(a + 1, len(segs)):
            ch, quoted = segs[b]
            if quoted:
                continue
            if ch == "{":
                depth += 1
            elif ch == "}" and depth:
                depth -= 1
            elif ch == "}":
                inner = segs[a + 1 : b]
                if commas:
                    cuts = [a] + commas + [b]
                    return a, b, [segs[cuts[k] + 1 : cuts[k + 1]] for k in range(len(cuts) - 1)]
                return a, b, _sequence(inner)
            elif ch == "," and depth == 0:
                commas.append(b)
        return None
    return None


_NUM_SEQ = re.compile(r"^([+-]?\d+)\.\.([+-]?\d+)(?:\.\.([+-]?\d+))?$")
_CHR_SEQ = re.compile(r"^([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?\d+))?$")


def _sequence(inner: list[Seg]) -> list[list[Seg]] | None:
    if any(q for _, q in inner):
        return None
    text = "".join(c for c, _ in inner)
    m = _NUM_SEQ.match(text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        if abs(hi - lo) // step > MAX_WORDS:
            return [[("", True)]] * (MAX_WORDS + 1)  # more than the caller's budget: it gives up
        padded = any(re.match(r"^[+-]?0\d", g) for g in (m.group(1), m.group(2)))
        width = max(len(m.group(1)), len(m.group(2))) if padded else 0
        rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
        return [[(ch, True) for ch in str(v).zfill(width)] for v in rng]
    m = _CHR_SEQ.match(text)
    if m:
        lo, hi = ord(m.group(1)), ord(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
        return [[(chr(v), True)] for v in rng]
    return None


# --------------------------------------------------------------------------- tilde and globs


class _Unknown(Exception):
    """The word's value depends on the shell's state."""


def _tilde(segs: list[Seg]) -> list[Seg]:
    """`~` or `~user` at the start (and after `NAME=`, as bash does for any word) becomes a home."""
    segs = _tilde_at(segs, 0)
    eq = next((k for k, (c, q) in enumerate(segs) if c == "=" and not q), None)
    if eq is not None and re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", "".join(c for c, _ in segs[:eq])):
        segs = _tilde_at(segs, eq + 1)
    return segs


def _tilde_at(segs: list[Seg], at: int) -> list[Seg]:
    if at >= len(segs) or segs[at] != ("~", False):
        return segs
    end = at + 1
    while end < len(segs) and segs[end] != ("/", False) and not segs[end][1] and segs[end][0] != ":":
        end += 1
    if any(q for _, q in segs[at:end]):
        return segs
    name = "".join(c for c, _ in segs[at:end])
    if re.match(r"^~[+-]?\d*$", name) and name != "~":
        raise _Unknown  # ~+ ~- ~N: the current, previous or a stacked directory
    home = os.path.expanduser(name)
    if home == name:
        return segs
    return segs[:at] + [(c, True) for c in home] + segs[end:]


def _has_glob(segs: list[Seg]) -> bool:
    for k, (c, q) in enumerate(segs):
        if q:
            continue
        if c in "*?":
            return True
        if c == "[" and any(ch == "]" and not qq for ch, qq in segs[k + 1 :]):
            return True
    return False


def _glob(segs: list[Seg], cwds: Iterable[str]) -> list[str] | None:
    """The names the pattern matches under each possible cwd; None when it is not looked at.

    A pattern that leaves the root (absolute, `..`) is not expanded: the literal is already a
    path outside, which asks, and matching `/*/*/*` could take long.
    """
    pattern = "".join(c if not q else glob.escape(c) for c, q in segs)
    pattern = re.sub(r"\[\^", "[!", pattern)
    if re.search(r"\[[:=.]", pattern):
        return None  # `[[:alpha:]]`, `[[=e=]]`, `[[.e.]]`: bash's classes, which Python's glob does not know
    if os.path.isabs(pattern) or ".." in pattern.split("/"):
        return None
    found: list[str] = []
    for cwd in cwds:
        try:
            for hit in glob.iglob(pattern, root_dir=cwd):
                if hit not in found:
                    found.append(hit)
                if len(found) > MAX_WORDS:
                    return None
        except (OSError, ValueError):
            continue
    # bash before 5.2 (no globskipdots) lets `.*` match `.` and `..`
    first = pattern.split("/", 1)[0]
    if first.startswith(".") and fnmatch.fnmatchcase("..", first):
        found += [".", ".."]
    return sorted(found)


def expand(text: str, cwds: Iterable[str]) -> list[Word]:
    """The words bash makes of `text` (one argument as written), or one unknown word."""
    segs = lex(text)
    if segs is None:
        return [Word(None, text, "dynamic")]
    variants = expand_braces(segs)
    if variants is None:
        return [Word(None, text, "dynamic")]
    cwds = list(cwds)
    out: list[Word] = []
    for v in variants:
        if not v and len(variants) > 1 and not re.search(r"['\"\\]", text):
            continue  # an unquoted empty alternative (`{,-x}`) is no word at all; `''` is one
        try:
            v = _tilde(v)
        except _Unknown:
            return [Word(None, text, "dynamic")]
        if _has_glob(v):
            hits = _glob(v, cwds)
            if hits is None:
                literal = "".join(c for c, _ in v)
                if os.path.isabs(literal):
                    out.append(Word(literal, text))  # outside the root either way
                    continue
                return [Word(None, text, "dynamic")]  # `s*/../x` goes where the matched link leads
            if hits:
                out += [Word(h, text, "glob") for h in hits]
                continue
        out.append(Word("".join(c for c, _ in v), text))
    if len(out) > MAX_WORDS:
        return [Word(None, text, "dynamic")]
    return out
