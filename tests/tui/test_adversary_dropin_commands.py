"""Adversary (#25): what a cloned repository's commands and a drop-in tool carry in their names and texts
never drives the terminal: a custom command's description and argument hint (raw ESC, C1, bidi in the file),
a drop-in tool's DESCRIPTION (escapes written in its literal), odd file names. Every frame of the palette,
/help, completion, /tools and the warnings is searched for controls Textual does not write itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.content import Content

from loopback import text_turn
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.command_files import load_commands
from mrsmith_tui.core.custom_commands import merged, parse_command
from mrsmith_tui.records import replace
from mrsmith_tui.security.terminal_text import clean, is_clean
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.shell.custom_loader import palette_commands
from mrsmith_tui.tui.update import initial_model
from mrsmith_tui.tui.update.custom import help_section
from tests.security.corpus import CONTROL_CHARS, ESCAPES
from tests.tui.pilot import until
from tests.tui.test_escapes import Frames

HOSTILE = "".join(ESCAPES.values()).replace("\r", "").replace("\n", "")

TOOL = '''NAME = "loud"
DESCRIPTION = {description!r}
PARAMETERS = {{"type": "object", "properties": {{}}}}


def run(args):
    return "ok"
'''


def _notes(app) -> str:
    return "\n".join(b.text for b in app.model.conv.blocks)


async def test_hostile_texts_of_commands_and_tools_never_reach_the_terminal(loopback, tmp_path, monkeypatch):
    work = tmp_path / "project"
    commands = work / ".mrsmith" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text(f"---\ndescription: Review {HOSTILE} code\nargument-hint: \"[p{HOSTILE}]\"\n---\n"
                                        "Review $ARGUMENTS\n")
    (commands / "bad\x1b]0;CMD-NAME\x07.md").write_text("x\n")
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "mrsmith" / "tools"
    user.mkdir(parents=True)
    (user / "loud.py").write_text(TOOL.format(description=f"Loud {HOSTILE} tool"))
    (user / "br\x1b]0;TOOL-FILE\x07oken.py").write_text("NAME = 1\n")
    monkeypatch.chdir(work)
    srv = loopback([text_turn("ok")])
    config = Config(providers=[ProviderConfig(name="loop", base_url=srv.base_url)],
                    agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=64000)],
                    sessions_dir=str(tmp_path / "sessions"))

    def make(sink, approver):
        return compose_session(config=config, cwd=work, sink=sink, approver=approver)

    app = MrSmithApp(make, config=config, history_path=None)
    toasts: list[str] = []
    notify = app.notify

    def keep(text, **kw):
        toasts.append(text)
        return notify(text, **kw)

    monkeypatch.setattr(app, "notify", keep)
    async with app.run_test(size=(160, 50)) as pilot:
        frames = Frames(app)
        await until(pilot, lambda: app.session is not None and app.model.custom.find("/review") is not None)
        await pilot.press(*"/rev")  # completion names it
        await until(pilot, lambda: "/review (project)" in str(app.query_one("#note").render()))
        await pilot.press("ctrl+a", "ctrl+k")
        await pilot.press(*"/help", "enter")
        await until(pilot, lambda: "Custom commands" in _notes(app))
        await pilot.press(*"/tools", "enter")
        await until(pilot, lambda: "Tools · " in _notes(app) and "loud" in _notes(app))
        await pilot.press("ctrl+p")
        await pilot.press(*"review")
        await until(pilot, lambda: any("Review" in f and "code" in f for f in frames.text[-3:]))
        await pilot.press("escape")
        await pilot.pause()
        assert frames.foreign_controls() == set()
    assert toasts and all("\x1b" not in t for t in toasts)


# ------------------------------------------------------------------ a wide table, without a terminal

_CHARS = [c for c in sorted(CONTROL_CHARS) if len(f"a{c}b".splitlines()) == 1] + ["\u200b", "\u200d", "\u2060", "\ufeff"]
_MARKUP = ["[a='", '[a="', "[f=\u202e", "[b]x[/b]", "[/]", "x [@click=app.quit]y[/]", "\\[a='", "[$x]",
           "[link='http://e.example']z", "a\\", "[on red", "[#ff0000]", "[reverse]", "[@click=", "]["]
ROWS = ([("description", f"Review {c} code", c) for c in _CHARS]
        + [("argument-hint", f'"[p{c}]"', c) for c in _CHARS]
        + [(field, f'"{m}"', "") for m in _MARKUP for field in ("description", "argument-hint")]
        + [(field, f'"{name} {seq}"', seq) for name, seq in ESCAPES.items() if "\r" not in seq
           for field in ("description", "argument-hint")])


def test_the_table_is_wide():
    assert len(ROWS) >= 200


@pytest.mark.parametrize(("field", "value", "hostile"), ROWS)
def test_a_command_file_text_is_shown_clean_and_never_as_markup(field, value, hostile):
    """The palette got a file's text as Textual markup: `[a='` raised MarkupError and ended the app; a
    raw ESC or bidi in a description reached /help and the palette as it was."""
    found = merged([], [parse_command(f"---\n{field}: {value}\n---\nbody\n", name="/x", origin="project",
                                      path=".mrsmith/commands/x.md")], frozenset(), [], [])
    model = replace(initial_model(agent="default", model="m"), custom=found)
    (command,) = palette_commands(model, lambda name: None)
    shown = Content.from_markup(command.help)  # what the palette does with it: it must not raise
    assert is_clean(shown.plain) and is_clean(help_section(model))
    assert not {c for c in shown.plain + help_section(model) if c in CONTROL_CHARS - {"\n"}}
    if not hostile:  # a markup-looking text is shown as written
        assert clean(value.strip("\"")) in shown.plain


@pytest.mark.parametrize("char", [c for c in _CHARS if c != "\x00"])
def test_an_odd_file_name_is_a_clean_warning(tmp_path, char):
    folder = tmp_path / ".mrsmith" / "commands"
    folder.mkdir(parents=True)
    (folder / f"bad{char}name.md").write_text("x\n")
    found = load_commands(tmp_path, builtin=(), user_dir=tmp_path / "none")
    assert found.warnings and all(is_clean(w) for w in found.warnings)
