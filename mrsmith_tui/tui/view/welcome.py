"""The welcome an empty conversation shows: what answers (agent, model, endpoint), where it works, the
keys that matter, and this folder's last session with the key that resumes it. Glyphs and words
carry the meaning (NO_COLOR reads the same)."""

from __future__ import annotations

from textual.content import Content

from mrsmith_tui.tui.model import StatusLedger, Welcome, one_line

KEYS = (
    ("Enter", "send"), ("Ctrl-J", "new line"), ("F1", "help"), ("/", "commands"), ("Esc", "cancel a run"),
    ("Ctrl-O", "review"), ("Ctrl-B", "sidebar"), ("Ctrl-D", "quit"),
)
MUTED = "$text-muted"
# What the welcome promises under each permission mode (tools/permission_mode.py): "asks first" in AUTO
# would be a false promise, and the one a person is most likely to trust.
MODE_PROMISE = {
    "ask": "it works only here, and asks first",
    "accept-edits": "it works only here: edits files without asking, asks before anything else",
    "plan": "it works only here and only reads: it plans, and changes nothing",
    "auto": "it works only here and does NOT ask (AUTO mode: Shift-Tab changes it)",
}


def _row(label: str, value: str, width: int, style: str = "") -> Content:
    return Content.assemble((f"  {label:<9}", MUTED), (one_line(value, max(8, width - 11)), style))


def welcome_content(w: Welcome, led: StatusLedger, width: int) -> Content:
    lines = [Content.assemble(("◆ mrsmith", "bold $accent"), (f" {w.version}" if w.version else "", MUTED),
                              (" · a coding agent in your terminal", MUTED))]
    if led.agent or led.model:
        lines.append(_row("agent", f"{led.agent} · {led.model}" if led.agent else led.model, width, "bold"))
    if w.endpoint:
        lines.append(_row("endpoint", w.endpoint, width))
    if w.folder:
        lines.append(_row("folder", w.folder, width, "bold"))
        lines.append(_row("", MODE_PROMISE.get(led.mode, MODE_PROMISE["ask"]), width, MUTED))
    lines.append(Content(""))
    lines.append(Content.styled("  Type a request and press Enter.", "bold"))
    lines.append(Content.assemble(("  Approvals: ", MUTED), ("y", "bold $accent"), (" yes · ", MUTED),
                                  ("n", "bold $accent"), (" no · ", MUTED), ("a", "bold $accent"),
                                  (" twice: always · ", MUTED), ("Esc", "bold $accent"), (" no", MUTED)))
    keys: list[tuple[str, str]] = [("  ", "")]
    used = 2
    for i, (key, what) in enumerate(KEYS):
        piece = f"{key} {what}"
        if used + len(piece) + 3 > width and used > 2:
            keys.append(("\n  ", ""))
            used = 2
        elif i:
            keys.append((" · ", MUTED))
            used += 3
        keys += [(key, "bold $accent"), (f" {what}", MUTED)]
        used += len(piece)
    lines.append(Content.assemble(*keys))
    if w.warnings:
        lines.append(Content(""))
        lines.append(Content.assemble(("  ⚠ ", "bold $warning"),
                                      (f"{w.warnings} start-up warning{'s' if w.warnings != 1 else ''} · ", MUTED),
                                      ("/help", "bold $accent"), (" lists them", MUTED)))
    if w.last_id:
        lines.append(Content(""))
        turns = f"{w.last_turns} turn{'s' if w.last_turns != 1 else ''}"
        lines.append(Content.styled(f"  last session here: {w.last_when} · {turns}", MUTED))
        if w.last_prompt:
            lines.append(Content.styled(f"  “{one_line(w.last_prompt, max(8, width - 6))}”", "italic"))
        if w.can_resume:
            lines.append(Content.assemble(("  ", ""), ("Ctrl-T", "bold $accent"), (" resumes it · ", MUTED),
                                          ("/sessions", "bold $accent"), (" lists them all", MUTED)))
    return Content("\n").join(lines)
