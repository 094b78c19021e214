"""The jobs family: /jobs, the background shell jobs (tools/jobs.py) and how each is doing."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.tui.commands.registry import CommandContext, NoArgCommand, SlashCommand


class JobsCommand(NoArgCommand):
    name = "/jobs"
    summary = "background shell jobs (stopped when mrsmith exits unless detached)"
    rank = 90

    def run(self, ctx: CommandContext, args: None) -> None:
        from mrsmith_tui.tools.jobs import JOBS

        jobs = JOBS.list()
        if not jobs:
            ctx.note("no background jobs (a shell call with background: true starts one)")
            return
        lines = ["Background jobs · stopped when mrsmith exits unless detached"] + [j.describe() for j in jobs]
        ctx.note("\n".join(lines))


COMMANDS: tuple[SlashCommand[Any], ...] = (JobsCommand(),)
