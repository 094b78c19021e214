"""Ringing for the person: the bell, and a desktop notification where the terminal takes one.

update/attention.py says when mrsmith wants the person back (a run ended, a request waits); here it is
decided whether to ring and how:
- not at all with `notify = false`, for a run shorter than `notifyAfterSeconds` (default 10), or while
  the terminal has the focus. The focus is known from focus reporting (the terminal sends focus-in and
  focus-out; Textual turns it on): until the terminal has said anything, mrsmith does not know, and rings;
- the bell always (BEL), and by the terminal (its environment): OSC 9 for iTerm2, OSC 777 for WezTerm,
  Ghostty, foot and urxvt, OSC 99 for kitty; the bell alone elsewhere (tmux and screen included, which
  turn the bell into their own alert).
The words are mrsmith's, with names from a model or a server in them: every control character, the
characters that end or split an OSC (ESC, BEL, ST, `;` in OSC 777's fields) and bidi controls are taken
out, and the text is cut to NOTE_CHARS.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from mrsmith_tui.tui.update.attention import Call, attention_for

if TYPE_CHECKING:
    from mrsmith_tui import msgs as m
    from mrsmith_tui.config.schema import Config
    from mrsmith_tui.tui.model import Model

__all__ = ["NOTE_CHARS", "Attention", "notification_bytes", "safe_text", "terminal_kind"]

Kind = Literal["osc9", "osc777", "osc99", "bell"]
NOTE_CHARS = 160
TITLE = "mrsmith"
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]+")


def terminal_kind(env: Mapping[str, str]) -> Kind:
    """Which desktop notification this terminal takes, from its environment."""
    term, program = env.get("TERM", ""), env.get("TERM_PROGRAM", "")
    if env.get("TMUX") or term.startswith(("screen", "tmux")) or program == "tmux":
        return "bell"  # a multiplexer eats OSCs it does not know; its own bell alert reaches the person
    if program == "iTerm.app":
        return "osc9"
    if term == "xterm-kitty" or env.get("KITTY_WINDOW_ID"):
        return "osc99"
    if program in ("WezTerm", "ghostty") or term in ("xterm-ghostty",) or term.startswith(("foot", "rxvt")):
        return "osc777"
    return "bell"


def safe_text(text: str, *, semicolons: bool = True) -> str:
    """One line of plain text that cannot end, split or extend an OSC sequence."""
    line = " ".join(_UNSAFE.sub(" ", text).split())
    if not semicolons:
        line = line.replace(";", ",")
    return line if len(line) <= NOTE_CHARS else line[: NOTE_CHARS - 1] + "…"


def notification_bytes(kind: Kind, text: str) -> str:
    """What is written to the terminal: the bell, then the terminal's own notification (if any)."""
    body = safe_text(text)
    if kind == "osc9":  # iTerm2; "mrsmith: " first, so it never reads as ConEmu's `9;4;…` progress codes
        return f"\a\x1b]9;{TITLE}: {body}\x1b\\"
    if kind == "osc777":  # notify;title;body: no `;` inside the fields
        return f"\a\x1b]777;notify;{TITLE};{safe_text(text, semicolons=False)}\x1b\\"
    if kind == "osc99":  # kitty: the title, then the body of the same notification (i=), d=0 until the last
        return f"\a\x1b]99;i=mrsmith:d=0;{TITLE}\x1b\\\x1b]99;i=mrsmith:p=body;{body}\x1b\\"
    return "\a"


class Attention:
    """One per app: the focus the terminal reported, the config's wishes, and the terminal's kind."""

    def __init__(self, app: Any, config: Config, env: Mapping[str, str] = os.environ) -> None:
        self._app = app
        self.enabled = config.notify
        self.after = config.notify_after_seconds
        self.kind = terminal_kind(env)
        self.focused: bool | None = None  # None: the terminal has not reported its focus (yet)

    def focus(self, focused: bool) -> None:
        self.focused = focused

    def saw(self, before: Model, msg: m.Msg) -> bool:
        """Every Msg, before `update` folds it into `before`: ring when it calls the person back."""
        if not self.enabled:
            return False
        call = attention_for(before, msg)
        return call is not None and self.ring(call)

    def ring(self, call: Call) -> bool:
        """Ring for `call` unless it is not wanted; True when something was written."""
        if not self.enabled or self.focused is True:
            return False
        if call.kind == "ended" and call.took < self.after:
            return False
        driver = getattr(self._app, "_driver", None)
        if driver is None:
            return False
        try:
            driver.write(notification_bytes(self.kind, call.text))
        except (OSError, ValueError):  # a closed terminal: nobody to call back
            return False
        return True
