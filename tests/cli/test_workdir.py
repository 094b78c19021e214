"""A working directory deleted under the shell is said in words, exit 2, whatever the command."""

from __future__ import annotations

import pytest

from mrsmith_tui.cli import main


@pytest.mark.parametrize("argv", [["-p", "hi"], ["--list"], ["tools", "list"], ["export", "some-id"]])
def test_a_deleted_working_directory_is_one_line(tmp_path, monkeypatch, capsys, argv):
    gone = tmp_path / "project"
    gone.mkdir()
    monkeypatch.chdir(gone)
    monkeypatch.setenv("PWD", str(gone))
    gone.rmdir()
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"mrsmith: error: the working directory {gone} no longer exists (deleted or moved): cd to one that does\n"


def test_a_stale_pwd_is_not_named(tmp_path, monkeypatch, capsys):
    gone = tmp_path / "project"
    gone.mkdir()
    monkeypatch.chdir(gone)
    monkeypatch.setenv("PWD", str(tmp_path))  # exists: not the folder that went away
    gone.rmdir()
    assert main(["-p", "hi"]) == 2
    assert capsys.readouterr().err.startswith("mrsmith: error: the working directory no longer exists")
