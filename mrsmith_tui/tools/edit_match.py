"""Where an edit's `old` text is in a buffer, and the buffer after the replacement.

Exact match first. Failing that, a line-by-line match that ignores each line's leading and
trailing whitespace, with `new` re-indented by the difference between the indentation the
model wrote and the file's. An `old` found more than once is refused (with every line
number) unless replace_all is set. Buffers here always use '\\n'; the caller handles CRLF.
"""

from __future__ import annotations


class EditError(Exception):
    pass


def _line_of(buffer: str, index: int) -> int:
    return buffer.count("\n", 0, index) + 1


def _ambiguous(kind: str, lines: list[int]) -> EditError:
    where = ", ".join(str(n) for n in lines)
    return EditError(
        f"`old` matches {len(lines)} places{kind} (lines {where}); include more surrounding lines in "
        "`old` so it matches exactly one place, or pass replace_all: true to change every one"
    )


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


def apply_edit(buffer: str, old: str, new: str, replace_all: bool = False) -> str:
    if old == "":
        raise EditError("`old` is empty; give the exact text to replace (read the file first)")
    if old == new:
        raise EditError("`old` and `new` are the same; nothing would change")
    count = buffer.count(old)
    if count == 1 or (count > 1 and replace_all):
        return buffer.replace(old, new)
    if count > 1:
        starts, i = [], buffer.find(old)
        while i != -1:
            starts.append(_line_of(buffer, i))
            i = buffer.find(old, i + 1)
        raise _ambiguous("", starts)
    return _apply_loose(buffer, old, new, replace_all)


def _apply_loose(buffer: str, old: str, new: str, replace_all: bool) -> str:
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
    hits = [i for i in range(len(lines) - k + 1) if [s.strip() for s in lines[i : i + k]] == want]
    if not hits:
        raise EditError(
            "`old` was not found in the file, not even ignoring indentation; read the file again and "
            "copy the text to replace exactly"
        )
    if len(hits) > 1 and not replace_all:
        raise _ambiguous(" ignoring indentation", [i + 1 for i in hits])
    new_lines = new.split("\n")
    if new.endswith("\n"):
        new_lines.pop()  # the replaced window is whole lines; its line ends stay
    first_old = next(line for line in old_lines if line.strip())
    for i in reversed(hits):  # from the end so earlier indexes stay valid
        written, actual = _indent(first_old), _indent(lines[i])
        lines[i : i + k] = _reindent(new_lines, written, actual) if new else []
    return "\n".join(lines)
