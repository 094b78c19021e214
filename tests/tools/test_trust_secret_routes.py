"""Classes 3 and 4 of issue #21: every route to a secret asks; everyday reads and searches run.

One repository holds what the held-out set used: a `.env` (ignored), a `.env` committed by
mistake under `config/`, a submodule whose config carries a token, a vendored repository, a
bare repository, credential files of every built-in pattern, a tracked symbolic link and a hard
link to `.env`, a hard link to a file outside, and a stash holding an untracked secret.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
from pathlib import Path

import pytest

from mrsmith_tui.security.redact import Redactor
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.security.sensitive_rules import DEFAULT_SENSITIVE_PATTERNS
from mrsmith_tui.security.tree_secrets import learn_tree_secrets, secret_values
from mrsmith_tui.tools.shell.classify import classify

TOKEN = "ghp_" + "Q7x" * 12


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always", *args],
                          cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


def sample_name(pattern: str) -> str:
    """A file name the pattern matches (`*.tfvars` -> `x.tfvars`, `.ssh/` -> `.ssh/f`)."""
    name = pattern.replace("**/", "").replace("*", "x").replace("?", "_")
    return name + "f" if name.endswith("/") else name


SAMPLES = sorted({sample_name(p) for p in DEFAULT_SENSITIVE_PATTERNS if not p.startswith("!")})


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("routes")
    outside = base / "outside.txt"
    outside.write_text("outside secret\n")
    sub_src = base / "subsrc"
    sub_src.mkdir()
    _git(sub_src, "init", "-q")
    (sub_src / "lib.py").write_text("x = 1\n")
    _git(sub_src, "add", "-A")
    _git(sub_src, "commit", "-qm", "sub")
    root = base / "repo"
    (root / "src").mkdir(parents=True)
    _git(root, "init", "-q")
    (root / ".gitignore").write_text("/.env\n")
    (root / "src" / "app.py").write_text("print('TODO hello')\n")
    (root / "README.md").write_text("# demo TODO\n")
    (root / "config").mkdir()
    (root / "config" / ".env").write_text(f"API_KEY={TOKEN}\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "first")
    _git(root, "submodule", "add", "-q", str(sub_src), "libs/sub")
    _git(root / "libs" / "sub", "remote", "set-url", "origin", f"https://u:{TOKEN}@example.com/s.git")
    os.symlink(".env", root / "env-link")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "second")
    (root / "config" / ".env").write_text(f"API_KEY={TOKEN}\nMORE=1\n")  # a change git diff would show
    (root / ".env").write_text(f"OPENAI_API_KEY=sk-{TOKEN}\nDB_PASSWORD=Hunter2-xyz\n")
    (root / "stage.env").write_text("STAGE_TOKEN=st4geT0ken99\n")
    _git(root, "stash", "push", "-q", "--include-untracked", "--", "stage.env")
    vendor = root / "vendor" / "lib"
    vendor.mkdir(parents=True)
    _git(vendor, "init", "-q")
    _git(vendor, "remote", "add", "origin", f"https://{TOKEN}@example.com/v.git")
    _git(root / "vendor", "init", "-q", "--bare", "tool.git")
    os.link(root / ".env", root / "notes-link.txt")
    os.link(outside, root / "outside-link.txt")
    for name in SAMPLES:
        path = root / "creds" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_text("secret=value12345\n")
    return root


READERS = ["cat", "head -n 3", "tail -n 3", "nl", "grep -n x", "sort", "wc -c", "od -c", "tac", "base64",
           "md5sum", "cut -c1-5", "uniq", "file"]


@pytest.mark.parametrize("name", SAMPLES)
def test_every_built_in_credential_file_asks_by_every_reader(name: str, repo: Path) -> None:
    path = f"creds/{name}"
    assert SensitivePaths().matches(path), path
    for reader in READERS:
        verdict = classify(f"{reader} '{path}'", root=repo)
        assert not verdict.read_only and verdict.rule == "secret", (reader, path, verdict)
    assert classify(f"ls -l '{path}'", root=repo).read_only  # a name is not the secret


REPO_CONFIGS = [".git/config", ".git/modules/libs/sub/config", "vendor/lib/.git/config", "vendor/tool.git/config",
                "./vendor/../.git/modules/libs/sub/config", "libs/../vendor/tool.git/config"]


@pytest.mark.parametrize(("reader", "path"), list(itertools.product(READERS[:6], REPO_CONFIGS)))
def test_every_repository_config_in_the_tree_asks(reader: str, path: str, repo: Path) -> None:
    verdict = classify(f"{reader} {path}", root=repo)
    assert not verdict.read_only and verdict.rule == "secret", verdict


@pytest.mark.parametrize("path", REPO_CONFIGS + ["env-link", "notes-link.txt", "creds/.npmrc"])
def test_read_file_asks_for_the_same_paths(path: str, repo: Path) -> None:
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.tools.base import ToolContext
    from mrsmith_tui.tools.secret_paths import secret_need

    ctx = ToolContext(root=repo, cancel=CancelToken(), approver=None)  # type: ignore[arg-type]
    need = secret_need("read_file", path, ctx, SensitivePaths())
    assert need is not None and need.rule == "secret", path


LINK_COMMANDS = ["cat env-link", "grep -n KEY env-link", "head env-link", "cat notes-link.txt",
                 "grep -n KEY notes-link.txt", "sort notes-link.txt", "wc -l notes-link.txt", "cat ./notes-link.txt",
                 "cat src/../notes-link.txt", "cat outside-link.txt", "grep x outside-link.txt", "nl outside-link.txt"]


@pytest.mark.parametrize("command", LINK_COMMANDS)
def test_links_symbolic_and_hard_are_judged_by_where_they_lead(command: str, repo: Path) -> None:
    verdict = classify(command, root=repo)
    assert not verdict.read_only, command
    assert verdict.rule == ("outside" if "outside" in command else "secret"), verdict


GIT_ASKS = [
    "git diff", "git diff HEAD", "git diff -p", "git diff --stat -p", "git diff -U0", "git diff --word-diff",
    "git diff -- config", "git diff -- .", "git -P diff", "git --no-pager diff HEAD~1", "git log -p",
    "git log -p -2", "git log --patch --all", "git log -U1", "git whatchanged -p", "git show HEAD~1",
    "git show --stat -p HEAD~1", "git stash show -p --include-untracked", "git stash show -p -u",
    "git stash show -p --only-untracked", "git stash show -p -u stash@{0}", "git log -p --follow -- config",
    "git diff HEAD~1 --stat -p", "git grep -n KEY", "git grep KEY -- config",
    "git grep --untracked KEY", "git grep --no-index KEY", "git grep -e KEY HEAD", "git grep KEY HEAD~1 -- .",
]
GIT_RUNS = [
    "git diff --stat", "git diff --name-only", "git diff -- src", "git log --oneline", "git log -p -- src",
    "git log --stat", "git show --stat", "git stash show", "git stash show --include-untracked", "git status",
    "git grep -n TODO -- src", "git grep -l KEY", "git grep -c KEY", "git show HEAD:src/app.py", "git log -p -- src README.md",
    "git diff -- ':!config'", "git cat-file -p HEAD",
]


@pytest.mark.parametrize("command", GIT_ASKS)
def test_git_commands_that_would_print_a_secret_file_ask(command: str, repo: Path) -> None:
    verdict = classify(command, root=repo)
    assert not verdict.read_only and verdict.rule == "secret", (command, verdict)


@pytest.mark.parametrize("command", GIT_RUNS)
def test_git_commands_that_print_no_secret_run(command: str, repo: Path) -> None:
    verdict = classify(command, root=repo)
    assert verdict.read_only, (command, verdict)


def test_a_blob_named_by_its_id_asks(repo: Path) -> None:
    blob = _git(repo, "rev-parse", "HEAD:config/.env").strip()
    tree = _git(repo, "rev-parse", "HEAD^{tree}").strip()
    for command in (f"git cat-file -p {blob}", f"git cat-file blob {blob[:10]}", f"git show {blob}", f"git diff {blob} {blob}"):
        verdict = classify(command, root=repo)
        assert not verdict.read_only, command
    assert classify(f"git cat-file -p {tree}", root=repo).read_only


SCOPES_WITH_SECRETS = ["", ".", "./", "config", "vendor", "creds", "src/..", "*", "src config"]
SEARCHES = ["grep -rn KEY {s}", "grep -r -n KEY {s}", "grep -rni key {s}", "grep --recursive KEY {s}",
            "grep -d recurse KEY {s}", "grep -rn -e KEY {s}", "egrep -rn 'KEY|TOKEN' {s}", "grep -rnw x {s} | head",
            "grep -rhn KEY {s}", "grep -rn KEY {s} --include='*'", "grep -rn KEY {s} --exclude='*.py'"]


@pytest.mark.parametrize(("search", "scope"), list(itertools.product(SEARCHES, SCOPES_WITH_SECRETS)))
def test_a_recursive_search_whose_scope_holds_a_secret_asks(search: str, scope: str, repo: Path) -> None:
    if scope == "" and "{s} |" in search:
        scope = "."
    command = search.format(s=scope).strip()
    verdict = classify(command, root=repo)
    assert not verdict.read_only, command


@pytest.mark.parametrize("search", SEARCHES)
def test_the_same_searches_of_a_folder_without_secrets_run(search: str, repo: Path) -> None:
    if "--include='*'" in search:
        return  # a glob that selects any secret of the root asks wherever it searches (check_search_globs)
    for scope in ("src", "src/", "./src", "README.md src"):
        command = search.format(s=scope)
        assert classify(command, root=repo).read_only, command


def test_names_only_searches_and_excluded_secrets_run(repo: Path) -> None:
    for command in ("grep -rl KEY .", "grep -rc KEY .", "grep -rq KEY .", "grep -rL KEY ."):
        assert classify(command, root=repo).read_only, command
    clean = repo.parent / "clean"
    (clean / "src").mkdir(parents=True, exist_ok=True)
    (clean / "src" / "a.py").write_text("x\n")
    (clean / ".env").write_text("A=1\n")
    assert not classify("grep -rn x .", root=clean).read_only
    assert classify("grep -rn x . --exclude=.env", root=clean).read_only
    assert classify("grep -rn x --exclude-dir=src --exclude='.e*' .", root=clean).read_only


def test_the_redactor_learns_the_values_of_every_sensitive_file(repo: Path) -> None:
    from mrsmith_tui.security import tree_secrets

    tree_secrets.forget_learned_roots()
    redactor = Redactor()
    assert learn_tree_secrets(repo, redactor=redactor) >= 4
    assert learn_tree_secrets(repo, redactor=redactor) == 0  # read once
    for text in ((repo / ".env").read_text(), (repo / "config" / ".env").read_text(),
                 (repo / ".git" / "modules" / "libs" / "sub" / "config").read_text(),
                 (repo / "vendor" / "lib" / ".git" / "config").read_text()):
        redacted = redactor.redact(text)
        assert TOKEN not in redacted and "Hunter2-xyz" not in redacted, redacted
    assert redactor.redact("NODE_ENV=production and TODO hello") == "NODE_ENV=production and TODO hello"


def test_secret_values_property_over_generated_files() -> None:
    rng = random.Random(21)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    keys = ["API_KEY", "SECRET", "DB_PASSWORD", "token", "client_secret", "AWS_SECRET_ACCESS_KEY", "auth_token",
            "privateKey", "STRIPE_SK", "password"]
    forms = ["{k}={v}", "{k}='{v}'", '{k}="{v}"', "export {k}={v}", "{k}: {v}", '"{k}": "{v}",', "{k} = \"{v}\"",
             "<{k}>{v}</{k}>"]
    for _ in range(400):
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(12, 40)))
        key = rng.choice(keys)
        line = rng.choice(forms).format(k=key, v=value)
        noise = "\n".join(rng.choice(["# comment", "DEBUG=true", "PORT=8080", "NODE_ENV=production", ""]) for _ in range(3))
        text = f"{noise}\n{line}\n{noise}"
        redactor = Redactor()
        redactor.add(*secret_values(text), min_length=8)
        assert value not in redactor.redact(text), text
        assert "production" in redactor.redact("production")


def test_names_printed_otherwise_do_not_hide_a_secret_from_the_listing(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    _git(root, "init", "-q")
    (root / "credentials").write_text(f"token={TOKEN}\n")
    (root / ".env").write_text(f"A={TOKEN}\n")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("x\n")
    _git(root, "add", "-f", "-A")
    _git(root, "commit", "-qm", "x")
    (root / "credentials").write_text(f"token={TOKEN}2\n")
    for command in ("git diff -p --line-prefix=x", "git diff --line-prefix x -p", "git diff --relative=src -p",
                    "git diff --src-prefix=a/ --dst-prefix=b/", "git diff --name-status -p", "git diff --no-relative"):
        assert not classify(command, root=root).read_only, command
    _git(root, "checkout", "-q", "--", "credentials")
    _git(root, "mv", ".env", "notes.txt")  # renamed and changed: its lines show under the new name
    (root / "notes.txt").write_text(f"A={TOKEN}\nB=1\n")
    _git(root, "add", "notes.txt")
    for command in ("git diff --cached", "git diff --cached -M", "git diff --cached --find-renames=50%"):
        assert not classify(command, root=root).read_only, command
    assert classify("git diff --cached -- src", root=root).read_only


@pytest.mark.parametrize("command", ["cd libs/sub && git remote -v", "cd vendor/lib && git remote -v",
                                     "cd libs/sub && git config --local --list", "cd vendor/lib && git remote get-url origin"])
def test_a_nested_repository_s_token_is_not_printed_by_git_either(command: str, repo: Path) -> None:
    assert not classify(command, root=repo).read_only, command


FAKE_RG = r'''#!/usr/bin/env python3
# rg --files as far as the judge uses it: hidden files only with --hidden or -uu, no ignore files
import os, sys
args = sys.argv[1:]
assert "--files" in args, args  # with the person's own ripgrep config, as the real rg
hidden = "--hidden" in args or args.count("-u") >= 2
paths = args[args.index("--") + 1:] or ["."]
out = []
for p in paths:
    if os.path.isfile(p):
        out.append(p)
        continue
    for top, dirs, files in os.walk(p):
        dirs[:] = [d for d in dirs if d != ".git" and (hidden or not d.startswith("."))]
        out += [os.path.join(top, f) for f in files if hidden or not f.startswith(".")]
sys.stdout.write("".join(o + "\0" for o in out))
'''


def test_rg_s_scope_is_what_rg_lists(tmp_path: Path, monkeypatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "rg").write_text(FAKE_RG)
    (bin_dir / "rg").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    root = tmp_path / "r"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("TODO\n")
    (root / ".env").write_text("A=1\n")
    for command in ("rg TODO", "rg -n TODO src", "rg TODO -g '*.py'", "rg -l TODO --hidden"):
        assert classify(command, root=root).read_only, command
    for command in ("rg --hidden TODO", "rg -uu TODO", "rg TODO . --hidden -n"):
        verdict = classify(command, root=root)
        assert not verdict.read_only and ".env" in verdict.reason, command
    (root / "creds.tfvars").write_text("x = 1\n")  # not hidden: rg reads it
    assert not classify("rg TODO", root=root).read_only
    assert classify("rg TODO src", root=root).read_only


def test_without_rg_its_scope_is_judged_wider_than_rg_would_read(tmp_path: Path, monkeypatch) -> None:
    from mrsmith_tui.tools.shell import scope

    monkeypatch.setattr(scope.shutil, "which", lambda *a, **k: None)
    root = tmp_path / "r"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("TODO\n")
    (root / ".env").write_text("A=1\n")
    assert classify("rg TODO", root=root).read_only  # .env is hidden: rg skips it unless told
    for command in ("rg --hidden TODO", "rg -uu TODO", "rg TODO .env"):
        assert not classify(command, root=root).read_only, command
    (root / "src" / "id_rsa").write_text("k\n")
    assert not classify("rg TODO", root=root).read_only
    assert not classify("rg TODO src", root=root).read_only
