"""Custom slash commands: the front matter parser, expansion, precedence, and loading from disk with its caps."""

from __future__ import annotations

import itertools
import os
import random
import re

import pytest

from mrsmith_tui.core.command_files import MAX_FILE_BYTES, MAX_FILES, load_commands
from mrsmith_tui.core.custom_commands import CommandFileError, CustomCommand, command_name, expand, parse_command

BUILTIN = frozenset({"/help", "/init", "/undo", "/exit", "/clear"})


def parse(text: str) -> CustomCommand:
    return parse_command(text, name="/x", origin="project", path=".mrsmith/commands/x.md")


def cmd(body: str) -> CustomCommand:
    return CustomCommand(name="/x", body=body, origin="project", path="x.md")


# ------------------------------------------------------------------ front matter


def test_front_matter_fields_are_read_and_others_ignored():
    c = parse("---\ndescription: Review the diff\nargument-hint: \"[focus]\"\nallowed-tools:\n  - Bash\n"
              "model: x\n# a comment\n---\nReview $ARGUMENTS\n")
    assert (c.description, c.argument_hint, c.body) == ("Review the diff", "[focus]", "Review $ARGUMENTS")


@pytest.mark.parametrize(("written", "shown"), [
    ("[focus]", "[focus]"), ("[pr-number] [priority]", "[pr-number] [priority]"), ("[a, {b: c}]", "[a, {b: c}]"),
    ("[unclosed", "[unclosed"), ("[x]   [y]", "[x] [y]"),
])
def test_an_unquoted_hint_in_brackets_is_its_text_as_other_agents_write_it(written, shown):
    c = parse(f"---\ndescription: Review\nargument-hint: {written}\n---\nReview $ARGUMENTS\n")
    assert c.argument_hint == shown


@pytest.mark.parametrize("value", ["[" + "x" * 400 + "]", "[a\x1b[31m]"])
def test_a_hint_in_brackets_stays_bounded_and_clean(value):
    try:
        c = parse(f"---\nargument-hint: {value}\n---\nbody\n")
    except CommandFileError as e:
        assert "longer than" in e.message
    else:
        assert "\x1b" not in c.argument_hint and len(c.argument_hint) < 400


def test_the_docs_example_command_loads():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "commands.md").read_text()
    example = re.search(r"\n    ---\n(.*?\n    ---\n.*?)\n\n", doc, re.S)
    assert example is not None
    text = "---\n" + "\n".join(line.removeprefix("    ") for line in example.group(1).splitlines()) + "\n"
    c = parse(text)
    assert c.argument_hint == "[focus]" and c.description == "Review the staged changes"


def test_no_front_matter_is_all_body():
    assert parse("just text\n\nmore\n").body == "just text\n\nmore"


@pytest.mark.parametrize("value", ["&a x", "*a", "!!python/object:os.system", "|", ">", "[1, 2]", "{a: b}",
                                   "%TAG", "@x", "`x`"])
def test_yaml_syntax_in_a_used_field_is_one_line(value):
    with pytest.raises(CommandFileError) as e:
        parse(f"---\ndescription: {value}\n---\nbody\n")
    assert "\n" not in e.value.message and e.value.message.startswith(".mrsmith/commands/x.md: front matter line 2")


def _bad_front_matters():
    """Hundreds of broken or hostile front matters; each must be one line naming the file, nothing else."""
    starts = ["&", "*", "!", "|", ">", "[", "{", "%", "@", "`", '"', "'"]
    rows = []
    for key, s in itertools.product(["description", "argument-hint"], starts):
        if (key, s) != ("argument-hint", "["):  # display text taken as written (test_an_unquoted_hint_...)
            rows.append(f"---\n{key}: {s}x\n---\nbody\n")
    for n in range(60):
        rows.append("---\n" + "description: x\n" * 2 + "#" * n + "\n---\nb\n")  # given twice
    for junk in ["no colon", "  indented: x", "- item", "1abc: x", ": x", "a b: c", "key", "\tkey: x"]:
        for pre in ["", "description: ok\n"]:
            rows.append(f"---\n{pre}{junk}\n---\nbody\n")
    for n in range(100):  # a bomb of anchors, a bomb of nesting, an unclosed block
        rows.append("---\ndescription: &a [" + ",".join(["*a"] * n) + "]\n---\nb\n")
        rows.append("---\n" + "description: x\n" * (n % 3) + "a: b\n" * (41 + n) + "---\nb\n")
    rows += ["---\ndescription: x\n", "---\n", "---\n---\n", "---\n---\n   \n\n"]
    rows.append("---\ndescription: " + "x" * 400 + "\n---\nb\n")
    return rows


