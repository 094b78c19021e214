"""Every error mrsmith raises on purpose is a MrSmithError with its exit code and a one-line
message, and the CLI turns each into `mrsmith: error: <one line>` and that code in one place."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import mrsmith_tui
from mrsmith_tui.cli import command as cli
from mrsmith_tui.errors import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    MrSmithError,
    error_line,
    exit_code_for,
    one_line,
)

REPO = Path(__file__).resolve().parents[2]

# qualified class name -> (exit code, how to make one with a message spread over two lines)
TABLE: dict[str, tuple[int, Callable[[type], BaseException]]] = {
    "mrsmith_tui.cli.args.UsageError": (EXIT_USAGE, lambda c: c("bad flag\nsee --help")),
    "mrsmith_tui.config.load.ConfigError": (EXIT_USAGE, lambda c: c("bad config\nline 2")),
    "mrsmith_tui.session.store.SessionNotFound": (EXIT_USAGE, lambda c: c("no session\nat all")),
    "mrsmith_tui.core.resume.OtherFolder": (EXIT_USAGE, lambda c: c("another\nfolder", Path("/x"))),
    "mrsmith_tui.session.export.ExportError": (EXIT_USAGE, lambda c: c("cannot write\nthere")),
    "mrsmith_tui.config.fields.LocatedError": (EXIT_FAILED, lambda c: c(("a", 0), "bad\nvalue")),
    "mrsmith_tui.config.fields.Invalid": (EXIT_FAILED, lambda c: c(("a", 0), "missing", "bad\nvalue")),
    "mrsmith_tui.skills.skill.SkillError": (EXIT_FAILED, lambda c: c("bad skill\nfile")),
    "mrsmith_tui.core.custom_commands.CommandFileError": (EXIT_FAILED, lambda c: c("bad command\nfile")),
    "mrsmith_tui.provider.types.ProviderError": (EXIT_FAILED, lambda c: c("server down\nretry")),
    "mrsmith_tui.provider.sse.SSELineTooLong": (EXIT_FAILED, lambda c: c(10)),
    "mrsmith_tui.agents.fleet.FleetError": (EXIT_FAILED, lambda c: c("no agent\nthere")),
    "mrsmith_tui.tools.edit_match.EditError": (EXIT_FAILED, lambda c: c("no match\nhere")),
    "mrsmith_tui.tools.sandbox.SandboxError": (EXIT_FAILED, lambda c: c("outside\nthe root")),
    "mrsmith_tui.tools.dirfd.Unsafe": (EXIT_FAILED, lambda c: c("changed\nwhile opening")),
    "mrsmith_tui.tools.globmatch.GlobError": (EXIT_FAILED, lambda c: c("bad\nglob")),
    "mrsmith_tui.tools.web_fetch.FetchError": (EXIT_FAILED, lambda c: c("not\nfetched")),
    "mrsmith_tui.cancel.Cancelled": (EXIT_FAILED, lambda c: c("cancelled\nnow")),
    "mrsmith_tui.security.private_files.NotOurs": (EXIT_FAILED, lambda c: c("not ours\nat all")),
    "mrsmith_tui.mcp.expand.ExpandError": (EXIT_FAILED, lambda c: c("${X} is\nnot set")),
    "mrsmith_tui.mcp.service.McpError": (EXIT_FAILED, lambda c: c("no MCP server\nnamed x")),
}
# A caller catches these by their older base: they keep it.
KEPT_BASES = {"LocatedError": ValueError, "Invalid": ValueError, "SSELineTooLong": ValueError, "GlobError": ValueError, "NotOurs": OSError}


def _every_subclass() -> dict[str, type[MrSmithError]]:
    for info in pkgutil.walk_packages(mrsmith_tui.__path__, "mrsmith_tui."):
        if not info.name.startswith(("mrsmith_tui.tui", "mrsmith_tui.bundled", "mrsmith_tui.__main__")):
            importlib.import_module(info.name)
    found: dict[str, type[MrSmithError]] = {}
    todo = list(MrSmithError.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("mrsmith_tui."):
            found[f"{cls.__module__}.{cls.__qualname__}"] = cls
        todo.extend(cls.__subclasses__())
    return found


def test_every_error_raised_on_purpose_is_in_the_table_with_its_exit_code():
    classes = _every_subclass()
    public = {name for name in classes if not name.rsplit(".", 1)[1].startswith("_")}
    assert public == set(TABLE), "a new MrSmithError: add it to TABLE with its exit code"
    for name, (code, make) in TABLE.items():
        error = make(classes[name])
        assert (name, error.exit_code, exit_code_for(error)) == (name, code, code)
        line = error_line(error)
        assert "\n" not in line and line, name
        if code == EXIT_USAGE:  # the person's to fix: the message speaks for itself
            assert line == error.one_line() and "␤" in line, name
        else:  # named by its type, its first line, as an unexpected error is
            assert line.startswith(f"{type(error).__name__}: ") and "␤" not in line, name


def test_older_bases_are_kept_where_callers_catch_them():
    classes = {name.rsplit(".", 1)[1]: cls for name, cls in _every_subclass().items()}
    for name, base in KEPT_BASES.items():
        assert issubclass(classes[name], base) and issubclass(classes[name], MrSmithError), name


def test_the_mapping_of_what_is_not_a_mrsmith_error():
    assert exit_code_for(KeyboardInterrupt()) == EXIT_INTERRUPTED
    assert exit_code_for(RuntimeError("x")) == EXIT_FAILED
    assert error_line(RuntimeError("odd\nsecond")) == "RuntimeError: odd"
    assert error_line(RuntimeError()) == "RuntimeError"
    assert one_line("  a\r\nb\n\nc  ") == "a ␤ b ␤  ␤ c"


@pytest.mark.parametrize("error, code, shown", [
    (cli.UsageError("bad\nflag"), 2, "mrsmith: error: bad ␤ flag\n"),
    (MrSmithError("plain\nfailure"), 1, "mrsmith: error: MrSmithError: plain\n"),
    (KeyError("k"), 1, "mrsmith: error: KeyError: 'k'\n"),
])
def test_main_prints_one_line_and_the_exit_code(monkeypatch, capsys, error, code, shown):
    def fail(args):
        raise error

    monkeypatch.delenv("MRSMITH_DEBUG", raising=False)
    monkeypatch.setattr(cli, "_main", fail)
    assert cli.main(["-p", "x"]) == code
    assert capsys.readouterr().err == shown


def _mrsmith(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "MRSMITH_SESSIONS_DIR": str(tmp_path / "sessions"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "NO_COLOR": "1"}
    env.pop("MRSMITH_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "mrsmith_tui", *argv], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("argv, code, line", [
    (["--all"], 2, "mrsmith: error: --all goes with --list"),  # UsageError
    (["export", "no-such-session"], 2, None),  # SessionNotFound
    (["view", "no-such-session"], 2, None),
    (["--config", "{missing}"], 2, None),  # ConfigError
])
def test_the_real_cli_ends_each_with_one_line_and_no_traceback(tmp_path, argv, code, line):
    argv = [a.replace("{missing}", str(tmp_path / "missing.toml")) for a in argv]
    done = _mrsmith(tmp_path, *argv)
    assert done.returncode == code
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("mrsmith: error: ") and "Traceback" not in done.stderr
    if line is not None:
        assert done.stderr.rstrip("\n") == line
