"""`/permissions`: what runs without asking in this session and where each came from; revoke one
or all. And the small question `/reset` asks when "always" answers are remembered.

The permissions live in the session's ApprovalGate (tools.approval); this module only reads,
words and revokes them for the shell.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tools.approval import ORIGIN_TEXT, Permission

USAGE = "/permissions lists · /permissions revoke N, SPEC or all"
SPEC_SHOWN = 60  # a spec longer than this (a whole heredoc command) is listed cut, on one line


def short(spec: str, limit: int = SPEC_SHOWN) -> str:
    line = " ".join(spec.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def permissions_text(perms: list[Permission]) -> str:
    if not perms:
        return ("No permissions: every call that needs approval asks. An \"always\" answer, --allow SPEC "
                "or the config's allow list adds one.")
    shown = [short(p.spec) for p in perms]
    width = max(len(s) for s in shown)
    lines = [f"Permissions: these run without asking · {USAGE}"]
    lines += [f"{i}. {s.ljust(width)}  from {ORIGIN_TEXT.get(p.origin, p.origin)}"
              for i, (p, s) in enumerate(zip(perms, shown), 1)]
    return "\n".join(lines)


def permissions_command(gate: Any, arg: str) -> tuple[str, str]:
    """Carry out `/permissions [arg]` on the gate: (the text to show, "notice" or "warning")."""
    verb, _, rest = arg.strip().partition(" ")
    rest = rest.strip()
    perms = gate.permissions()
    if not verb:
        return permissions_text(perms), "notice"
    if verb != "revoke":
        return f"/permissions: unknown {verb!r} · {USAGE}", "warning"
    if not rest:
        return f"/permissions revoke: which one? {USAGE}", "warning"
    if rest == "all":
        gone = gate.revoke_all()
        if not gone:
            return "no permissions to revoke", "notice"
        return f"revoked {_count(len(gone))}: {', '.join(short(p.spec) for p in gone)} · such calls ask again", "notice"
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
    return f"revoked {short(gone.spec)} (from {ORIGIN_TEXT.get(gone.origin, gone.origin)}) · such calls ask again", "notice"


def _count(n: int) -> str:
    return f"{n} permission{'s' if n != 1 else ''}"


class KeepPermissionsModal(ModalScreen[bool | None]):
    """`/reset` with "always" answers remembered: keep them (y), forget them (n), or Esc: no reset."""

    DEFAULT_CSS = """
    KeepPermissionsModal { align: center middle; background: $background 60%; }
    KeepPermissionsModal > Vertical {
        width: 90%; max-width: 80; height: auto; max-height: 90%; padding: 1 2;
        border: round $warning; background: $surface;
    }
    KeepPermissionsModal Static { height: auto; }
    KeepPermissionsModal .keys { margin: 1 0 0 0; }
    """

    KEYS = {"y": True, "n": False}

    def __init__(self, specs: list[str]) -> None:
        super().__init__()
        self.specs = specs

    def compose(self) -> ComposeResult:
        shown = ", ".join(short(s, 40) for s in self.specs[:6]) \
            + (f" and {len(self.specs) - 6} more" if len(self.specs) > 6 else "")
        with Vertical():
            yield Static(Content.assemble(("◆ ", "$warning"),
                                          (f"Keep the {_count(len(self.specs))} from \"always\" answers?", "bold")))
            yield Static(Content.styled(clean(PROCESS.redact(shown)), "$text-muted"))  # specs quote the model's commands
            yield Static(Content.assemble(("y", "bold $accent"), (" keep   ", "$text-muted"), ("n", "bold $accent"),
                                          (" forget (they ask again)   ", "$text-muted"), ("esc", "bold $accent"),
                                          (" no reset", "$text-muted")), classes="keys")

    def on_key(self, event: events.Key) -> None:
        if event.key in self.KEYS:
            event.stop()
            self.dismiss(self.KEYS[event.key])
        elif event.key == "escape":
            event.stop()
            event.prevent_default()
            self.dismiss(None)
