"""/undo's record and restore: exact bytes back (binary too), created files removed, N turns, private
folders, caps, and a tree changed under it (a symbolic link swapped in) refused."""

from __future__ import annotations

import itertools
import json
import os
import stat
from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools import checkpoints as cp
from mrsmith_tui.tools.checkpoints import Checkpoints
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.undo import plan_lines, recorded_turns, undo
from mrsmith_tui.tools.write_file import WriteFileTool


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    folder = tmp_path / "sessions" / "0190abcd"
    folder.mkdir(parents=True, mode=0o700)
    path = folder / "transcript.jsonl"
    path.write_text("")
    return path


@pytest.fixture
def tctx(ctx, transcript):
    ctx.checkpoints = Checkpoints(lambda: transcript)
    return ctx


def turn(ctx) -> None:
    """A new person's turn: a new run token on the tool context (as Conversation.run_turn sets it)."""
    ctx.cancel = CancelToken()


def write(ctx, path: str, content: str) -> None:
    result = WriteFileTool().run({"path": path, "content": content}, ctx)
    assert result.ok, result.content


def test_exact_bytes_come_back_and_a_created_file_goes(tctx, root: Path, transcript: Path) -> None:
    binary = bytes(range(256)) * 3 + b"\x00\xff\r\n"
    (root / "blob.bin").write_bytes(binary)
    (root / "text.txt").write_text("before\n")
    turn(tctx)
    write(tctx, "blob.bin", "replaced\n")
    assert EditTool().run({"path": "text.txt", "old": "before", "new": "after"}, tctx).ok
    write(tctx, "text.txt", "written twice in the turn\n")  # the first write keeps the state before the turn
    write(tctx, "new/made.txt", "created\n")
    lines = plan_lines(recorded_turns(transcript))
    assert lines == ["blob.bin: put back as it was", "text.txt: put back as it was", "new/made.txt: created by the turn: removed"]
    out = undo(root, transcript, 1)
    assert out.refused == 0 and out.restored == 3
    assert (root / "blob.bin").read_bytes() == binary
    assert (root / "text.txt").read_text() == "before\n"
    assert not (root / "new" / "made.txt").exists()
    assert out.lines[-1] == "(files changed by shell commands are not tracked and stay as they are)"
    assert recorded_turns(transcript) == []  # undone turns are forgotten
    assert undo(root, transcript, 1).lines[0].startswith("nothing to undo")


def test_n_steps_back_newest_first(tctx, root: Path, transcript: Path) -> None:
    (root / "a.txt").write_text("v1\n")
    for n, content in ((2, "v2\n"), (3, "v3\n"), (4, "v4\n")):
        turn(tctx)
        write(tctx, "a.txt", content)
        if n == 3:
            write(tctx, "b.txt", "made in turn 3\n")
    assert [t.number for t in recorded_turns(transcript)] == [3, 2, 1]
    out = undo(root, transcript, 2)
    assert out.refused == 0
    assert (root / "a.txt").read_text() == "v2\n" and not (root / "b.txt").exists()
    undo(root, transcript, 1)
    assert (root / "a.txt").read_text() == "v1\n"


def test_checkpoints_are_private(tctx, root: Path, transcript: Path) -> None:
    (root / ".env").write_text("TOKEN=secret\n")
    turn(tctx)
    write(tctx, "x.txt", "x\n")
    os.chmod(root / ".env", 0o644)
    write(tctx, "y.txt", "y\n")
    folder = transcript.parent / "checkpoints"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (turn_dir,) = list(folder.iterdir())
    assert turn_dir.name == "turn-000001" and stat.S_IMODE(turn_dir.stat().st_mode) == 0o700
    for f in turn_dir.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


def test_a_blob_holds_the_prior_bytes_with_0600(tctx, root: Path, transcript: Path) -> None:
    (root / "k.txt").write_text("secret bytes\n")
    turn(tctx)
    write(tctx, "k.txt", "new\n")
    blob = transcript.parent / "checkpoints" / "turn-000001" / "000001.bin"
    assert blob.read_bytes() == b"secret bytes\n" and stat.S_IMODE(blob.stat().st_mode) == 0o600


