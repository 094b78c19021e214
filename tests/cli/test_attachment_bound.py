"""-f FILE is read bounded, whatever its size said a moment before (a log still being written)."""

from __future__ import annotations

import os
import pathlib

import pytest

from mrsmith_tui.cli import command
from mrsmith_tui.cli.args import UsageError


def test_a_file_that_grew_after_its_size_was_read_is_refused_not_read_whole(tmp_path, monkeypatch):
    log = tmp_path / "growing.log"
    log.write_bytes(b"x" * (command.MAX_ATTACHMENT_BYTES + 4096))
    real_stat = pathlib.Path.stat

    def stat_when_it_was_small(self, *a, **kw):
        st = real_stat(self, *a, **kw)
        if self == log:
            fields = list(st)
            fields[6] = 10  # st_size as it was when looked at
            return os.stat_result(fields)
        return st

    monkeypatch.setattr(pathlib.Path, "stat", stat_when_it_was_small)
    with pytest.raises(UsageError, match="byte limit"):
        command._read_attachment(str(log))


def test_a_file_within_the_limit_is_read_whole(tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("all of it\n")
    assert command._read_attachment(str(note)) == "all of it\n"
