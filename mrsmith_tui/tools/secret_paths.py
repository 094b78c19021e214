"""The file tools' hook for secret-looking paths (security.sensitive): reading one asks.

The spec an "always" answer remembers is the tool and the path (`read_file:.env`), so
allowing one secret never allows the next.
"""

from __future__ import annotations

import os
from typing import Any

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import ApprovalNeed, ToolContext
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve

SECRET = "this looks like a secret"


def secret_need(tool: str, raw: Any, ctx: ToolContext, sensitive: SensitivePaths, *, doing: str = "") -> ApprovalNeed | None:
    """What to ask before `tool` reads (or changes) the path `raw`, or None when it is not a secret.

    A path outside the root is not asked about here: the tool refuses it anyway.
    """
    try:
        path = resolve(ctx.root, raw)
    except SandboxError:
        return None
    why = sensitive.reason(raw, ctx.root) or sensitive.reason(path, ctx.root)
    if why is None or not why.startswith(SECRET):
        return None
    shown = display(ctx.root, path)
    real_root = os.path.realpath(ctx.root)
    named = os.path.relpath(os.path.normpath(os.path.join(real_root, str(raw))), real_root)  # as given, links kept
    detail = shown if named == shown else f"{named} -> {shown}"
    # The modal and refusals already say "reads a secret"; the detail names the file.
    reason = f"{detail} looks like a secret" + (f"; {doing}" if doing else "")
    return ApprovalNeed(reason=reason, spec=f"{tool}:{shown}", rule="secret")


def secret_listing(rel_paths: list[str], sensitive: SensitivePaths) -> tuple[list[str], int]:
    """(the paths that do not look like secrets, how many were left out)."""
    kept = [p for p in rel_paths if not sensitive.matches(p)]
    return kept, len(rel_paths) - len(kept)
