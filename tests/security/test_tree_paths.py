"""Class 2 of issue #21: the person's environment must not point a child (or mrsmith's own git
look-ups) at code or config in the tree. Generated variants over every variable the module knows."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mrsmith_tui.security.environment import NO_TERMINAL, child_environment
from mrsmith_tui.security.tree_paths import COMMAND_VARIABLES, FILE_VARIABLES, LOADER_LISTS, SEARCH_LISTS, neutralise


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "root"
    (r / "lib").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "alias").symlink_to(r)  # an outside path that leads back in
    return r.resolve()


@pytest.fixture
def ctx_factory():
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.tools.base import ToolContext

    class NoApprover:
        def approve(self, query):
            return "no"

        def confirm_continue(self, rounds, agent_id=None):
            return False

        def ask(self, questions, agent_id=None):
            return None

    return lambda r: ToolContext(root=r, cancel=CancelToken(), approver=NoApprover())


def _bad_entries(root: Path) -> list[str]:
    return ["", ".", "..", "lib", "./lib", "../root/lib", "lib/../..", str(root), str(root / "lib"),
            str(root) + "/", str(root.parent / "alias" / "lib"), str(root / "lib" / ".." / "lib")]


def _good_entries(root: Path) -> list[str]:
    return ["/usr/lib", "/opt/x/lib", str(root.parent / "outside")]


def _separator(name: str) -> str:
    return ";" if name in ("LUA_PATH", "LUA_CPATH") else ":"


@pytest.mark.parametrize("name", sorted(LOADER_LISTS))
def test_a_loader_list_keeps_no_empty_relative_or_in_tree_entry(name: str, root: Path) -> None:
    sep = _separator(name)
    bad, good = _bad_entries(root), _good_entries(root)
    for k in range(1, 4):
        for combo in itertools.permutations(bad + good, k):
            out, _ = neutralise({name: sep.join(combo)}, root)
            kept = out.get(name, "").split(sep) if name in out else []
            assert all(e in good for e in kept), (combo, kept)
            assert [e for e in combo if e in good] == kept


@pytest.mark.parametrize("name", sorted(SEARCH_LISTS - {"CDPATH"}))
def test_a_search_list_keeps_absolute_entries_and_drops_empty_and_relative_ones(name: str, root: Path) -> None:
    value = f":/usr/bin:.:bin:{root / 'lib'}::/bin:"
    out, changed = neutralise({name: value}, root)
    assert out[name] == f"/usr/bin:{root / 'lib'}:/bin" and changed == [name]
    helper, _ = neutralise({name: value}, root, helper=True)
    assert helper[name] == "/usr/bin:/bin"  # mrsmith's own processes: nothing inside the root either


@pytest.mark.parametrize("name", sorted(FILE_VARIABLES))
def test_a_config_file_variable_pointing_into_the_tree_is_dropped(name: str, root: Path) -> None:
    for value in (".ripgreprc", "./x", "x/y", "lib", str(root / "cfg"), str(root.parent / "alias" / "cfg"), ".",
                  "~/.config/x"):  # no program expands a literal ~: it is a folder named ~ here
        out, changed = neutralise({name: value}, root)
        assert name not in out and changed == [name], value
    for value in ("/etc/x", str(root.parent / "outside" / "cfg")):
        assert neutralise({name: value}, root)[0] == {name: value}, value


@pytest.mark.parametrize("name", sorted(COMMAND_VARIABLES))
def test_a_command_or_options_variable_naming_a_tree_file_is_dropped(name: str, root: Path) -> None:
    for value in ("--require ./hook.js", "-I./lib", "-r./x", "--to-command=./x", f"-javaagent:{root}/a.jar",
                  "sh ./x", f"{root}/bin/pager -R", "| ./lessopen.sh %s"):
        out, _ = neutralise({name: value}, root)
        assert name not in out, value
    for value in ("less -R", "-R", "--max-old-space-size=4096", "vim", "-I/usr/lib/perl5", "-j4"):
        assert neutralise({name: value}, root)[0] == {name: value}, value


def test_git_variables_and_config_pairs(root: Path) -> None:
    env = {"GIT_CONFIG_GLOBAL": ".gitconfig", "GIT_DIR": ".git", "GIT_TRACE": "./trace", "GIT_AUTHOR_NAME": "A B",
           "GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "core.pager", "GIT_CONFIG_VALUE_0": "less",
           "GIT_CONFIG_KEY_1": "core.fsmonitor", "GIT_CONFIG_VALUE_1": "./hook",
           "GIT_CONFIG_PARAMETERS": "'core.sshcommand'='./ssh'", "GIT_SSH_COMMAND": "ssh -i ~/.ssh/k", "GIT_TRACE2": "1"}
    out, _ = neutralise(env, root)
    assert out == {"GIT_AUTHOR_NAME": "A B", "GIT_SSH_COMMAND": "ssh -i ~/.ssh/k", "GIT_TRACE2": "1"}


def test_child_environment_neutralises_only_with_a_root(root: Path) -> None:
    environ = {"LD_LIBRARY_PATH": "/opt/lib:", "RIPGREP_CONFIG_PATH": ".ripgreprc", "HOME": "/home/x"}
    assert child_environment(environ=environ) == environ | NO_TERMINAL
    assert child_environment(environ=environ, root=root) == {"LD_LIBRARY_PATH": "/opt/lib", "HOME": "/home/x"} | NO_TERMINAL


def test_bash_env_in_the_tree_is_not_sourced_by_a_shell_command(root: Path, monkeypatch, ctx_factory) -> None:
    from mrsmith_tui.tools.shell.tool import ShellTool

    (root / "rc").write_text("touch sourced\n")
    monkeypatch.setenv("BASH_ENV", "rc")
    monkeypatch.setenv("LD_PRELOAD", "./libevil.so")
    result = ShellTool().run({"command": "echo ran"}, ctx_factory(root))
    assert "ran" in result.content and "libevil" not in result.content
    assert not (root / "sourced").exists()


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")
def test_an_exported_ripgrep_config_in_the_tree_runs_nothing(root: Path, monkeypatch, ctx_factory) -> None:
    from mrsmith_tui.tools.shell.tool import ShellTool

    (root / "p").write_text("#!/bin/sh\ntouch pwned\ncat \"$1\"\n")
    (root / "p").chmod(0o755)
    (root / ".ripgreprc").write_text("--pre=./p\n")
    (root / "a.txt").write_text("needle\n")
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", ".ripgreprc")
    result = ShellTool().run({"command": "rg needle"}, ctx_factory(root))
    assert "needle" in result.content
    assert not (root / "pwned").exists()


def test_mrsmiths_own_git_look_ups_read_no_config_the_tree_names(root: Path, monkeypatch) -> None:
    from mrsmith_tui.tools.shell.repo_config import helper_git

    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "evil.gitconfig").write_text("[core]\n\tfsmonitor = ./hook\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "evil.gitconfig")
    monkeypatch.setenv("PATH", f"{root}:.:{os.environ['PATH']}")
    (root / "git").write_text("#!/bin/sh\ntouch pwned\n")
    (root / "git").chmod(0o755)
    done = helper_git(str(root), str(root), "config", "--list", "--show-scope")
    assert done is not None and done.returncode == 0
    assert "fsmonitor" not in done.stdout
    assert not (root / "pwned").exists()


def test_bash_options_and_exported_functions_do_not_reach_the_child(root: Path, monkeypatch, ctx_factory) -> None:
    from mrsmith_tui.tools.shell.tool import ShellTool

    (root / ".env").write_text("A=1\n")
    (root / "a.txt").write_text("plain\n")
    monkeypatch.setenv("BASHOPTS", "dotglob")
    monkeypatch.setenv("GLOBIGNORE", "x")
    monkeypatch.setenv("BASH_FUNC_cat%%", "() { /bin/cat .env; }")
    result = ShellTool().run({"command": "echo *; cat a.txt"}, ctx_factory(root))
    assert ".env" not in result.content and "A=1" not in result.content and "plain" in result.content


def test_cdpath_keeps_bash_s_own_dot_and_drops_other_relative_entries(root: Path) -> None:
    for value, kept in ((".:/x", ".:/x"), (":/x", ":/x"), (".:/x:lib:./sub:../up", ".:/x"), ("lib", None)):
        out, _ = neutralise({"CDPATH": value}, root)
        assert out.get("CDPATH") == kept, value


@pytest.mark.parametrize("name", ["LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_LIBRARY_PATH"])
@pytest.mark.parametrize("tail", [";", ";.", ";lib", ";{root}/lib", ";;/usr/lib", "; ./x", ":.;/usr"])
def test_loader_lists_are_split_on_semicolons_as_glibc_does(name: str, tail: str, root: Path) -> None:
    out, changed = neutralise({name: "/opt/lib" + tail.format(root=root)}, root)
    entries = out.get(name, "").replace(";", ":").split(":")
    assert name in changed and all(os.path.isabs(e) and not e.startswith(str(root)) for e in entries), out


def test_preload_is_split_on_tabs_and_spaces_too(root: Path) -> None:
    out, _ = neutralise({"LD_PRELOAD": "/a.so\tx.so"}, root)
    assert out.get("LD_PRELOAD") == "/a.so"


@pytest.mark.parametrize("name", ["RIPGREP_CONFIG_PATH", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME",
                                  "BASH_ENV", "GIT_CONFIG", "INPUTRC", "NPM_CONFIG_USERCONFIG", "DOCKER_CONFIG"])
@pytest.mark.parametrize("value", ["~/.cfg", "~", "~/", "~user/x", "~/.config/git/config"])
def test_a_literal_tilde_is_relative_since_no_program_expands_it(name: str, value: str, root: Path) -> None:
    out, changed = neutralise({name: value}, root)
    assert name not in out and name in changed
