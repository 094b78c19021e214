"""The theme family: /theme NAME switches the colours (themes.py loads them)."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.tui.commands.registry import CommandContext, CommandError, SlashCommand
from mrsmith_tui.tui.model import Model


class ThemeCommand(SlashCommand[str]):
    name = "/theme"
    usage = "[name]"
    summary = "switch theme (no name: pick one); kept for the next start"
    rank = 110
    needs_session = False

    def argument_choices(self, model: Model) -> tuple[str, ...]:
        return model.themes_known

    def run(self, ctx: CommandContext, args: str) -> None:
        if not args:
            from mrsmith_tui.tui.screens.theme_picker import ThemePicker

            def chosen(name: str | None) -> None:
                if name:
                    ctx.set_theme(name)
                    ctx.note(f"theme {name}")

            ctx.ask(ThemePicker(sorted(ctx.themes), ctx.theme), chosen)
            return
        if args not in ctx.themes:
            skipped = next((w for w in ctx.model.startup_warnings if f"/{args}.toml: " in w), None)
            why = f" ({skipped})" if skipped else ""
            raise CommandError(f"no theme {args!r}{why}; themes: {', '.join(sorted(ctx.themes))}")
        ctx.set_theme(args)
        ctx.note(f"theme {args}")


COMMANDS: tuple[SlashCommand[Any], ...] = (ThemeCommand(),)
