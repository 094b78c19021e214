"""The export family: /copy (the last answer, to the clipboard) and /export (the session as Markdown)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.tui.commands.registry import CommandContext, SlashCommand, session_of


class CopyCommand(SlashCommand[str]):
    name = "/copy"
    summary = "copy the last answer"
    rank = 120
    needs_session = False
    answered_on_screen = True  # the last answer's source, from the model (update/commands.py)


class ExportCommand(SlashCommand[Path | None]):
    """From the transcript when the session keeps one, else the screen's text."""

    name = "/export"
    usage = "[path]"
    summary = "the session as Markdown"
    rank = 130

    def parse(self, arg: str) -> Path | None:
        arg = arg.strip()
        return Path(arg).expanduser() if arg else None

    def run(self, ctx: CommandContext, args: Path | None) -> None:
        session = session_of(ctx)
        target = args or Path.cwd() / f"mrsmith-{session.session_id[:8]}.md"
        transcript = session.transcript_path
        if transcript is not None:
            from mrsmith_tui.session.export import export_session

            written = export_session(transcript, target)
        else:
            from mrsmith_tui.tui.view.blocks import review_text

            written = target
            # A fresh name of our own (mkstemp: O_EXCL, 0600), not a guessable .tmp a link could sit at.
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(PROCESS.redact(review_text(ctx.model.conv.blocks)))
                os.replace(tmp, target)
            except OSError:
                os.unlink(tmp)
                raise
        ctx.note(f"exported to {written}")


COMMANDS: tuple[SlashCommand[Any], ...] = (CopyCommand(), ExportCommand())
