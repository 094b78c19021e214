"""What a prompt the person typed asks for besides words: a `/command`, a `!command`, `@path` mentions.

Pure: no disk, no clock. Only text a person typed is parsed at all (core.prompt_run decides that):
piped stdin, a file's text and an expanded custom command are sent as they are.

- `/command`: the first word (up to the first blank) is `/` and a name: letters, digits, `.`, `_`, `-`,
  and `:` between a command folder's names (`/review`, `/git:pr`). Any other first word, a path like
  `/etc/hosts:` or one spanning lines, is text for the model. The UI and a headless `-p` read it alike.
- `!command`: the prompt's very first character is `!` (nothing stripped before it: ` !ls` is a
  sentence for the model) and something follows it. The rest of the prompt, as typed, is the command.
- `@path`: an `@` at the start of the prompt or after a blank, followed by a path. `@"a b.txt"`
  quotes a path with blanks. Trailing punctuation of a sentence (`see @a.py.`) is not part of
  the path. An `@` inside a word (`ann@example.com`) is no mention. `@dir/` names a folder.
"""

from __future__ import annotations

import re

from mrsmith_tui.records import Value

__all__ = ["MAX_MENTIONS", "Mention", "ParsedPrompt", "command_word", "mention_being_typed", "parse_prompt"]

MAX_MENTIONS = 20  # mentions read from one prompt; the rest are reported, not read

_MENTION = re.compile(r'(?:(?<=\s)|^)@(?:"([^"\n]+)"|(\S+))')
_OPEN_QUOTE = re.compile(r'(?:(?<=\s)|^)@"([^"\n]*)\Z')  # `@"my dir/` being typed: its blanks are the path's
_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
_COMMAND = re.compile(rf"/(?:{_NAME}(?::{_NAME})*)?\Z")
_TRAILING = ",;:!?)]}>'\"`"


class Mention(Value):
    path: str  # as typed, without the `@` (and without quotes)
    start: int  # where the `@` is in the prompt
    end: int  # just past the mention

    @property
    def wants_dir(self) -> bool:
        """Typed as a folder (`@src/`, `@src/.`, `@..`): a listing is asked for, never a file's text."""
        return self.path.endswith(("/", "/.", "/..")) or self.path in (".", "..")


class ParsedPrompt(Value):
    text: str
    command: str | None = None  # `!command`: the command as typed; None for a prompt to the model
    mentions: tuple[Mention, ...] = ()


def _trim(path: str) -> str:
    """A sentence's closing punctuation is not part of a path: `@a.py,` `@(b.py)` `@c.py.`"""
    while path and path[-1] in _TRAILING:
        path = path[:-1]
    while len(path) > 1 and path.endswith(".") and not path[:-1].endswith(".") and not path[:-1].endswith("/"):
        path = path[:-1]
    return path


def parse_prompt(text: str) -> ParsedPrompt:
    """The prompt as the person typed it: a command, or the mentions in it."""
    if text.startswith("!") and text[1:].strip():
        return ParsedPrompt(text=text, command=text[1:])
    found: list[Mention] = []
    for match in _MENTION.finditer(text):
        quoted, bare = match.group(1), match.group(2)
        path = quoted if quoted is not None else _trim(bare)
        if not path:
            continue
        end = match.end() if quoted is not None else match.start() + 1 + len(path)
        found.append(Mention(path=path, start=match.start(), end=end))
    return ParsedPrompt(text=text, mentions=tuple(found))


def mention_being_typed(draft: str) -> tuple[int, str] | None:
    """(where its `@` is, the path typed so far) when the draft ends in a mention being typed: `@name`,
    or `@"name` whose quote is not closed yet (a name with blanks)."""
    quoted = _OPEN_QUOTE.search(draft)
    if quoted is not None:
        return quoted.start(), quoted.group(1)
    if not draft or draft[-1].isspace():
        return None
    start = max(draft.rfind(" "), draft.rfind("\n"), draft.rfind("\t")) + 1
    word = draft[start:]
    if not word.startswith("@") or word.startswith('@"') or "\x00" in word:
        return None
    return start, word[1:]


def command_word(text: str) -> str | None:
    """The `/name` the prompt starts with when it is a command (None: the prompt is text for the model)."""
    word = text.split(" ", 1)[0]
    return word if _COMMAND.match(word) else None
