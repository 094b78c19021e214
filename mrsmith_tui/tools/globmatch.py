"""A glob matcher with no catastrophic backtracking, for glob patterns and .gitignore lines.

A pattern is split at '/' into segments and matched segment by segment: a segment that is
exactly `**` matches any number of path segments (an NFA over segment positions, so many
`**` cost a product, never an exponential); any other segment is matched against one name
without regex backtracking: consecutive `*` are one `*`, the pieces between stars have a
fixed width (literals, `?`, `[classes]`) and are placed greedily left to right, which is
exact for this language. `{a,b}` alternatives are expanded first (at most MAX_ALTERNATIVES).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mrsmith_tui.cancel import Cancelled
from mrsmith_tui.errors import MrSmithError

MAX_ALTERNATIVES = 64
MAX_PATTERN = 1000
MAX_IGNORE_WEIGHT = 4096  # alternatives x segments of one .gitignore's rules; later lines are not honoured


class GlobError(MrSmithError, ValueError):
    pass


def expand_braces(pattern: str) -> list[str]:
    """`a{b,c}d` -> [abd, acd], nested and repeated; an unmatched brace is a literal."""
    depth, start = 0, -1
    for i, c in enumerate(pattern):
        if c == "\\":
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0:
                options, level, last = [], 0, start + 1
                for j in range(start + 1, i):
                    ch = pattern[j]
                    level += ch == "{"
                    level -= ch == "}"
                    if ch == "," and level == 0:
                        options.append(pattern[last:j])
                        last = j + 1
                options.append(pattern[last:i])
                out: list[str] = []
                for rest in expand_braces(pattern[i + 1 :]):
                    for opt in options:
                        for head in expand_braces(opt):
                            out.append(pattern[:start] + head + rest)
                            if len(out) > MAX_ALTERNATIVES:
                                raise GlobError(f"the pattern expands to more than {MAX_ALTERNATIVES} alternatives")
                return out
    return [pattern]


def _class(seg: str, i: int) -> tuple[str, int] | None:
    """The regex for a `[...]` class starting at seg[i], and the index after it; None if unclosed."""
    j = i + 1
    negate = j < len(seg) and seg[j] in "!^"
    j += negate
    body_start = j
    if j < len(seg) and seg[j] == "]":
        j += 1
    while j < len(seg) and seg[j] != "]":
        j += 1
    if j >= len(seg):
        return None
    body = seg[body_start:j]
    parts = []
    for k, ch in enumerate(body):
        parts.append("-" if ch == "-" and 0 < k < len(body) - 1 else re.escape(ch))
    return ("[^" if negate else "[") + "".join(parts) + "]", j + 1


@dataclass(frozen=True)
class _Segment:
    globstar: bool = False
    literal: str | None = None  # no wildcard at all
    pieces: tuple[re.Pattern[str], ...] = ()  # fixed-width pieces between stars
    widths: tuple[int, ...] = ()
    stars: bool = False  # at least one star: pieces[0] is anchored at the start, pieces[-1] at the end

    def match(self, name: str) -> bool:
        if self.globstar:
            return True
        if self.literal is not None:
            return name == self.literal
        if not self.stars:
            return len(name) == self.widths[0] and self.pieces[0].match(name) is not None
        first, last = self.pieces[0], self.pieces[-1]
        w_first, w_last = self.widths[0], self.widths[-1]
        end = len(name) - w_last
        if end < w_first or (w_first and not first.match(name)) or (w_last and not last.match(name, end)):
            return False
        pos = w_first
        for rx, w in zip(self.pieces[1:-1], self.widths[1:-1], strict=True):
            m = rx.search(name, pos, end)
            if m is None:
                return False
            pos = m.start() + w
        return True


def _compile_segment(seg: str) -> _Segment:
    if seg == "**":
        return _Segment(globstar=True)
    pieces: list[list[str]] = [[]]
    widths = [0]
    plain: list[str] = []
    wild = False
    i = 0
    while i < len(seg):
        c = seg[i]
        if c == "*":
            wild = True
            if pieces[-1] or len(pieces) == 1:
                pieces.append([])
                widths.append(0)
            i += 1
            continue
        if c == "?":
            wild, rx = True, "[^/]"
        elif c == "[" and (cls := _class(seg, i)) is not None:
            wild, (rx, i) = True, cls
            pieces[-1].append(rx)
            widths[-1] += 1
            continue
        elif c == "\\" and i + 1 < len(seg):
            i += 1
            rx = re.escape(seg[i])
            plain.append(seg[i])
        else:
            rx = re.escape(c)
            plain.append(c)
        pieces[-1].append(rx)
        widths[-1] += 1
        i += 1
    if not wild:
        return _Segment(literal="".join(plain))
    stars = len(pieces) > 1
    try:
        compiled = tuple(re.compile("".join(p)) for p in pieces)
    except re.error as e:  # `[z-a]`: a range backwards
        raise GlobError(f"bad character class in {seg!r}: {e.msg}") from None
    return _Segment(pieces=compiled, widths=tuple(widths), stars=stars)


State = frozenset[tuple[int, int]]  # of (alternative, segment index)


class Glob:
    """A compiled pattern over '/'-separated relative paths."""

    def __init__(self, pattern: str) -> None:
        if len(pattern) > MAX_PATTERN:
            raise GlobError(f"the pattern is longer than {MAX_PATTERN} characters")
        self.pattern = pattern
        self.alts = tuple(tuple(_compile_segment(s) for s in alt.split("/") if s != "") for alt in expand_braces(pattern))
        self.weight = sum(len(a) + 1 for a in self.alts)  # what matching one path costs, about

    def _closure(self, states: Iterable[tuple[int, int]]) -> State:
        out: set[tuple[int, int]] = set()
        todo = list(states)
        while todo:
            a, i = todo.pop()
            if (a, i) in out:
                continue
            out.add((a, i))
            segs = self.alts[a]
            if i < len(segs) and segs[i].globstar:
                todo.append((a, i + 1))
        return frozenset(out)

    def start(self) -> State:
        return self._closure((a, 0) for a in range(len(self.alts)))

    def step(self, states: State, name: str) -> State:
        nxt: list[tuple[int, int]] = []
        for a, i in states:
            segs = self.alts[a]
            if i < len(segs):
                if segs[i].globstar:
                    nxt.append((a, i))
                elif segs[i].match(name):
                    nxt.append((a, i + 1))
        return self._closure(nxt)

    def accepts(self, states: State) -> bool:
        return any(i == len(self.alts[a]) for a, i in states)

    def may_descend(self, states: State) -> bool:
        """Whether anything in a directory reached in `states` can still match."""
        return any(i < len(self.alts[a]) for a, i in states)

    def match(self, path: str) -> bool:
        states = self.start()
        for name in path.split("/"):
            if name:
                states = self.step(states, name)
                if not states:
                    return False
        return self.accepts(states)


@dataclass(frozen=True)
class IgnoreRule:
    glob: Glob
    negate: bool
    dir_only: bool


@dataclass
class IgnoreFile:
    rules: list[IgnoreRule]
    weight: int = 0
    cut: bool = False  # rules past MAX_IGNORE_WEIGHT were not honoured


def _never() -> bool:
    return False


def gitignore_rules(lines: Iterable[str], cancelled: Callable[[], bool] = _never,
                    max_weight: int = MAX_IGNORE_WEIGHT) -> IgnoreFile:
    """.gitignore lines as rules matched with the linear matcher (a repository's file is untrusted input):
    a line that does not compile is skipped, and lines after `max_weight` of rules are not honoured."""
    out = IgnoreFile([])
    rules = out.rules
    for raw in lines:
        if cancelled():
            raise Cancelled()
        line = raw.rstrip("\n").rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        while line.endswith(" ") and not line.endswith("\\ "):
            line = line[:-1]
        negate = line.startswith("!")
        if negate:
            line = line[1:]
        if line.startswith("\\") and line[1:2] in ("!", "#"):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        pattern = line.lstrip("/") if anchored else "**/" + line
        try:
            glob = Glob(pattern)
        except GlobError:
            continue  # a line too big to honour, or broken, is skipped, as if absent
        if out.weight + glob.weight > max_weight:
            out.cut = True
            break
        out.weight += glob.weight
        rules.append(IgnoreRule(glob, negate, dir_only))
    return out


def ignored(rules: list[IgnoreRule], rel: str, is_dir: bool) -> bool | None:
    """True/False when a rule decides for `rel` (relative to the rules' directory); None when none does."""
    verdict = None
    for rule in rules:
        if rule.dir_only and not is_dir:
            continue
        if rule.glob.match(rel):
            verdict = not rule.negate
    return verdict
