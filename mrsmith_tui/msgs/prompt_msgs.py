"""What a typed prompt's own syntax did (core.prompt_run): the `@path` mentions it attached or
refused, and the `!command` it ran (msgs re-exports them)."""

from __future__ import annotations

from typing import Literal

from mrsmith_tui.msgs.msg_base import Msg


class MentionsRead(Msg):
    """The `@path` mentions of the prompt about to be sent: what was attached, what was not and why."""

    type: Literal["MentionsRead"] = "MentionsRead"
    attached: tuple[str, ...] = ()  # "src/a.py (12 lines, 340 bytes)", "docs/ (listing, 4 entries)"
    refused: tuple[str, ...] = ()  # "@../x: is outside the working directory …"


class CommandRan(Msg):
    """A `!command` the person typed has ended: its output as the next prompt's context holds it
    (bounded, redacted). Its tool block came before it (ToolCallStarted / ToolCallFinished)."""

    type: Literal["CommandRan"] = "CommandRan"
    command: str
    output: str
    exit_code: int | None = None
    cancelled: bool = False
