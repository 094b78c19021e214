"""Custom slash commands: a Markdown file becomes `/name`, whose text is sent to the model as a prompt.

    .mrsmith/commands/review.md        -> /review     (the project's)
    ~/.config/mrsmith/commands/git/pr.md -> /git:pr   (yours)

    ---
    description: Review the staged changes
    argument-hint: [focus]
    ---
    Review `git diff --staged`, paying attention to $ARGUMENTS.

The front matter is optional and read by a small strict parser (one `key: value` a line, no YAML
tags, anchors or blocks: nothing in it can grow or run). `description` and `argument-hint` are
used; other keys are ignored. `$ARGUMENTS` is the whole argument, `$1`..`$9` its words; a body
naming neither gets the argument appended. The result is text: nothing in a command runs or is read
(a `!` line is not a `!command`, an `@path` is not attached). Pure: loading from disk is
command_files.py's.
"""

from __future__ import annotations

import re
import shlex

from mrsmith_tui.errors import MrSmithError
from mrsmith_tui.records import Value
from mrsmith_tui.security.terminal_text import clean

MAX_FRONT_LINES = 40  # front matter longer than this is a mistake (or an attack)
MAX_FIELD_CHARS = 300
MAX_PLACEHOLDERS = 32  # $ARGUMENTS and $1..$9 in one body: each one copies the argument into the prompt
SEGMENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")  # one folder or file name of a command
_KEY_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_-]{0,63})\s*:(.*)$")
_USED = ("description", "argument-hint")
_PLACEHOLDER = re.compile(r"\$ARGUMENTS|\$([1-9])")


class CommandFileError(MrSmithError):
    """A command file that cannot be used: `message` is one line naming the file and what is wrong."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CustomCommand(Value):
    name: str  # "/git:pr"
    body: str
    origin: str  # "project" or "user"
    path: str  # as shown: ".mrsmith/commands/git/pr.md" or "~/.config/mrsmith/commands/git/pr.md"
    description: str = ""
    argument_hint: str = ""

    @property
    def label(self) -> str:
        """Where it comes from, as /help, completion and the palette say it."""
        return "project" if self.origin == "project" else "yours"

    def help_line(self) -> str:
        hint = f"{self.argument_hint}  " if self.argument_hint else ""
        return f"{hint}{self.description or '(no description)'}  ({self.label}: {self.path})"


class CommandSet(Value):
    """The custom commands found, the names whose file is broken (name -> one line) and the warnings."""

    commands: tuple[CustomCommand, ...] = ()
    broken: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()

    def find(self, name: str) -> CustomCommand | None:
        return next((c for c in self.commands if c.name == name), None)

    def broken_line(self, name: str) -> str | None:
        return next((line for n, line in self.broken if n == name), None)

    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.commands)


def command_name(parts: tuple[str, ...]) -> str | None:
    """`("git", "pr.md")` -> "/git:pr"; None when a part is not a plain name."""
    if not parts or not parts[-1].endswith(".md"):
        return None
    names = (*parts[:-1], parts[-1][:-3])
    if not all(SEGMENT_RE.match(n) for n in names):
        return None
    return "/" + ":".join(names)


def parse_command(text: str, *, name: str, origin: str, path: str) -> CustomCommand:
    """The command a file's text makes. Raises CommandFileError (one line naming `path`)."""
    text = text.removeprefix("\ufeff")
    front: dict[str, str] = {}
    lines = text.splitlines(keepends=True)
    if lines and lines[0].strip() == "---":
        end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "---"), None)
        if end is None or end > MAX_FRONT_LINES + 1:
            raise CommandFileError(f"{path}: the front matter has no closing '---' within {MAX_FRONT_LINES} lines")
        front = _front_matter(lines[1:end], path)
        text = "".join(lines[end + 1:])
    body = text.strip("\n")
    if not body.strip():
        raise CommandFileError(f"{path}: the command's text is empty")
    if len(_PLACEHOLDER.findall(body)) > MAX_PLACEHOLDERS:  # thousands of copies of a pasted argument: no prompt
        raise CommandFileError(f"{path}: more than {MAX_PLACEHOLDERS} $ARGUMENTS/$1..$9 placeholders")
    return CustomCommand(name=name, body=body, origin=origin, path=path,  # what is shown is data: controls made visible
                         description=clean(front.get("description", "")), argument_hint=clean(front.get("argument-hint", "")))