BAD = _bad_front_matters()


def test_the_table_is_wide():
    assert len(BAD) > 300


@pytest.mark.parametrize("text", BAD, ids=range(len(BAD)))
def test_bad_front_matter_is_one_line_naming_the_file(text):
    with pytest.raises(CommandFileError) as e:
        parse(text)
    assert "\n" not in e.value.message and e.value.message.startswith(".mrsmith/commands/x.md: ")


def test_random_front_matter_never_raises_anything_else():
    rng = random.Random(25)
    alphabet = "ab:-#'\" \t\n&*!|>[]{}%@`\\\r\x00é"
    for _ in range(2000):
        junk = "".join(rng.choice(alphabet) for _ in range(rng.randrange(60)))
        try:
            c = parse(f"---\n{junk}\n---\nbody\n")
        except CommandFileError as e:
            assert "\n" not in e.message
        else:
            assert "\n" not in c.description and "\n" not in c.argument_hint


# ------------------------------------------------------------------ names and expansion


@pytest.mark.parametrize(("parts", "name"), [
    (("review.md",), "/review"), (("git", "pr.md"), "/git:pr"), (("a", "b", "c.md"), "/a:b:c"),
    (("x.txt",), None), ((".hidden.md",), None), (("sp ace.md",), None), (("..", "x.md"), None),
    (("a:b.md",), None), (("semi;colon.md",), None), (("v1.2.md",), "/v1.2"),
])
def test_names(parts, name):
    assert command_name(parts) == name


@pytest.mark.parametrize(("body", "args", "sent"), [
    ("Fix $ARGUMENTS now", "issue 12", "Fix issue 12 now"),
    ("$1 then $2, not $3", "one 'two words'", "one then two words, not "),
    ("plain", "", "plain"),
    ("plain", "extra words", "plain\n\nArguments: extra words"),
    ("$ARGUMENTS", "$1 $ARGUMENTS", "$1 $ARGUMENTS"),  # one pass: an argument is never expanded again
    ("$1", "'unclosed", "'unclosed"),
    ("cost: $10", "a", "cost: a0"),
    ("$ARGUMENTSX", "a", "aX"),
])
def test_expansion(body, args, sent):
    assert expand(cmd(body), args) == sent


# ------------------------------------------------------------------ loading


def write(folder, rel, text):
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def dirs(tmp_path):
    root, user = tmp_path / "proj", tmp_path / "user"
    (root / ".mrsmith" / "commands").mkdir(parents=True)
    user.mkdir()
    return root, root / ".mrsmith" / "commands", user


def load(root, user):
    return load_commands(root, builtin=BUILTIN, user_dir=user)


def test_project_and_user_commands_with_folders(dirs):
    root, proj, user = dirs
    write(proj, "review.md", "---\ndescription: Review\n---\nReview it")
    write(proj, "git/pr.md", "Open a PR for $ARGUMENTS")
    write(user, "mine.md", "Mine")
    found = load(root, user)
    assert found.names() == ("/git:pr", "/mine", "/review")
    assert found.find("/git:pr").origin == "project" and found.find("/git:pr").path == ".mrsmith/commands/git/pr.md"
    assert found.find("/mine").label == "yours" and found.find("/review").label == "project"
    assert found.warnings == ()


def test_a_builtin_always_wins_and_yours_wins_over_the_project(dirs):
    root, proj, user = dirs
    write(proj, "help.md", "steal /help")
    write(user, "init.md", "mine too")
    write(proj, "same.md", "project's")
    write(user, "same.md", "yours")
    found = load(root, user)
    assert found.names() == ("/same",) and found.find("/same").body == "yours"
    assert any("/help is a built-in command, which wins" in w for w in found.warnings)
    assert any("/init is a built-in command" in w for w in found.warnings)
    assert any(w.startswith(".mrsmith/commands/same.md: /same is also yours") for w in found.warnings)


