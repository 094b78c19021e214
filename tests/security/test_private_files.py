"""Private folders and files: mrsmith's own 0700/0600, other people's folders left alone."""

from __future__ import annotations

import os
import stat

import pytest

from mrsmith_tui.security.private_files import NotOurs, owned_private_dir, private_dir
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.tui.shell.history_file import append_history, load_history


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_only_mrsmith_folders_are_made_0700(tmp_path):
    os.umask(0o022)
    folder = tmp_path / ".local" / "share" / "mrsmith" / "sessions" / "abc"
    private_dir(folder, levels=2)
    assert mode(tmp_path / ".local") == 0o755 and mode(tmp_path / ".local" / "share") == 0o755
    assert mode(folder) == mode(folder.parent) == mode(tmp_path / ".local" / "share" / "mrsmith") == 0o700


def test_prompt_history_is_private_and_redacted(tmp_path):
    PROCESS.add("sk-HISTORY-KEY-123456")
    history = tmp_path / "config" / "mrsmith" / "history"
    append_history(history, "use sk-HISTORY-KEY-123456 please", ())
    assert mode(history) == 0o600 and mode(history.parent) == 0o700
    assert "sk-HISTORY-KEY-123456" not in history.read_text()
    assert load_history(history) == ("use [redacted] please",)


def test_an_older_history_file_is_tightened(tmp_path):
    history = tmp_path / "history"
    history.write_text('"old"\n')
    os.chmod(history, 0o644)
    append_history(history, "new", ())
    assert mode(history) == 0o600 and load_history(history) == ("old", "new")


def test_a_job_log_folder_that_is_not_ours_is_refused(tmp_path):
    real = tmp_path / "elsewhere"
    real.mkdir()
    (tmp_path / "mrsmith-1").symlink_to(real)
    with pytest.raises(NotOurs):
        owned_private_dir(tmp_path / "mrsmith-1")
    loose = tmp_path / "mrsmith-2"
    loose.mkdir(mode=0o777)
    os.chmod(loose, 0o777)
    assert mode(owned_private_dir(loose)) == 0o700