def _front_matter(lines: list[str], path: str) -> dict[str, str]:
    """One `key: value` a line. The two keys used take a plain or quoted one-line text; the lines of other
    keys (a list under `allowed-tools:`, say) are skipped unread."""
    found: dict[str, str] = {}
    skipping = False
    for number, raw in enumerate(lines, 2):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] in " \t-":  # the continuation of the key before
            if skipping:
                continue
            raise CommandFileError(f"{path}: front matter line {number}: expected 'key: value'")
        match = _KEY_RE.match(line)
        if match is None:
            raise CommandFileError(f"{path}: front matter line {number}: expected 'key: value'")
        key, value = match.group(1), match.group(2).strip()
        skipping = key not in _USED
        if skipping:
            continue
        if key in found:
            raise CommandFileError(f"{path}: front matter line {number}: {key} is given twice")
        found[key] = _plain_text(value, key, number, path)
    return found


def _plain_text(value: str, key: str, number: int, path: str) -> str:
    where = f"{path}: front matter line {number}: {key}"
    if value[:1] in ('"', "'"):
        quote = value[0]
        if len(value) < 2 or not value.endswith(quote):
            raise CommandFileError(f"{where}: the quote is not closed on its line")
        value = value[1:-1]
        value = value.replace('\\"', '"').replace("\\\\", "\\") if quote == '"' else value.replace("''", "'")
    elif value[:1] == "[" and key == "argument-hint":
        pass  # display text, written `[focus]` in other agents' command files: taken as it stands, never a list
    elif value[:1] in ("&", "*", "!", "|", ">", "[", "{", "%", "@", "`"):
        raise CommandFileError(f"{where}: only a plain one-line text (quote it if it starts with {value[0]})")
    if len(value) > MAX_FIELD_CHARS:
        raise CommandFileError(f"{where}: longer than {MAX_FIELD_CHARS} characters")
    return " ".join(value.split())


def expand(command: CustomCommand, arguments: str) -> str:
    """The prompt `/name arguments` sends: the body with `$ARGUMENTS` and `$1`..`$9` put in, in one pass
    (an argument holding `$1` stays as typed). A body naming neither gets the arguments appended."""
    arguments = arguments.strip()
    try:
        words = shlex.split(arguments)
    except ValueError:  # an unclosed quote: the words as typed
        words = arguments.split()
    used = False

    def put(match: re.Match[str]) -> str:
        nonlocal used
        used = True
        if match.group(1) is None:
            return arguments
        index = int(match.group(1))
        return words[index - 1] if index <= len(words) else ""

    text = _PLACEHOLDER.sub(put, command.body)
    if arguments and not used:
        text = f"{text}\n\nArguments: {arguments}"
    return text


def merged(user: list[CustomCommand], project: list[CustomCommand], builtin: frozenset[str],
           broken: list[tuple[str, str]], warnings: list[str]) -> CommandSet:
    """One set: a built-in name always wins, then yours over the project's. Each hidden file is a warning."""
    chosen: dict[str, CustomCommand] = {}
    for command in (*user, *project):
        if command.name in builtin:
            warnings.append(f"{command.path}: {command.name} is a built-in command, which wins; rename the file")
        elif command.name in chosen:
            warnings.append(f"{command.path}: {command.name} is also yours ({chosen[command.name].path}), "
                            "which wins")
        else:
            chosen[command.name] = command
    broken = [(n, clean(line)) for n, line in broken if n not in chosen and n not in builtin]
    commands = tuple(sorted(chosen.values(), key=lambda c: c.name))
    return CommandSet(commands=commands, broken=tuple(broken), warnings=tuple(clean(w) for w in warnings))  # a file name's controls