def test_a_symlink_swapped_in_is_refused(tctx, root: Path, transcript: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.txt").write_text("outside, untouched\n")
    (root / "sub").mkdir()
    (root / "sub" / "a.txt").write_text("inside\n")
    turn(tctx)
    write(tctx, "sub/a.txt", "changed\n")
    (root / "sub" / "a.txt").unlink()
    (root / "sub").rmdir()
    os.symlink(outside, root / "sub")  # the folder is now a link out of the root
    out = undo(root, transcript, 1)
    assert out.refused == 1 and out.lines[0].startswith("sub/a.txt: refused: ")
    assert (outside / "a.txt").read_text() == "outside, untouched\n"
    assert [t.number for t in recorded_turns(transcript)] == [1]  # kept: fix it and undo again


def test_the_file_itself_swapped_for_a_link_is_refused(tctx, root: Path, transcript: Path, tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("not yours\n")
    (root / "a.txt").write_text("a\n")
    turn(tctx)
    write(tctx, "a.txt", "b\n")
    write(tctx, "made.txt", "made\n")
    (root / "a.txt").unlink()
    os.symlink(target, root / "a.txt")
    (root / "made.txt").unlink()
    os.symlink(target, root / "made.txt")
    out = undo(root, transcript, 1)
    assert out.refused == 2 and target.read_text() == "not yours\n"
    assert (root / "made.txt").is_symlink()


def test_big_files_and_a_full_session_are_not_undoable(tctx, root: Path, transcript: Path, monkeypatch) -> None:
    monkeypatch.setattr(cp, "MAX_FILE_BYTES", 10)
    (root / "big.txt").write_text("x" * 11)
    (root / "small.txt").write_text("small")
    turn(tctx)
    write(tctx, "big.txt", "new\n")
    write(tctx, "small.txt", "new\n")
    assert plan_lines(recorded_turns(transcript)) == ["big.txt: not undoable: larger than 0 MiB",
                                                      "small.txt: put back as it was"]
    monkeypatch.setattr(cp, "MAX_SESSION_BYTES", 6)
    (root / "more.txt").write_text("more")
    turn(tctx)
    write(tctx, "more.txt", "new\n")
    assert "this session's checkpoints are full" in plan_lines(recorded_turns(transcript))[0]
    undo(root, transcript, 2)
    assert (root / "small.txt").read_text() == "small" and (root / "big.txt").read_text() == "new\n"


def test_only_the_last_turns_are_kept(tctx, root: Path, transcript: Path, monkeypatch) -> None:
    monkeypatch.setattr(cp, "MAX_TURNS", 3)
    for n in range(6):
        turn(tctx)
        write(tctx, "a.txt", f"{n}\n")
    assert [t.number for t in recorded_turns(transcript)] == [6, 5, 4]


def test_no_session_folder_records_nothing(ctx, root: Path) -> None:
    ctx.checkpoints = Checkpoints(lambda: None)
    write(ctx, "a.txt", "x\n")
    assert (root / "a.txt").read_text() == "x\n"
    assert undo(root, None, 1).lines[0].startswith("nothing to undo")


def test_a_torn_manifest_is_not_offered(tctx, root: Path, transcript: Path) -> None:
    turn(tctx)
    write(tctx, "a.txt", "x\n")
    (transcript.parent / "checkpoints" / "turn-000001" / "manifest.json").write_text('{"files": [')
    assert recorded_turns(transcript) == []


# ------------------------------------------------------------------ hostile records: nothing outside moves


def _hostile_paths() -> list[str]:
    heads = ["..", "/", "./..", "a/..", "a/../..", "link", "link/..", "sub/../../", "//", "~"]
    tails = ["x", "outside/a.txt", "etc/passwd", "", ".", "link/a.txt"]
    return [f"{h}/{t}" if t else h for h, t in itertools.product(heads, tails)] + [
        "/tmp/x", "../../../../../../etc/passwd", "sub/../../outside/a.txt", "link/a.txt", "link"]


HOSTILE = [(p, s) for p in _hostile_paths() for s in ("file", "absent", "other", None)] \
    + [(p, "file") for p in ("a.txt", "sub/a.txt")]


def test_the_hostile_table_is_wide() -> None:
    assert len(HOSTILE) > 250


@pytest.mark.parametrize(("rel", "state"), HOSTILE)
def test_a_hostile_record_never_touches_outside(rel, state, root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "a.txt").write_text("outside\n")
    os.symlink(outside, root / "link")
    (root / "sub").mkdir()
    turn_dir = tmp_path / "s" / "checkpoints" / "turn-000001"
    turn_dir.mkdir(parents=True)
    (turn_dir / "000001.bin").write_bytes(b"EVIL")
    entry = {"path": rel, "shown": rel, "state": state, "blob": "000001.bin", "size": 4}
    (turn_dir / "manifest.json").write_text(json.dumps({"files": [entry]}))
    before = sorted(p.name for p in tmp_path.iterdir())
    out = undo(root, tmp_path / "s" / "transcript.jsonl", 1)
    assert (outside / "a.txt").read_text() == "outside\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert all("\n" not in line for line in out.lines)
