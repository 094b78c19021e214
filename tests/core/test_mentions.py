"""`@path` mentions: the parser, and the reader against a hostile tree (issue #25; adversary findings
F2, F3). The wide table generates hundreds of mention strings and checks, for every one, that
nothing outside the root and no secret is ever attached without the person's yes, that nothing
raises, and that every bound holds."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.core.mentions import MAX_FILE_BYTES, MAX_LISTING, MAX_TOTAL_BYTES, read_mentions
from mrsmith_tui.core.prompt_syntax import MAX_MENTIONS, Mention, mention_being_typed, parse_prompt
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.approval import ApprovalGate, PolicyApprover
from mrsmith_tui.tools.base import ApprovalQuery, ToolContext

# --------------------------------------------------------------------------- the parser


@pytest.mark.parametrize(("text", "paths"), [
    ("explain @src/a.py", ["src/a.py"]),
    ("@a.py and @b.py", ["a.py", "b.py"]),
    ("see @a.py.", ["a.py"]),
    ("see @a.py, then @b.py;", ["a.py", "b.py"]),
    ("(@a.py)", []),  # `(` before it: inside a word
    ("look (at @a.py)", ["a.py"]),
    ("mail ann@example.com", []),
    ("@", []),
    ("@ a.py", []),
    ('@"my file.txt" now', ["my file.txt"]),
    ("@.env", [".env"]),
    ("@.env/", [".env/"]),
    ("@..", [".."]),
    ("@../x", ["../x"]),
    ("@src/", ["src/"]),
    ("line one\n@two.py", ["two.py"]),
    ("tab\t@t.py", ["t.py"]),
    ("@~/.ssh/id_rsa", ["~/.ssh/id_rsa"]),
])
def test_mentions_are_found_where_a_person_puts_them(text, paths):
    parsed = parse_prompt(text)
    assert parsed.command is None
    assert [m.path for m in parsed.mentions] == paths


@pytest.mark.parametrize(("text", "command"), [
    ("!ls", "ls"),
    ("!ls -la @x", "ls -la @x"),
    ("! ls", " ls"),
    ("!git status\n", "git status\n"),
])
def test_a_bang_first_is_a_command(text, command):
    assert parse_prompt(text).command == command


@pytest.mark.parametrize("text", [" !ls", "\t!ls", "\n!ls", "!", "!   ", "say !ls", "x\n!ls"])
def test_only_a_bang_typed_first_with_something_after_it_is_a_command(text):
    assert parse_prompt(text).command is None


@pytest.mark.parametrize(("draft", "expected"), [
    ("look at @sr", (8, "sr")),
    ("@", (0, "")),
    ("@src/", (0, "src/")),
    ("look at @src ", None),
    ("mail ann@ex", None),
    ("", None),
    ("a\n@b", (2, "b")),
    ('look @"my fi', (5, "my fi")),  # a quoted name with a blank, its quote still open
    ('@"', (0, "")),
    ('look @"a b" x', None),
    ('mail a@"b', None),
])
def test_the_mention_being_typed(draft, expected):
    assert mention_being_typed(draft) == expected


# --------------------------------------------------------------------------- a hostile tree

OUTSIDE_MARK = "OUTSIDE-MARK-q7"
SECRET_NAMES = [".env", ".env.local", "prod.env", "id_rsa", "deploy_ed25519", "server.pem", "tls.key", ".npmrc",
                "credentials", "aws-credentials.json", "secrets.yaml", ".netrc", ".pgpass", "terraform.tfvars",
                ".htpasswd", "keystore.jks", ".git-credentials", "client_secret_1.json"]


class Recording:
    """An approver like the TUI's: every secret asks; answers `answer`."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.queries: list[ApprovalQuery] = []

    def approve(self, query: ApprovalQuery):
        self.queries.append(query)
        return self.answer

    def confirm_continue(self, rounds, agent_id=None):
        return False

    def ask(self, questions, agent_id=None):
        return None


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    base = tmp_path_factory.mktemp("mentions")
    root, outside = base / "root", base / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "o.txt").write_text(OUTSIDE_MARK)
    (outside / "dir").mkdir()
    (outside / "dir" / "inner.txt").write_text(OUTSIDE_MARK)
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("print('a')\n")
    (root / "unicodé.txt").write_text("accent\n")
    for i, name in enumerate(SECRET_NAMES):
        (root / name).write_text(f"SECRET_{i}=secret-mark-{i}\n")
    (root / ".ssh").mkdir()
    (root / ".ssh" / "config").write_text("Host x\n")
    (root / ".aws").mkdir()
    (root / ".aws" / "credentials").write_text("[default]\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text('[remote "o"]\n\turl = https://u:tok@example.com/r\n')
    os.symlink(outside / "o.txt", root / "link_out")
    os.symlink(outside / "dir", root / "dirlink_out")
    os.symlink(root / ".env", root / "notes.txt")  # an innocent name leading to a secret
    os.link(root / "id_rsa", root / "hard.txt")  # a hard link to a secret
    os.symlink("loop_b", root / "loop_a")
    os.symlink("loop_a", root / "loop_b")
    (root / "huge.txt").write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    (root / "bin.dat").write_bytes(b"\x00\x01\x02" * 10)
    for i in range(5):
        (root / f"big{i}.txt").write_bytes(b"y\n" * (MAX_FILE_BYTES // 2 - 10))
    many = root / "many"
    many.mkdir()
    for i in range(10_000):
        (many / f"f{i:05}").touch()
    (root / "fifo").touch()
    os.unlink(root / "fifo")
    os.mkfifo(root / "fifo")
    return root, outside


def _secret_files(root: Path) -> set[str]:
    real = {os.path.realpath(root / name) for name in SECRET_NAMES}
    return real | {os.path.realpath(root / p) for p in (".ssh/config", ".aws/credentials", ".git/config")}


def _generated(root: Path, outside: Path) -> list[str]:
    targets = [".env", "src/a.py", "src", "link_out", "dirlink_out", "dirlink_out/inner.txt", "notes.txt", "hard.txt",
               "loop_a", "huge.txt", "bin.dat", "many", "fifo", "nothing-here", ".ssh", ".ssh/config", ".aws/credentials", ".git/config",
               "unicodé.txt", *SECRET_NAMES[1:8]]
    prefixes = ["", "./", "src/../", "src/./../", f"{root}/", f"{root}//", "../root/", f"{outside}/../root/",
                "/proc/self/cwd/", "~/", "~", ".//"]
    suffixes = ["", "/", "/.", "/..", "\x00", "\x00.txt", "%00", ".", ",", "\\"]
    rows = [p + t + s for p, t, s in itertools.product(prefixes, targets, suffixes)]
    lookalikes = ["\u2024env", ".\u0435nv", "\uff0e\uff45\uff4e\uff56", ".env\u200b", "src\u2215a.py", "src\uff0fa.py",
                  ".ENV", ".Env", "ID_RSA", "..\u2215outside", "\u202e.env", "C:\\Windows", "\\\\server\\share",
                  "../outside/o.txt", "../../etc/passwd", "/etc/passwd", "/etc/shadow", f"{outside}/o.txt",
                  f"{outside}/dir/", "~root/.ssh/id_rsa", "$HOME/.env", "${PWD}/.env", "`id`", "$(touch pwned)",
                  "/", "//", ".", "..", "...", "a" * 5000, "/dev/zero", "/dev/stdin", "/proc/self/environ",
                  "/proc/self/root/etc/passwd", "/proc/1/cwd/.env"]
    return rows + lookalikes


def _check(root: Path, outside: Path, mention: str, answer: str) -> None:
    approver = Recording(answer)
    gate = ApprovalGate(approver)
    ctx = ToolContext(root=root, cancel=CancelToken(), approver=approver)
    out = read_mentions([Mention(mention, 0, len(mention) + 1)], gate=gate, ctx=ctx, sensitive=SensitivePaths())
    secrets = _secret_files(root)
    asked_secret = any(q.rule == "secret" for q in approver.queries)
    for label, text in out.attachments:
        assert OUTSIDE_MARK not in text, mention
        assert len(text.encode()) <= MAX_FILE_BYTES
        real = os.path.realpath(root / label.rstrip("/"))
        assert real == str(root) or real.startswith(str(root) + "/"), mention
        if real in secrets or label.rstrip("/") in (".ssh", ".aws"):
            assert asked_secret, f"{mention!r} attached {label} without asking"
            assert answer == "yes"
        if label in ("notes.txt", "hard.txt"):
            assert asked_secret, f"{mention!r} attached {label} (a secret by another name) without asking"
    for line in out.attached + out.refused:
        assert "\n" not in line
    assert len(out.attachments) + len(out.refused) <= 1


def test_the_generated_table_is_wide(tree):
    root, outside = tree
    assert len(_generated(root, outside)) >= 300


@pytest.mark.parametrize("answer", ["no", "yes"])
def test_no_mention_reaches_outside_or_a_secret_without_a_yes(tree, answer):
    root, outside = tree
    for mention in _generated(root, outside):
        _check(root, outside, mention, answer)


def _read(root: Path, *paths: str, approver=None):
    approver = approver or PolicyApprover()
    ctx = ToolContext(root=root, cancel=CancelToken(), approver=approver)
    mentions = [Mention(p, 0, 0) for p in paths]
    return read_mentions(mentions, gate=ApprovalGate(approver), ctx=ctx)


def test_headless_refuses_a_secret_naming_the_flag(tree):
    root, _ = tree
    out = _read(root, ".env")
    assert out.attachments == ()
    (line,) = out.refused
    assert line.startswith("@.env: not attached") and "--allow 'read_file:.env'" in line


def test_a_trailing_slash_on_a_secret_file_does_not_get_past_the_rule(tree):
    root, _ = tree
    for raw in (".env/", ".env/.", "./.env/", f"{root}/.env/"):
        out = _read(root, raw, approver=Recording("yes"))
        assert out.attachments == (), raw
    approver = Recording("no")
    _read(root, ".env", approver=approver)
    assert approver.queries and approver.queries[0].spec == "read_file:.env"


def test_two_names_of_one_file_attach_it_once(tree):
    root, _ = tree
    out = _read(root, "src/a.py", "./src/a.py", f"{root}/src/a.py", "src/../src/a.py")
    assert [label for label, _ in out.attachments] == ["src/a.py"]
    assert out.refused == ()


def test_absolute_inside_is_fine_outside_is_refused(tree):
    root, outside = tree
    assert [label for label, _ in _read(root, f"{root}/src/a.py").attachments] == ["src/a.py"]
    out = _read(root, f"{outside}/o.txt")
    assert out.attachments == () and "outside the working directory" in out.refused[0]


def test_a_link_inside_that_leads_out_is_refused(tree):
    root, _ = tree
    for raw in ("link_out", "dirlink_out/", "dirlink_out/inner.txt"):
        out = _read(root, raw)
        assert out.attachments == () and "outside the working directory" in out.refused[0], raw


def test_bounds_a_file_the_total_and_a_listing(tree):
    root, _ = tree
    assert "1 MiB" in _read(root, "huge.txt").refused[0]
    out = _read(root, "big0.txt", "big1.txt", "big2.txt", "big3.txt", "big4.txt", "src/a.py")
    assert sum(len(t.encode()) for _, t in out.attachments) <= MAX_TOTAL_BYTES
    assert any("4 MiB" in line for line in out.refused)
    (listing,) = _read(root, "many/").attachments
    lines = listing[1].splitlines()
    assert len(lines) == MAX_LISTING + 1 and "10000 entries" in lines[-1]
    assert "binary" in _read(root, "bin.dat").refused[0]
    assert "not a regular file" in _read(root, "fifo").refused[0]


def test_too_many_mentions_are_counted_not_read(tree):
    root, _ = tree
    out = _read(root, *[f"src/../src/./a.py{'/' * 0}" for _ in range(MAX_MENTIONS + 5)])
    assert out.refused[-1].startswith("5 more mentions not read")


def test_a_missing_file_is_sent_as_text(tree):
    root, _ = tree
    assert "no such file" in _read(root, "nothing-here").refused[0]


def test_what_was_attached_is_counted_in_good_english(tree):
    root, _ = tree
    assert _read(root, "src/", "src/a.py").attached == ("src/ (listing, 1 entry)", "src/a.py (1 line, 11 bytes)")
