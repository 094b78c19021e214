"""The registry: /help, completion and the palette read it; run_command turns any failure into one line."""

from __future__ import annotations

from typing import Any

import pytest

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import FAMILIES, REGISTRY, run_command
from mrsmith_tui.tui.commands.registry import CommandContext, CommandError, CommandRegistry, SlashCommand
from mrsmith_tui.tui.update import completions, initial_model, update
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.commands import AT_ONCE, help_text
from tests.tui.commands.fake_context import FakeContext

# /help as it read before the commands became objects (and /model since #22): the registry must say the same, in this order.
HELP_BEFORE = {
    "/help": "this list",
    "/exit": "quit",
    "/reset": "start a fresh conversation",
    "/usage": "tokens, cache hits, context and tool calls of this session",  # #23: it shows no cost
    "/agents": "[ID | stop ID]  the agents; focus the panel, open one, or stop one",
    "/agent": "<name> [--keep]  a new session on another agent (--keep: go on with this conversation)",
    "/model": "[name]  list the provider's models, or switch this agent's model",
    "/skills": "[name]  list skills, or load one",
    "/mcp": "[list | enable|disable|reconnect|disconnect NAME]  MCP servers: their tools and states; start or stop one",
    "/tools": "[reload]  every tool with its origin (built-in, MCP, user, project); reload: pick up new drop-in tools",  # #25
    "/tasks": "the task list",
    "/jobs": "background shell jobs (stopped when mrsmith exits unless detached)",
    "/reasoning": "[value|off]  reasoning effort",
    "/theme": "[name]  switch theme (no name: pick one); kept for the next start",  # #23: a picker
    "/copy": "copy the last answer",
    "/export": "[path]  the session as Markdown",
    "/compact": "summarise older turns to free context",
    "/init": "write AGENTS.md (build, test, layout notes) from what the repository holds; asks with the diff",
    "/undo": "[N]  put back the files the last turn (or N turns) changed with the file tools",
    "/sessions": "this folder's sessions: pick one to resume",
    "/permissions": "[revoke SPEC|N|all | mode MODE]  the permission mode, what runs without asking and where it came from",
}


def test_help_lists_every_command_as_before_then_the_keys():
    assert {c.name: c.help_line for c in REGISTRY} == HELP_BEFORE
    assert list(REGISTRY.names()) == list(HELP_BEFORE)
    text = help_text()
    assert text.startswith("Commands\n/help         this list\n/exit         quit  (also /quit)\n")
    assert "\n\nKeys\nEnter            send" in text
    model, _ = update(initial_model(), ui.Submit(text="/help", at=1))
    assert model.conv.blocks[-1].text == text


def test_every_family_gives_commands_and_every_command_has_help():
    assert len(FAMILIES) == len(set(FAMILIES))
    for command in REGISTRY:
        assert command.name.startswith("/") and command.summary
        assert command.usage == "" or command.usage[0] in "<["


def test_commands_answered_on_screen_are_the_ones_update_answers():
    on_screen = {c.name for c in REGISTRY if c.answered_on_screen}
    assert on_screen == {"/help", "/exit", "/tasks", "/copy"} and on_screen <= set(AT_ONCE)
    for command in REGISTRY:
        overrides_run = type(command).run is not SlashCommand.run
        assert overrides_run != command.answered_on_screen, command.name


def test_the_palette_offers_the_commands_that_need_no_argument():
    offered = [c.name for c in REGISTRY if not c.needs_argument]
    assert "/agent" not in offered and "/theme" in offered and "/help" in offered


def test_completion_reads_the_registry():
    model = initial_model(agents=("default", "fast"))
    assert completions(model, "/re") == ("/reset", "/reasoning")
    assert completions(model, "/agent f") == ("/agent fast",)
    assert completions(model, "/nosuch x") == ()


class Loud(SlashCommand[str]):
    name = "/loud"
    aliases = ("/l",)
    summary = "says it"
    usage = "[words]"
    rank = 1

    def run(self, ctx: CommandContext, args: str) -> None:
        if args == "fail":
            raise CommandError("it failed")
        if args == "crash":
            raise RuntimeError("boom")
        ctx.note(args.upper())


class Slow(SlashCommand[None]):
    name = "/slow"
    summary = "takes the run's place"
    rank = 2
    in_worker = True

    def parse(self, arg: str) -> None:
        return None

    def run(self, ctx: CommandContext, args: None) -> None:
        raise RuntimeError("no")


def test_an_alias_finds_its_command_and_names_are_unique():
    registry = CommandRegistry([Slow(), Loud()])
    assert registry.find("/l") is registry.find("/loud") and registry.names() == ("/loud", "/slow")
    with pytest.raises(ValueError, match="two commands"):
        CommandRegistry([Loud(), Loud()])


def test_run_command_runs_parses_and_turns_failures_into_one_line():
    registry = CommandRegistry([Loud(), Slow()])
    ctx = FakeContext(session=object())
    run_command(registry, ctx, "/l", "  hi  ")
    run_command(registry, ctx, "/loud", "fail")
    run_command(registry, ctx, "/loud", "crash")
    assert ctx.notes == [("HI", "notice"), ("/loud: it failed", "error"), ("/loud: boom", "error")]
    run_command(registry, ctx, "/slow", "")
    assert ctx.last_note == ("/slow: no", "error") and ctx.emitted_later == [(ui.WorkerDone, {})]


def test_without_a_session_a_command_that_needs_one_says_so_and_frees_the_run():
    ctx = FakeContext(session=None)
    run_command(REGISTRY, ctx, "/usage", "")
    assert ctx.notes == [("/usage: no session", "error")] and ctx.emitted_later == []
    run_command(REGISTRY, ctx, "/compact", "")
    assert ctx.last_note == ("/compact: no session", "error") and ctx.emitted_later == [(ui.WorkerDone, {})]
    run_command(REGISTRY, ctx, "/theme", "nord")  # needs no session
    assert ctx.theme == "nord"


def test_update_checks_a_command_before_the_shell_runs_it():
    running: Any = initial_model()
    running, _ = update(running, ui.Submit(text="hello", at=1))
    model, effects = update(running, ui.Submit(text="/sessions", at=2))
    assert effects == (fx.SaveHistory("/sessions"),) and "waits for the run" in model.conv.blocks[-1].text
    model, effects = update(initial_model(), ui.Submit(text="/compact", at=1))
    assert fx.Command("/compact", "") in effects and model.run.running
    model, effects = update(initial_model(agents=("fast",)), ui.Submit(text="/agent", at=1))
    assert model.conv.blocks[-1].text == "/agent needs a name: fast"
    model, effects = update(initial_model(themes=("nord",)), ui.Submit(text="/theme", at=1))
    assert fx.Command("/theme", "") in effects  # #23: /theme alone opens the picker, not a warning
