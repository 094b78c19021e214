"""What a typed prompt's syntax did, in the conversation: the `@path` mentions attached (a notice)
and refused (a warning each). A `!command` needs nothing here: it arrives as a prompt and a shell
block (UserPrompt, ToolCallStarted / ToolOutput / ToolCallFinished).

And `@path` completion: while the draft ends in a mention, the completions are the root's names
(asked of the shell once, and again when a new mention starts and the names are older than
FILES_STALE_SECONDS), those at the typed folder's level first, then deeper names containing it.
"""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.core.prompt_syntax import mention_being_typed
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.blocks import note_block
from mrsmith_tui.tui.update.effects import Effects, Handler


def _mentions_read(model: Model, msg: m.MentionsRead) -> tuple[Model, Effects]:
    if msg.attached:
        model = note_block(model, "notice", "attached " + " · ".join(msg.attached), msg.at)
    for line in msg.refused:
        model = note_block(model, "warning", line, msg.at)
    return model, ()


def mention_completions(files: tuple[str, ...], partial: str) -> tuple[str, ...]:
    """`@name` choices for the mention typed so far: this folder's level first, then deeper names."""
    level = [p for p in files if p.startswith(partial) and "/" not in p[len(partial):].rstrip("/")]
    deeper: list[str] = []
    if partial and not partial.endswith("/"):
        low = partial.lower()
        deeper = [p for p in files if low in p.rstrip("/").rsplit("/", 1)[-1].lower() and p not in level]
    shown = [p for p in level if p != partial] + deeper
    return tuple("@" + p for p in shown[:ui.MENTION_CHOICES])


def index_wanted(model: Model, draft: str, at: float) -> tuple[Model, Effects]:
    """Ask the shell for the root's names when a mention is being typed and they are missing or stale."""
    typing = mention_being_typed(draft)
    if typing is None or draft.startswith("/"):
        return model, ()
    known = model.input.files_at
    if known is not None and (typing[1] or at - known < ui.FILES_STALE_SECONDS):
        return model, ()
    return replace(model, input=replace(model.input, files_at=at)), (fx.IndexFiles(),)


def with_mention(draft: str, choice: str) -> str | None:
    """The draft with the mention being typed replaced by `choice` (a file gets a blank after it); None
    when the draft is not a mention being completed. A name with a blank goes in quoted (`@"my file.txt"`),
    as the prompt's parser reads it; a folder's quote stays open, so its names complete in turn."""
    typing = mention_being_typed(draft)
    if typing is None or not choice.startswith("@"):
        return None
    path = choice[1:]
    folder = path.endswith("/")
    if draft.startswith('@"', typing[0]) or (any(c.isspace() for c in path) and '"' not in path):
        choice = '@"' + path + ("" if folder else '"')
    else:
        choice = "@" + path
    return draft[:typing[0]] + choice + ("" if folder else " ")


def _again(model: Model, draft: str) -> tuple[str, ...]:
    typing = mention_being_typed(draft)
    return mention_completions(model.input.files, typing[1]) if typing is not None else ()


def _files_indexed(model: Model, msg: ui.FilesIndexed) -> tuple[Model, Effects]:
    model = replace(model, input=replace(model.input, files=msg.paths))
    draft = model.input.draft
    if draft.startswith("/") or mention_being_typed(draft) is None or model.input.chosen is not None:
        return model, ()  # while Tab cycles, the choices offered for what was typed stay
    return replace(model, input=replace(model.input, completions=_again(model, draft))), ()


HANDLERS: dict[type, Handler] = {
    m.MentionsRead: _mentions_read,
    ui.FilesIndexed: _files_indexed,
}
