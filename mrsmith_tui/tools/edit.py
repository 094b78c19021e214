"""edit: replace text in a file inside the root; one change or several, all or none."""

from __future__ import annotations

import json
import threading
from typing import Any

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import ApprovalNeed, BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.edit_match import EditError, apply_edit
from mrsmith_tui.tools.fileio import (
    MAX_HELD_BYTES,
    WritePlan,
    commit_write,
    diff_for_model,
    locate_target,
    unified_diff,
)
from mrsmith_tui.tools.secret_paths import changed_since_approval, is_secret, secret_diff_summary, secret_need


def _changes(args: dict[str, Any]) -> list[tuple[str, str, bool]] | str:
    edits = args.get("edits")
    if edits is not None:
        if "old" in args or "new" in args:
            return "give either `old`/`new` or `edits`, not both"
        if not isinstance(edits, list) or not edits:
            return "`edits` must be a non-empty list of {old, new} objects"
        out = []
        for n, e in enumerate(edits, start=1):
            if not isinstance(e, dict) or not isinstance(e.get("old"), str) or not isinstance(e.get("new"), str):
                return f"edits[{n}] must be an object with string `old` and `new`"
            out.append((e["old"], e["new"], bool(e.get("replace_all", False))))
        return out
    old, new = args.get("old"), args.get("new")
    if not isinstance(old, str) or not isinstance(new, str):
        return "`old` and `new` (strings) are required, or `edits`"
    return [(old, new, bool(args.get("replace_all", False)))]


def _key(args: dict[str, Any]) -> str:
    return json.dumps(args, sort_keys=True, default=str)


def _plan(args: dict[str, Any], ctx: ToolContext, reuse: tuple[str, str | None, WritePlan] | None = None) -> WritePlan | str:
    """The write an edit makes. `reuse` is (args key, file fingerprint, plan) from approval(): when the
    same call finds the same file, its plan is taken as it is instead of matching `old` a second time."""
    changes = _changes(args)
    if isinstance(changes, str):
        return changes
    target = locate_target(args, ctx)
    if isinstance(target, str):
        return target
    path, shown, now = target
    if reuse is not None and reuse[0] == _key(args) and now.exists and reuse[1] == now.fingerprint \
            and reuse[2].path == path:
        return reuse[2]
    if not now.exists:
        if len(changes) == 1 and changes[0][0] == "":
            text = changes[0][1]  # old "" on a missing file creates it
            return WritePlan(path, shown, now, text.encode("utf-8"), unified_diff(shown, "", text))
        return f"{shown} does not exist (to create a file, use write_file or edit with old: \"\")"
    before = now.data
    if before is None:
        return f"{shown} is {now.size} bytes; edit changes files up to {MAX_HELD_BYTES // (1024 * 1024)} MiB"
    if b"\x00" in before[:8192]:
        return f"{shown} is a binary file; edit changes text files only"
    try:
        original = before.decode("utf-8")
    except UnicodeDecodeError:
        return f"{shown} is not UTF-8 text; edit changes text files only"
    crlf = "\r\n" in original
    buffer = original.replace("\r\n", "\n") if crlf else original
    for n, (old, new, replace_all) in enumerate(changes, start=1):
        if crlf:
            old, new = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
        try:
            buffer = apply_edit(buffer, old, new, replace_all, lambda: ctx.cancel.cancelled)
        except EditError as e:
            where = f"edits[{n}]: " if len(changes) > 1 else ""
            tail = "; no edit was applied" if len(changes) > 1 else ""
            return f"{shown}: {where}{e}{tail}"
    if original.replace("\r\n", "\n").endswith("\n") and not buffer.endswith("\n"):
        buffer += "\n"
    result = buffer.replace("\n", "\r\n") if crlf else buffer
    diff = unified_diff(shown, original.replace("\r\n", "\n"), buffer)
    return WritePlan(path, shown, now, result.encode("utf-8"), diff)


class EditTool(BaseTool):
    name = "edit"
    read_only = False
    description = (
        "Change part of a text file: replace the exact text `old` with `new`. Read the file first and copy "
        "`old` exactly, with enough surrounding lines to match one place only; an `old` that matches several "
        "places is refused with their line numbers (add context, or set replace_all: true to change all). "
        "If no exact match exists, a match ignoring indentation is tried and `new` is re-indented to fit. "
        "For several changes to one file pass `edits: [{old, new}, ...]` instead: they apply in order to one "
        "buffer and are written all together, or not at all. Line endings (CRLF) and the final newline are "
        "kept. `old: \"\"` on a file that does not exist creates it with `new`. An edit to a file that changed "
        "since you last read it is refused: read it again."
    )
    parameters = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "File path relative to the working directory"},
            "old": {"type": "string", "description": "The exact text to replace"},
            "new": {"type": "string", "description": "The text to put in its place"},
            "replace_all": {"type": "boolean", "description": "Replace every occurrence of `old` (default false)"},
            "edits": {
                "type": "array",
                "description": "Several replacements applied in order, all or none (instead of old/new)",
                "items": {
                    "type": "object",
                    "properties": {
                        "old": {"type": "string"},
                        "new": {"type": "string"},
                        "replace_all": {"type": "boolean"},
                    },
                    "required": ["old", "new"],
                },
            },
        },
        "required": ["path"],
        "additionalProperties": False,
    }

    def __init__(self, sensitive: SensitivePaths | None = None) -> None:
        self.sensitive = sensitive or SensitivePaths()
        self._planned = threading.local()  # approval() -> run() of one call, on one thread

    def approval(self, args: dict[str, Any], ctx: ToolContext) -> ApprovalNeed | None:
        self._planned.value = None
        plan = _plan(args, ctx)
        if not isinstance(plan, str) and plan.current.exists:
            self._planned.value = (_key(args), plan.current.fingerprint, plan)
        # A secret asks even when the edit cannot apply: its error would quote the file.
        secret = secret_need(self.name, args.get("path"), ctx, self.sensitive, doing="edit changes it", args=args)
        if secret is not None:
            return ApprovalNeed(reason=secret.reason, spec=secret.spec, diff=None if isinstance(plan, str) else plan.diff,
                                rule="secret")
        if isinstance(plan, str):
            return None  # run() reports the problem
        return ApprovalNeed(reason=f"edit changes {plan.shown}", spec="edit", diff=plan.diff, rule="writes")

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        reuse, self._planned.value = getattr(self._planned, "value", None), None
        plan = _plan(args, ctx, reuse)
        if isinstance(plan, str):
            return ToolResult.error(plan)
        if (changed := changed_since_approval(args, plan.path)) is not None:
            return ToolResult.error(changed)
        failed = commit_write(plan.path, plan.after, plan.shown, ctx)
        if failed:
            return ToolResult.error(failed)
        verb = "Created" if plan.before is None else "Edited"
        if is_secret(plan.path, ctx, self.sensitive):
            # The old content of a secret must not reach the model (the person saw the diff when asked).
            return ToolResult(content=f"{verb} {plan.shown} {secret_diff_summary(plan.diff)}")
        return ToolResult(content=f"{verb} {plan.shown}\n{diff_for_model(plan.diff)}", diff=plan.diff)
