"""/init: the model writes AGENTS.md from the repository's facts (core/init_prompt.py), asking with its diff;
/undo: put back what the last turns changed through the file tools (tools/undo.py), after a yes."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands.registry import CommandContext, CommandError, NoArgCommand, SlashCommand, session_of


def undo_steps(arg: str, limit: int) -> int:
    """`/undo` is one turn; `/undo N` is N (1..limit)."""
    arg = arg.strip()
    if not arg:
        return 1
    if not arg.isdigit() or not 1 <= int(arg) <= limit:
        raise CommandError(f"N is a number of turns from 1 to {limit}, not {arg[:20]!r}")
    return int(arg)


class UndoCommand(SlashCommand[int]):
    name = "/undo"
    usage = "[N]"
    summary = "put back the files the last turn (or N turns) changed with the file tools"
    rank = 145
    waits_for_run = True

    def parse(self, arg: str) -> int:
        from mrsmith_tui.tools.checkpoints import MAX_TURNS

        return undo_steps(arg, MAX_TURNS)

    def run(self, ctx: CommandContext, args: int) -> None:
        from mrsmith_tui.tools.undo import SHELL_NOTE, plan_lines, recorded_turns

        session = session_of(ctx)
        turns = recorded_turns(session.transcript_path, args)
        if not turns:
            ctx.note(f"nothing to undo: no turn of this session changed files through the file tools ({SHELL_NOTE})")
            return
        fewer = f" (only {len(turns)} recorded)" if len(turns) < args else ""
        title = f"Undo the last {'turn' if len(turns) == 1 else f'{len(turns)} turns'}{fewer}? These files change:"
        steps = len(turns)

        def answered(yes: bool | None) -> None:
            if yes:
                ctx.run_in_worker(lambda token: _undo(session, steps, token))
            else:
                ctx.note("/undo: nothing changed")

        from mrsmith_tui.tui.screens.confirm import ConfirmModal

        ctx.ask(ConfirmModal(title, plan_lines(turns, session.cwd), "undo", note=SHELL_NOTE), answered)


def _undo(session: Any, steps: int, token: CancelToken) -> str:
    from mrsmith_tui.tools.undo import undo

    outcome = undo(session.cwd, session.transcript_path, steps)
    if outcome.restored and hasattr(session, "add_context"):  # the model is told: its picture of the files is old
        session.add_context("The person undid the file changes of the last "
                            f"{'turn' if steps == 1 else f'{steps} turns'} (/undo):\n" + "\n".join(outcome.lines)
                            + "\nRead a file again before you change it.")
    return "\n".join(outcome.lines)


class InitCommand(NoArgCommand):
    name = "/init"
    summary = "write AGENTS.md (build, test, layout notes) from what the repository holds; asks with the diff"
    rank = 142
    waits_for_run = True

    def run(self, ctx: CommandContext, args: None) -> None:
        from mrsmith_tui.core.init_prompt import init_prompt

        session = session_of(ctx)
        ctx.emit(ui.SendPrompt, text=init_prompt(session.cwd))  # a few small reads, each capped


COMMANDS: tuple[SlashCommand[Any], ...] = (InitCommand(), UndoCommand())
