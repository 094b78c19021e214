"""The usage family: /usage, the session's tokens, cache and cost (core/usage_report.py words it)."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.tui.commands.registry import CommandContext, NoArgCommand, SlashCommand, session_of


class UsageCommand(NoArgCommand):
    name = "/usage"
    summary = "tokens, cache hits, context and tool calls of this session"
    aliases = ("/cost",)
    rank = 40

    def run(self, ctx: CommandContext, args: None) -> None:
        from mrsmith_tui.core.usage_report import usage_report

        ctx.note(usage_report(session_of(ctx).ledger))


COMMANDS: tuple[SlashCommand[Any], ...] = (UsageCommand(),)
