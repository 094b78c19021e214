"""The root's files and folders for `@path` completion: a bounded walk that honours `.gitignore`
(every level's, with pathspec's git rules) and leaves out `.git`, secrets (security.sensitive: the
names the file tools ask about, folders such as `.ssh/` with all they hold) and links that lead out
of the root or to a secret. Names only: nothing is opened but the `.gitignore` files.

Bounds: MAX_ENTRIES names kept, MAX_SCANNED names looked at, MAX_IGNORE_BYTES of one .gitignore.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pathspec

from mrsmith_tui.security.sensitive import SensitivePaths

__all__ = ["MAX_ENTRIES", "MAX_SCANNED", "index_files"]

MAX_ENTRIES = 20_000
MAX_SCANNED = 200_000
MAX_IGNORE_BYTES = 256 * 1024
_ALWAYS_SKIPPED = frozenset({".git", ".hg", ".svn"})

_Specs = list[tuple[str, pathspec.GitIgnoreSpec]]  # (folder relative to the root, "" for the root; its .gitignore)


def _ignore_spec(folder: str) -> pathspec.GitIgnoreSpec | None:
    try:
        fd = os.open(os.path.join(folder, ".gitignore"), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        text = os.read(fd, MAX_IGNORE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)
    return pathspec.GitIgnoreSpec.from_lines(text.splitlines())


def _ignored(specs: _Specs, rel: str, is_dir: bool) -> bool:
    """`rel` (relative to the root) is ignored by the .gitignore of a folder above it."""
    for base, spec in specs:
        if base and not rel.startswith(base + "/"):
            continue
        sub = rel[len(base) + 1:] if base else rel
        if spec.match_file(sub + "/" if is_dir else sub):
            return True
    return False


def _link_ok(real_root: str, full: str, sensitive: SensitivePaths) -> bool:
    """A link is listed only when it leads inside the root and not to a secret."""
    target = os.path.realpath(full)
    if target != real_root and not target.startswith(real_root + os.sep):
        return False
    rel = os.path.relpath(target, real_root)
    return rel == "." or not sensitive.matches(rel)


def index_files(root: Path, sensitive: SensitivePaths | None = None,
                cancelled: Callable[[], bool] = lambda: False) -> tuple[str, ...]:
    """Relative POSIX paths, folders ending in `/`, sorted; at most MAX_ENTRIES."""
    sensitive = sensitive or SensitivePaths()
    real_root = os.path.realpath(root)
    specs: _Specs = []
    out: list[str] = []
    scanned = 0
    for folder, dirs, files in os.walk(real_root, followlinks=False):
        if cancelled():
            break
        rel_folder = os.path.relpath(folder, real_root)
        rel_folder = "" if rel_folder == "." else rel_folder.replace(os.sep, "/")
        if (spec := _ignore_spec(folder)) is not None:
            specs.append((rel_folder, spec))
        kept_dirs = []
        for name, is_dir in [(d, True) for d in sorted(dirs)] + [(f, False) for f in sorted(files)]:
            scanned += 1
            rel = f"{rel_folder}/{name}" if rel_folder else name
            if is_dir and name in _ALWAYS_SKIPPED:
                continue
            if sensitive.matches(rel):  # a folder such as .ssh/ is left out with all it holds
                continue
            if _ignored(specs, rel, is_dir):
                continue
            full = os.path.join(folder, name)
            if os.path.islink(full) and not _link_ok(real_root, full, sensitive):
                continue
            if is_dir and not os.path.islink(full):
                kept_dirs.append(name)
            out.append(rel + "/" if is_dir else rel)
            if len(out) >= MAX_ENTRIES or scanned >= MAX_SCANNED:
                return tuple(sorted(out))
        dirs[:] = kept_dirs
    return tuple(sorted(out))
