"""The permissions family: `/permissions` lists what runs without asking in this session and where
each came from; `/permissions revoke N|SPEC|all` forgets them.

The permissions live in the session's ApprovalGate (tools.approval); this module only reads, words
and revokes them. (The question `/reset` asks about them is screens/keep_permissions.py.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mrsmith_tui.tui.commands.registry import CommandContext, NoteKind, SlashCommand, session_of
from mrsmith_tui.tui.model import Model, counted, one_line

if TYPE_CHECKING:
    from mrsmith_tui.tools.approval import ApprovalGate, Permission

USAGE = "/permissions lists · /permissions revoke N, SPEC or all · /permissions mode MODE"
SPEC_SHOWN = 60  # a spec longer than this (a whole heredoc command) is listed cut, on one line


def short(spec: str, limit: int = SPEC_SHOWN) -> str:
    return one_line(spec, limit)


def _origin(origin: str) -> str:
    from mrsmith_tui.tools.approval import ORIGIN_TEXT  # when used: the app starts without the tools

    return ORIGIN_TEXT.get(origin, origin)


def permissions_text(perms: list[Permission]) -> str:
    if not perms:
        return ("No permissions: every call that needs approval asks. An \"always\" answer, --allow SPEC "
                "or the config's allow list adds one.")
    shown = [short(p.spec) for p in perms]
    width = max(len(s) for s in shown)
    lines = [f"Permissions: these run without asking · {USAGE}"]
    lines += [f"{i}. {s.ljust(width)}  from {_origin(p.origin)}"
              for i, (p, s) in enumerate(zip(perms, shown, strict=True), 1)]
    return "\n".join(lines)


def permissions_command(gate: ApprovalGate, arg: str) -> tuple[str, NoteKind]:
    """Carry out `/permissions [arg]` on the gate: (the text to show, "notice" or "warning")."""
    verb, _, rest = arg.strip().partition(" ")
    rest = rest.strip()
    perms = gate.permissions()
    if not verb:
        return permissions_text(perms), "notice"
    if verb == "mode":
        return set_mode(gate, rest)
    if verb != "revoke":
        return f"/permissions: unknown {verb!r} · {USAGE}", "warning"
    if not rest:
        return f"/permissions revoke: which one? {USAGE}", "warning"
    if rest == "all":
        all_gone = gate.revoke_all()
        if not all_gone:
            return "no permissions to revoke", "notice"
        return (f"revoked {counted(len(all_gone), 'permission')}: {', '.join(short(p.spec) for p in all_gone)} · such calls ask again",
                "notice")
    spec = rest
    if rest.isdecimal():  # not isdigit: "²" is a digit int() cannot read
        n = int(rest)
        if not 1 <= n <= len(perms):
            return f"/permissions revoke: no number {n} (there are {len(perms)}) · /permissions lists them", "warning"
        spec = perms[n - 1].spec
    gone = gate.revoke(spec)
    if gone is None:
        known = ", ".join(short(p.spec, 40) for p in perms) or "none"
        return f"/permissions revoke: no permission {short(spec, 40)!r} (in force: {known})", "warning"
    return f"revoked {short(gone.spec)} (from {_origin(gone.origin)}) · such calls ask again", "notice"


def mode_text(mode: str) -> str:
    from mrsmith_tui.tui.model import MODE_BADGE, MODE_WORDS

    cut = " (the permissions below are refused too)" if mode == "plan" else ""
    return (f"Permission mode: {MODE_BADGE.get(mode, mode)} · {MODE_WORDS.get(mode, '')}{cut} · "
            "Shift-Tab cycles ask → accept edits → plan")


def set_mode(gate: ApprovalGate, mode: str) -> tuple[str, NoteKind]:
    """`/permissions mode MODE`: auto only when the session started in it (--permission-mode auto, --yes)."""
    from mrsmith_tui.tools.permission_mode import MODES

    mode = mode.strip().lower()
    if not mode:
        return f"/permissions mode: which one? ({', '.join(MODES)})", "warning"
    if mode not in MODES:
        return f"/permissions mode: no mode {short(mode, 40)!r} (modes: {', '.join(MODES)})", "warning"
    if mode == "auto" and gate.mode.started != "auto":
        return "/permissions mode: auto only when mrsmith starts in it (--permission-mode auto or --yes)", "warning"
    gate.mode.set(mode)
    return mode_text(mode), "notice"


class PermissionsCommand(SlashCommand[str]):
    name = "/permissions"
    usage = "[revoke SPEC|N|all | mode MODE]"
    summary = "the permission mode, what runs without asking and where it came from"
    rank = 160

    def argument_choices(self, model: Model) -> tuple[str, ...]:
        return ("revoke", "mode")

    def run(self, ctx: CommandContext, args: str) -> None:
        gate = session_of(ctx).gate
        if not args.strip():
            ctx.note(mode_text(gate.mode.current), "notice")
        text, kind = permissions_command(gate, args)
        ctx.note(text, kind)


COMMANDS: tuple[SlashCommand[Any], ...] = (PermissionsCommand(),)
