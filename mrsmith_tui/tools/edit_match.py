"""Where an edit's `old` text is in a buffer, and the buffer after the replacement.

Exact match first. Failing that, a line-by-line match that ignores each line's leading and
trailing whitespace, with `new` re-indented by the difference between the indentation the
model wrote and the file's. An `old` found more than once is refused (with the first
MAX_LISTED line numbers) unless replace_all is set. Buffers here always use '\\n'; the caller
handles CRLF.

Every step is linear in the buffer: line numbers are counted in one pass, and the loose match
searches one string of the stripped lines (line starts found by bisection), so `old: "a"` on a
million-line file answers at once. `cancelled` is polled between steps.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from mrsmith_tui.cancel import Cancelled
from mrsmith_tui.errors import MrSmithError

MAX_LISTED = 20  # line numbers named in an "ambiguous" error
_POLL = 4096  # matches between two looks at `cancelled`


class EditError(MrSmithError):
    pass


def _never() -> bool:
    return False


def _ambiguous(kind: str, count: int, lines: list[int]) -> EditError:
    where = ", ".join(str(n) for n in lines[:MAX_LISTED])
    shown = f"lines {where}" if count <= MAX_LISTED else f"first {MAX_LISTED} at lines {where}"
    return EditError(
        f"`old` matches {count} places{kind} ({shown}); include more surrounding lines in "
        "`old` so it matches exactly one place, or pass replace_all: true to change every one"
    )


def _first_lines(buffer: str, old: str, limit: int) -> list[int]:
    """Line numbers of the first `limit` matches of `old`, counting newlines once along the way."""
    out: list[int] = []
    line, pos, i = 1, 0, buffer.find(old)
    while i != -1 and len(out) < limit:
        line += buffer.count("\n", pos, i)
        pos = i
        out.append(line)
        i = buffer.find(old, i + 1)
    return out


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _reindent(new_lines: list[str], written: str, actual: str) -> list[str]:
    out = []
    for line in new_lines:
        if not line.strip():
            out.append(line.strip(" \t"))
        elif line.startswith(written):
            out.append(actual + line[len(written) :])
        else:  # less indented than the first line the model wrote: keep what is left of it
            out.append(actual + line.lstrip())
    return out


def apply_edit(
    buffer: str, old: str, new: str, replace_all: bool = False, cancelled: Callable[[], bool] = _never
) -> str:
    """The buffer with `old` replaced; EditError says why not; Cancelled when `cancelled()` turns true."""
    if old == "":
        raise EditError("`old` is empty; give the exact text to replace (read the file first)")
    if old == new:
        raise EditError("`old` and `new` are the same; nothing would change")
    count = buffer.count(old)
    if count == 1 or (count > 1 and replace_all):
        return buffer.replace(old, new)
    if count > 1:
        raise _ambiguous("", count, _first_lines(buffer, old, MAX_LISTED))
    if cancelled():
        raise Cancelled()
    return _apply_loose(buffer, old, new, replace_all, cancelled)


def _loose_hits(lines: list[str], want: list[str], replace_all: bool, cancelled: Callable[[], bool]) -> tuple[int, list[int]]:
    """(number of windows of `lines` whose stripped text is `want`, their first indexes).

    All indexes when replace_all (windows that do not overlap), else at most MAX_LISTED."""
    stripped = [s.strip() for s in lines]
    starts, pos = [], 0
    for s in stripped:
        starts.append(pos)
        pos += len(s) + 1
    hay = "\n" + "\n".join(stripped) + "\n"
    needle = "\n" + "\n".join(want) + "\n"
    hits: list[int] = []
    count, i = 0, hay.find(needle)
    while i != -1:
        count += 1
        if replace_all or len(hits) < MAX_LISTED:
            hits.append(bisect_right(starts, i) - 1)
        if count % _POLL == 0 and cancelled():
            raise Cancelled()
        # `needle` starts and ends with the separator: the next window may share it, not a line
        i = hay.find(needle, i + len(needle) - 1 if replace_all else i + 1)
    return count, hits


def _apply_loose(buffer: str, old: str, new: str, replace_all: bool, cancelled: Callable[[], bool]) -> str:
    old_lines = old.split("\n")
    while old_lines and not old_lines[-1].strip():
        old_lines.pop()
    while old_lines and not old_lines[0].strip():
        old_lines.pop(0)
    if not old_lines:
        raise EditError("`old` is only whitespace; give the exact text to replace")
    lines = buffer.split("\n")
    want = [s.strip() for s in old_lines]
    k = len(want)
    count, hits = _loose_hits(lines, want, replace_all, cancelled)
    if not hits:
        raise EditError(
            "`old` was not found in the file, not even ignoring indentation; read the file again and "
            "copy the text to replace exactly"
        )
    if count > 1 and not replace_all:
        raise _ambiguous(" ignoring indentation", count, [i + 1 for i in hits])
    new_lines = new.split("\n")
    if new.endswith("\n"):
        new_lines.pop()  # the replaced window is whole lines; its line ends stay
    first_old = old_lines[0]
    out: list[str] = []
    done = 0
    for n, i in enumerate(hits):  # rebuilt in one pass: splicing from the end would be quadratic
        if n % _POLL == 0 and cancelled():
            raise Cancelled()
        out.extend(lines[done:i])
        if new:
            out.extend(_reindent(new_lines, _indent(first_old), _indent(lines[i])))
        done = i + k
    out.extend(lines[done:])
    return "\n".join(out)
