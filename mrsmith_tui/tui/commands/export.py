"""The export family: /copy (the last answer, to the clipboard) and /export (the session as Markdown)."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.tui.commands.registry import CommandContext, CommandError, SlashCommand, session_of


class CopyCommand(SlashCommand[str]):
    name = "/copy"
    summary = "copy the last answer"
    rank = 120
    needs_session = False
    answered_on_screen = True  # the last answer's source, from the model (update/commands.py)


class ExportCommand(SlashCommand[str | None]):
    """From the transcript when the session keeps one, else the screen's text. An existing file is kept."""

    name = "/export"
    usage = "[path]"
    summary = "the session as Markdown"
    rank = 130

    def parse(self, arg: str) -> str | None:
        arg = arg.strip()
        if len(arg) >= 2 and arg[0] == arg[-1] and arg[0] in "\"'":
            arg = arg[1:-1]  # a quoted path; one with spaces works unquoted too
            if not arg.strip():
                raise CommandError("the file name is empty: give one, or none for ./mrsmith-<id>.md")
        return arg or None

    def run(self, ctx: CommandContext, args: str | None) -> None:
        from mrsmith_tui.session.export import export_session, export_target, write_export

        session = session_of(ctx)
        if session.transcript_path is not None:
            written = export_session(session.transcript_path, args)
        else:
            from mrsmith_tui.tui.view.blocks import review_text

            written = export_target(args, session.session_id)
            write_export(written, review_text(ctx.model.conv.blocks))
        ctx.note(f"exported to {written}")


COMMANDS: tuple[SlashCommand[Any], ...] = (CopyCommand(), ExportCommand())
