"""The file tools' hook for secret-looking paths (security.sensitive): reading one asks.

The spec an "always" answer remembers is the tool and the path (`read_file:.env`), so
allowing one secret never allows the next.

A path is judged twice: by where it really leads (relative to the real root), and by the name
as the model gave it. Both count, so `/proc/self/cwd/.env`, an outside link back into the
project (`/tmp/x/alias/.env`) and a link named `notes.txt` to `.env` all ask.

approval() and run() resolve the path separately; `judged` remembers (per thread, for one
call's argument object) where approval() found the path to lead, and `changed_since_approval`
lets run() refuse when a link was swapped in between.
"""

from __future__ import annotations

import os
import posixpath
import stat
import threading
from pathlib import Path
from typing import Any

from mrsmith_tui.security.sensitive import SensitivePaths, is_repository_config, is_user_mcp_config
from mrsmith_tui.tools.base import ApprovalNeed, ToolContext
from mrsmith_tui.tools.dirfd import links_inside
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve
from mrsmith_tui.words import counted

SECRET = "this looks like a secret"

_judged = threading.local()


def _named(raw: str, real_root: str) -> str:
    """The path as given, links kept, as a relative POSIX path to match patterns against
    (an absolute path that is not under the root textually is matched as a whole)."""
    joined = posixpath.normpath(raw if os.path.isabs(raw) else posixpath.join(real_root, raw))
    rel = posixpath.relpath(joined, real_root)
    if rel == ".." or rel.startswith("../"):
        return joined.lstrip("/")  # /proc/self/cwd/.env, /tmp/x/alias/.env: judged by their names
    return rel


def secret_need(tool: str, raw: Any, ctx: ToolContext, sensitive: SensitivePaths, *, doing: str = "",
                args: dict[str, Any] | None = None) -> ApprovalNeed | None:
    """What to ask before `tool` reads (or changes) the path `raw`, or None when it is not a secret.

    A path that resolves outside the root is not asked about here: the tool refuses it anyway.
    Pass the call's `args` so run() can check that the path still leads where it was judged.
    """
    try:
        path = resolve(ctx.root, raw)
    except SandboxError:
        return None
    if args is not None:
        _judged.value = (id(args), path)
    real_root = os.path.realpath(ctx.root)
    shown = display(ctx.root, path)
    named = _named(str(raw), real_root)
    if not ((shown != "." and sensitive.matches(shown)) or sensitive.matches(named) or is_repository_config(str(path))
            or is_user_mcp_config(path)):
        if (linked := _hard_linked_secret(path, ctx, sensitive)) is None:
            return None
        doing = f"it is a hard link to {linked}" + (f"; {doing}" if doing else "")
    given = str(raw) if os.path.isabs(str(raw)) else named
    detail = shown if given == shown else f"{given} -> {shown}"
    # The modal and refusals already say "reads a secret"; the detail names the file.
    reason = f"{detail} looks like a secret" + (f"; {doing}" if doing else "")
    return ApprovalNeed(reason=reason, spec=f"{tool}:{shown}", rule="secret")


def _hard_linked_secret(path: Path, ctx: ToolContext, sensitive: SensitivePaths) -> str | None:
    """Another name of this file, when it has several and one looks like a secret (`notes.txt`
    hard-linked to `.env`); a name outside the root makes the tool refuse the file anyway."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_nlink <= 1:
        return None
    root = Path(os.path.realpath(ctx.root))
    return next((n for n in links_inside(root, st.st_dev, st.st_ino, st.st_nlink)
                 if sensitive.matches(n) or is_repository_config(str(root / n))), None)


def changed_since_approval(args: dict[str, Any], path: Path) -> str | None:
    """An error when approval() judged these `args` to lead somewhere other than `path` (a link
    swapped between the question and the run), else None."""
    judged = getattr(_judged, "value", None)
    if judged is None or judged[0] != id(args):
        return None
    _judged.value = None
    if judged[1] != path:
        return (f"{args.get('path')!r} changed while waiting for approval (it led to {judged[1]}, now to {path}); "
                "not touched, try again")
    return None


def is_secret(path: Path, ctx: ToolContext, sensitive: SensitivePaths) -> bool:
    shown = display(ctx.root, path)
    return shown != "." and (sensitive.matches(shown) or is_user_mcp_config(path))


def secret_diff_summary(diff: str) -> str:
    """What the model gets instead of a secret file's diff: how much changed, not what."""
    added = sum(1 for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in diff.splitlines() if line.startswith("-") and not line.startswith("---"))
    return f"({counted(added, 'line')} added, {removed} removed; a secret file's content is not shown)"


def secret_listing(rel_paths: list[str], sensitive: SensitivePaths) -> tuple[list[str], int]:
    """(the paths that do not look like secrets, how many were left out)."""
    kept = [p for p in rel_paths if not sensitive.matches(p)]
    return kept, len(rel_paths) - len(kept)
