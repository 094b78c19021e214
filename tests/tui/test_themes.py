"""Themes: bundled files load and render; bad files are skipped with one named warning; user files win."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button, DataTable, Footer, Input, Markdown, Static

from mrsmith_tui import paths
from mrsmith_tui.tui.themes import DEFAULT_THEME, NO_COLOR_THEME, load_themes, load_themes_with_warnings

BUNDLED = sorted(p.stem for p in paths.BUNDLED_THEMES_DIR.glob("*.toml"))


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def test_bundled_themes_load_without_warnings(tmp_path):
    themes, warnings = load_themes_with_warnings(tmp_path / "none")
    names = [t.name for t in themes]
    assert warnings == []
    assert 4 <= len(names) <= 6 and sorted(names) == BUNDLED  # file stem == theme name
    assert DEFAULT_THEME in names and NO_COLOR_THEME in names
    assert any(not t.dark for t in themes)  # at least one light theme
    for theme in themes:  # loading does not try them (start-up time): each builds its palette
        assert theme.to_color_system().generate()


def test_each_bundled_theme_passes_the_check_a_persons_own_gets(tmp_path):
    """At start the bundled files are made into themes as they are (no pydantic): the check a person's
    own file gets finds nothing wrong with them, and makes the same themes."""
    checked, warnings = load_themes_with_warnings(tmp_path / "none", bundled_dir=paths.BUNDLED_THEMES_DIR)
    assert warnings == []
    assert checked == load_themes(tmp_path / "none")


def test_loading_the_bundled_themes_imports_no_pydantic(tmp_path):
    code = ("import sys\nfrom pathlib import Path\nfrom mrsmith_tui.tui.themes import load_themes\n"
            f"assert len(load_themes(Path({str(tmp_path / 'none')!r}))) >= 4\n"
            "print('pydantic' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_no_color_theme_is_monochrome():
    theme = next(t for t in load_themes() if t.name == NO_COLOR_THEME)
    colours = {getattr(theme, f) for f in ("primary", "secondary", "accent", "warning", "error", "success",
                                             "foreground", "background")}
    assert theme.ansi and colours == {"ansi_default"}


@pytest.mark.parametrize(
    "text, message",
    [
        ('name = "x"\nprimary = "blurple"\n', "primary: 'blurple' is not a colour"),
        ('name = "x"\n', "primary: missing"),
        ('name = "x"\nprimary = "#fff"\nbackgrund = "#000"\n', "backgrund: not a theme field"),
        ('name = "Bad Name"\nprimary = "#fff"\n', "name: 'Bad Name' is not a theme name"),
        ('name = "x"\nprimary = "#fff"\ndark = "yes"\n', "dark: Input should be a valid boolean"),
        ('name = "x"\nprimary = "#fff"\n[variables]\n"Foo Bar" = "red"\n', "variables: 'Foo Bar' is not a variable name"),
        ('name = "x\nprimary = 1\n', "TOML syntax error"),
    ],
)
def test_a_bad_file_is_skipped_with_one_line_naming_file_and_field(tmp_path, text, message):
    user = tmp_path / "themes"
    write(user, "broken.toml", text)
    write(user, "fine.toml", 'name = "fine"\nprimary = "#336699"\n')
    themes, warnings = load_themes_with_warnings(user)
    assert len(warnings) == 1
    line = warnings[0]
    assert "broken.toml" in line and message in line and line.endswith("(skipped)") and "\n" not in line
    names = [t.name for t in themes]
    assert "fine" in names and "x" not in names


def test_user_theme_replaces_a_bundled_one_of_the_same_name(tmp_path):
    user = tmp_path / "themes"
    write(user, "mine.toml", f'name = "{DEFAULT_THEME}"\nprimary = "#123456"\n')
    themes = load_themes(user)
    mine = [t for t in themes if t.name == DEFAULT_THEME]
    assert len(mine) == 1 and mine[0].primary == "#123456"


def test_default_user_dir_is_under_the_config_folder(tmp_path):
    # conftest points XDG_CONFIG_HOME into a fresh HOME
    write(paths.config_dir() / "themes", "sea.toml", 'name = "sea"\nprimary = "#2266aa"\ndark = false\n')
    assert "sea" in [t.name for t in load_themes()]


class ThemeProbe(App):
    """The widgets the main screen uses, enough to make every theme's variables resolve."""

    def compose(self) -> ComposeResult:
        yield Static("status", id="status")
        yield Markdown("# Title\n\n- item\n\n```python\nprint('hi')\n```\n")
        table = DataTable()
        table.add_columns("id", "state")
        table.add_row("a1", "running")
        yield table
        yield Button("Approve")
        yield Input(placeholder="prompt")
        yield Footer()


async def test_every_theme_renders_and_switching_to_built_ins_works():
    app = ThemeProbe()
    async with app.run_test(size=(80, 24)) as pilot:
        for theme in load_themes():
            app.register_theme(theme)
        for name in [*BUNDLED, "textual-dark", "textual-light", DEFAULT_THEME]:
            app.theme = name
            await pilot.pause(0.01)
            assert app.current_theme.name == name
            assert app.screen.styles.background is not None
        assert app.screen.query_one("#status").region.width == 80


def test_no_color_keeps_a_theme_that_greys_readably():
    from mrsmith_tui.tui.themes import pick_theme

    available = {DEFAULT_THEME, NO_COLOR_THEME, "dusk"}
    # Textual's Monochrome filter turns the no-color theme's ansi_default into black on black.
    assert pick_theme(None, no_color=True, available=available) == (DEFAULT_THEME, "")
    assert pick_theme(NO_COLOR_THEME, no_color=True, available=available) == (DEFAULT_THEME, "")
    assert pick_theme(NO_COLOR_THEME, no_color=False, available=available) == (NO_COLOR_THEME, "")
    assert pick_theme("dusk", no_color=True, available=available) == ("dusk", "")
    name, warning = pick_theme("nope", no_color=False, available=available)
    assert name is None and "'nope' not found" in warning and "dusk" in warning


def test_markdown_styles_follow_the_theme_and_skip_ansi_values():
    from mrsmith_tui.tui.themes import markdown_styles

    styles = markdown_styles({"primary": "#5FB3B3", "accent": "#DFA458", "surface": "#1C1F25", "secondary": "ansi_default"})
    assert styles["markdown.h2"] == "bold #5FB3B3" and styles["markdown.item.bullet"] == "#DFA458"
    assert styles["markdown.code"] == "#DFA458 on #1C1F25"  # text-accent falls back to accent
    assert styles["markdown.hr"] == "none"  # an ANSI value is the terminal's own colour: left to Rich
    from rich.style import Style

    for value in styles.values():
        Style.parse(value)  # every one is a style Rich accepts


async def test_an_unknown_theme_starts_the_app_in_textuals_default_with_a_warning():
    """The app's __init__ leaves the stylesheet's variables to choose_theme (start-up, #26): with no theme
    chosen they are Textual's default theme's, and the screen draws."""
    from mrsmith_tui.tui.app import MrSmithApp
    from tests.tui.fakes import CONFIG, factory
    from tests.tui.pilot import until

    app = MrSmithApp(factory(), config=CONFIG, theme="nope", history_path=None, welcome=False)
    assert app.stylesheet._variables == app.get_css_variables() != {}
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any("'nope' not found" in w for w in app.model.startup_warnings))  # a toast
        assert app.theme == "textual-dark" and app.screen.styles.background is not None
