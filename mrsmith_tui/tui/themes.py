"""Themes: TOML files of Textual `Theme` fields, bundled and the person's own.

    themes, warnings = load_themes_with_warnings()   # bundled themes/*.toml, then ~/.config/mrsmith/themes/
    for theme in themes: app.register_theme(theme)
    app.theme = DEFAULT_THEME

A file is one theme; its fields are exactly Textual's `Theme` fields (`name`, `primary`,
`secondary`, `accent`, `foreground`, `background`, `surface`, `panel`, `boost`,
`warning`, `error`, `success`, `dark`, `luminosity_spread`, `text_alpha`, `ansi`,
`[variables]`). A file that does not parse or validate is skipped with one warning line
naming the file and the field. A later theme with the same name replaces an earlier one,
so a person's own file can override a bundled theme.

The bundled themes set only Textual's own `$variables` (which have defaults in every
theme), never custom ones: TCSS that used a custom variable would crash when the person
switches to a built-in Textual theme (TEXTUAL-NOTES.md).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.theme import Theme

from mrsmith_tui import paths

DEFAULT_THEME = "mrsmith"
NO_COLOR_THEME = "no-color"  # the terminal's own colours, for terminals that want them

def user_themes_dir() -> Path:
    return paths.config_dir() / "themes"


def load_themes(user_dir: Path | None = None) -> list[Theme]:
    """Bundled themes, then the person's own (later wins); bad files are skipped."""
    return load_themes_with_warnings(user_dir)[0]


def load_themes_with_warnings(user_dir: Path | None = None, *,
                              bundled_dir: Path | None = None) -> tuple[list[Theme], list[str]]:
    """(themes in load order, one warning line per skipped file)."""
    # The bundled themes are known to be good (tests/tui/test_themes.py checks each): checking them again
    # at every start cost ~5 ms and pydantic's import before the first frame (#26). A person's own
    # theme is checked field by field, and its palette tried, before it is offered.
    folders = [(bundled_dir or paths.BUNDLED_THEMES_DIR, bundled_dir is None), (user_dir or user_themes_dir(), False)]
    by_name: dict[str, Theme] = {}
    warnings: list[str] = []
    for folder, trusted in folders:
        for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
            theme, problem = read_theme(path, trusted=trusted)
            if problem:
                warnings.append(problem)
            elif theme is not None:
                by_name.pop(theme.name, None)  # a replacement moves to the end, like a fresh load
                by_name[theme.name] = theme
    return list(by_name.values()), warnings


def read_theme(path: Path, *, trusted: bool = False) -> tuple[Theme | None, str | None]:
    """(theme, None) or (None, "theme <path>: <field>: <what is wrong> (skipped)"). `trusted`: a bundled
    file, made into a theme as it is."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        return None, f"theme {_label(path)}: cannot read: {getattr(e, 'strerror', None) or e} (skipped)"
    except tomllib.TOMLDecodeError as e:
        return None, f"theme {_label(path)}: TOML syntax error: {e} (skipped)"
    if trusted:
        return Theme(**data), None
    from mrsmith_tui.tui.theme_schema import check

    theme, problem = check(data)
    if theme is None:
        return None, f"theme {_label(path)}: {problem} (skipped)"
    try:
        theme.to_color_system().generate()
    except Exception as e:  # a colour combination Textual cannot derive a palette from
        return None, f"theme {_label(path)}: Textual cannot build a palette from it: {e} (skipped)"
    return theme, None


def _label(path: Path) -> str:
    try:
        return "~/" + str(path.resolve().relative_to(Path.home().resolve()))
    except ValueError:
        return str(path)


def pick_theme(wanted: str | None, *, no_color: bool, available: set[str] | frozenset[str]) -> tuple[str | None, str]:
    """(theme to set or None, warning or "").

    Under NO_COLOR Textual greys every frame through its Monochrome filter, which maps the
    `no-color` theme's `ansi_default` to black on black (seen in tmux). The default theme
    greys into readable levels, so NO_COLOR keeps it even when `no-color` was asked for.
    """
    name = wanted or DEFAULT_THEME
    if no_color and name == NO_COLOR_THEME:
        name = DEFAULT_THEME
    if name in available:
        return name, ""
    if wanted:
        return None, f"theme {wanted!r} not found; themes: {', '.join(sorted(available))}"
    return None, ""


def markdown_styles(variables: dict[str, str]) -> dict[str, str]:
    """Rich's Markdown styles in the colours of the current Textual theme.

    A finished answer is a Rich `Markdown`, which otherwise draws in Rich's own fixed colours
    (magenta headings, code on black) whatever the theme. Only `#rrggbb` values are used: an
    ANSI theme's `ansi_default` means "the terminal's colour", which is Rich's default anyway.
    """

    def colour(name: str) -> str:
        value = variables.get(name, "")
        return value if value.startswith("#") and len(value) in (7, 9) else ""

    def style(*parts: str) -> str:
        return " ".join(p for p in parts if p) or "none"

    primary, accent = colour("primary"), colour("accent")
    text_primary, text_accent = colour("text-primary") or primary, colour("text-accent") or accent
    muted, surface = colour("secondary"), colour("surface")
    code = style(text_accent, f"on {surface}" if surface else "")
    return {
        "markdown.h1": style("bold", primary), "markdown.h1.border": style(primary),
        "markdown.h2": style("bold", primary), "markdown.h3": style("bold", text_primary),
        "markdown.h4": style("bold"), "markdown.h5": style("italic"), "markdown.h6": style("italic"),
        "markdown.code": code, "markdown.item.bullet": style(accent), "markdown.item.number": style(accent),
        "markdown.link": style(text_primary, "underline"), "markdown.link_url": style(text_primary, "underline"),
        "markdown.block_quote": style("italic", muted), "markdown.hr": style(muted),
        "markdown.table.border": style(muted), "markdown.table.header": style("bold", text_primary),
    }
