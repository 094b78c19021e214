"""The shell classifier: one row per command that must ask, and per command that must not."""

from __future__ import annotations

import pytest

from mrsmith_tui.tools.shell_classify import classify

MUST_ASK = [
    "ls; rm -rf x",
    "rm -rf /",
    "cat a > b",
    "cat a >> b",
    "echo hi >| f",
    "ls &> out.txt",
    "ls &>> out.txt",
    "ls 2> err.txt",
    "ls >& file.txt",
    "cat <> f",
    "echo $(touch x)",
    "echo `touch x`",
    'echo "a$(rm x)b"',
    "diff <(rm x) <(ls)",
    "ls > >(cat)",
    "(cd sub; rm x)",
    "{ ls; rm x; }",
    "ls && mv a b",
    "ls || cp a b",
    "ls | tee f",
    "tee f",
    "find . -delete",
    "find . -name x -exec rm {} +",
    "find . -execdir sh -c id \\;",
    "find . -fprint out.txt",
    "find . -ok rm {} \\;",
    "find . \\-delete",
    "find . -name *.py",  # an unquoted glob could expand to '-delete'
    "sed -i s/a/b/ f",
    "sed -ni 's/a/b/p' f",
    "sed --in-place s/a/b/ f",
    "sed 's/a/b/w out.txt' f",
    "sed -e '1e id' f",
    "sed -f script.sed f",
    "git -c core.pager=sh log",
    "git --config-env=core.pager=X log",
    "git -p log",
    "git --paginate log",
    "git -C /elsewhere status",
    "git --git-dir=/x/.git log",
    "git commit -m x",
    "git push",
    "git checkout -- .",
    "git branch new-branch",
    "git tag v1",
    "git stash",
    "git config user.name x",
    "git diff --output=patch.txt",
    "git log --ext-diff",
    "git grep -Oless foo",
    "xargs rm",
    "find . | xargs rm",
    "xargs sed -i s/a/b/",
    "xargs find",
    "env rm x",
    "env FOO=1 ls",
    "env -S 'rm x'",
    "FOO=bar ls",
    "PATH=/tmp ls",
    "sudo ls",
    "bash -c 'ls'",
    "sh -c ls",
    "eval ls",
    "source ./x.sh",
    ". ./x.sh",
    "exec ls",
    "nice rm x",
    "nice -n 5 rm x",
    "timeout 5 rm x",
    "nohup rm x",
    "time rm x",
    "command rm x",
    "cat <<EOF > notes.txt\nhello\nEOF",
    "sort -o out.txt in.txt",
    "sort --output=out in",
    "sort --compress-program=sh x",
    "uniq in.txt out.txt",
    "tree -o out.txt",
    "rg --pre ./evil foo",
    "file -C -m magic",
    "date -s 2020-01-01",
    "./ls",
    "/bin/rm x",
    "$cmd x",
    "f() { rm x; }; f",
    "export X=1",
    "unset PATH",
    "touch x",
    "mkdir d",
    "python script.py",
    "npm install",
    "make",
    "curl http://x",
    "echo 'unterminated",
    "ls $(",
    "awk '{print}' f",
    "ls\nrm x",
    "cat a | sh",
    "for f in a b; do rm $f; done",
    "if true; then mv a b; fi",
]

MUST_NOT_ASK = [
    "ls",
    "ls -la src",
    "cat README.md",
    "head -n 5 a.txt",
    "tail -f /dev/null",
    "wc -l *.py",
    "grep -rn 'TODO' src",
    "rg foo --type py",
    "find . -name '*.py' -type f",
    "find src -maxdepth 2",
    "pwd",
    "echo hello world",
    "which python",
    "file a.bin",
    "stat a.txt",
    "du -sh .",
    "df -h",
    "tree -L 2",
    "sort -rn counts.txt",
    "sort a | uniq -c",
    "cut -d: -f1 /etc/passwd",
    "diff a b",
    "diff <(ls a) <(ls b)",
    "git status",
    "git log --oneline -n 5",
    "git diff HEAD~1",
    "git show HEAD:src/a.py",
    "git blame a.py",
    "git rev-parse HEAD",
    "git ls-files",
    "git --no-pager log",
    "git branch",
    "git branch -a",
    "git tag -l",
    "git remote -v",
    "git stash list",
    "git config --get user.name",
    "ls | grep x | wc -l",
    "ls && git status; pwd",
    "(cd src && ls)",
    "echo $(git rev-parse HEAD)",
    "ls > /dev/null 2>&1",
    "ls 2>/dev/null",
    "cat < a.txt",
    "sed -n '1,20p' a.txt",
    "sed 's/foo/bar/g' a.txt",
    "find . -name x | xargs grep foo",
    "xargs -n 1 echo",
    "timeout 5 ls",
    "nice -n 10 grep x a",
    "env",
    "command -v git",
    "cat <<EOF\nhello\nEOF",
    "echo \"$HOME\"",
    "for f in a b; do echo $f; done",
    "test -f a.txt && cat a.txt",
    "date",
    "git log --format='%H %s' | head -3",
]


@pytest.mark.parametrize("command", MUST_ASK)
def test_must_ask(command: str) -> None:
    verdict = classify(command)
    assert not verdict.read_only
    assert verdict.spec.startswith("shell:") and verdict.reason


@pytest.mark.parametrize("command", MUST_NOT_ASK)
def test_must_not_ask(command: str) -> None:
    verdict = classify(command)
    assert verdict.read_only, verdict


@pytest.mark.parametrize(
    ("command", "spec"),
    [
        ("git commit -m x", "shell:git commit"),
        ("ls && git commit -m x", "shell:git commit"),
        ("git commit -m x; rm y", "shell:git commit, shell:rm"),
        ("rm -rf build", "shell:rm"),
        ("timeout 5 rm x", "shell:rm"),
        ("npm install left-pad", "shell:npm install"),
        ("echo hi > notes.txt", "shell:echo hi > notes.txt"),
    ],
)
def test_approval_spec(command: str, spec: str) -> None:
    assert classify(command).spec == spec


def test_configured_harmless_and_dangerous() -> None:
    assert classify("cargo check", harmless=["cargo check"]).read_only
    assert not classify("cargo build", harmless=["cargo check"]).read_only
    assert classify("make -j4 all", harmless=["make"]).read_only
    assert classify("ls | pytest -q", harmless=["pytest"]).read_only
    # dangerous wins, over built-ins and over harmless
    assert not classify("cat a", dangerous=["cat"]).read_only
    v = classify("git log", harmless=["git"], dangerous=["git log"])
    assert not v.read_only and v.spec == "shell:git log" and "dangerous" in v.reason
    assert classify("git status", dangerous=["git log"]).read_only