def test_a_broken_file_is_one_line_and_the_others_load(dirs):
    root, proj, user = dirs
    write(proj, "bad.md", "---\ndescription: [oops\n---\nx")
    write(proj, "good.md", "fine")
    found = load(root, user)
    assert found.names() == ("/good",)
    line = found.broken_line("/bad")
    assert line.startswith(".mrsmith/commands/bad.md: front matter line 2") and "\n" not in line


def test_size_cap(dirs):
    root, proj, user = dirs
    write(proj, "big.md", "x" * (MAX_FILE_BYTES + 1))
    write(proj, "edge.md", "y" * MAX_FILE_BYTES)
    found = load(root, user)
    assert found.names() == ("/edge",)
    assert found.broken_line("/big") == ".mrsmith/commands/big.md: larger than 64 KiB; not read"


def test_file_count_cap(dirs):
    root, proj, user = dirs
    for n in range(MAX_FILES + 20):
        write(proj, f"c{n:03d}.md", f"command {n}")
    found = load(root, user)
    assert len(found.commands) == MAX_FILES
    assert f"more than {MAX_FILES} command files: the rest are not read" in found.warnings


def test_links_and_odd_files_are_not_read(dirs, tmp_path):
    root, proj, user = dirs
    secret = write(tmp_path, "secret.txt", "TOKEN=abc")
    os.symlink(secret, proj / "leak.md")
    os.link(secret, proj / "hard.md")
    os.mkfifo(proj / "fifo.md")
    os.symlink(tmp_path, proj / "linked")
    write(proj, "not-utf8.md", "")
    (proj / "not-utf8.md").write_bytes(b"\xff\xfe\x00bad")
    found = load(root, user)
    assert found.names() == ()
    assert found.broken_line("/leak").endswith("not a regular file (a symbolic link?); not read")
    assert found.broken_line("/hard").endswith("has other hard links; not read")
    assert found.broken_line("/fifo").endswith("not a regular file (a symbolic link?); not read")
    assert found.broken_line("/not-utf8").endswith("not UTF-8 text; not read")
    assert all("TOKEN" not in w for w in found.warnings)


def test_a_linked_project_commands_folder_is_refused(tmp_path):
    root, elsewhere = tmp_path / "proj", tmp_path / "elsewhere"
    write(elsewhere, "commands/x.md", "from outside")
    root.mkdir()
    os.symlink(elsewhere, root / ".mrsmith")
    found = load_commands(root, builtin=BUILTIN, user_dir=tmp_path / "none")
    assert found.names() == ()
    assert found.warnings == (".mrsmith/commands: not a real folder inside the project (a symbolic link?); "
                              "its commands are not read",)


def test_nothing_there_is_no_command_and_no_warning(tmp_path):
    found = load_commands(tmp_path, builtin=BUILTIN, user_dir=tmp_path / "none")
    assert found.commands == () and found.warnings == ()


def test_deep_folders_and_bad_names(dirs):
    root, proj, user = dirs
    write(proj, "a/b/c/ok.md", "deep enough")
    write(proj, "a/b/c/d/too.md", "too deep")
    write(proj, "bad name.md", "x")
    found = load(root, user)
    assert found.names() == ("/a:b:c:ok",)
    assert any("a/b/c/d: folders deeper than 3 levels" in w for w in found.warnings)
    assert any("bad name.md: not a command name" in w for w in found.warnings)


# ------------------------------------------------------------------ generated tables


def _file_names():
    rng = random.Random(2025)
    alphabet = "aZ09._-:;$ /\\\n\t\x1b\x00é!@#`'\"*?[]{}|&<>~%"
    names = {"".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12))) + ".md" for _ in range(400)}
    return sorted(names)


NAMES = _file_names()


def test_only_plain_names_become_commands():
    assert len(NAMES) > 300
    safe = re.compile(r"^/[A-Za-z0-9][A-Za-z0-9_.-]*(:[A-Za-z0-9][A-Za-z0-9_.-]*)*$")
    for name in NAMES:
        made = command_name(tuple(name.split("/")))
        assert made is None or safe.match(made), (name, made)


def test_arguments_are_never_expanded_twice():
    rng = random.Random(7)
    pieces = ["$ARGUMENTS", "$1", "$9", "$0", "$", "a", " ", "'", '"', "$$1", "\\$1", "é"]
    for _ in range(500):
        args = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 8)))
        assert expand(cmd("<$ARGUMENTS>"), args) == f"<{args.strip()}>"
