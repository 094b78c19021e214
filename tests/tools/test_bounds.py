"""Hostile files and floods: FIFOs, hard links, loops, huge files and output stay bounded."""

from __future__ import annotations

import os
from pathlib import Path

from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.fileio import MAX_DIFF_INPUT
from mrsmith_tui.tools.output_limit import HeadTail, LiveThrottle
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.write_file import WriteFileTool


def test_a_fifo_is_refused_without_blocking(ctx, root: Path) -> None:
    os.mkfifo(root / "pipe")
    assert "not a regular file" in ReadFileTool().run({"path": "pipe"}, ctx).content
    assert "not a regular file" in WriteFileTool().run({"path": "pipe", "content": "x"}, ctx).content


def test_a_hard_link_from_outside_is_refused_one_inside_is_not(ctx, root: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("OUTSIDE\n")
    os.link(tmp_path / "secret.txt", root / "linked.txt")
    r = ReadFileTool().run({"path": "linked.txt"}, ctx)
    assert not r.ok and "hard links" in r.content and "OUTSIDE" not in r.content
    w = WriteFileTool().run({"path": "linked.txt", "content": "new\n"}, ctx)
    assert not w.ok and (tmp_path / "secret.txt").read_text() == "OUTSIDE\n"
    (root / "a.txt").write_text("both inside\n")
    os.link(root / "a.txt", root / "b.txt")
    assert "both inside" in ReadFileTool().run({"path": "b.txt"}, ctx).content


def test_symlink_loops_and_long_names_are_one_line_errors(ctx, root: Path) -> None:
    os.symlink("b", root / "a")
    os.symlink("a", root / "b")
    r = ReadFileTool().run({"path": "a"}, ctx)
    assert not r.ok and "symlink loop" in r.content
    r = ReadFileTool().run({"path": "x" * 300}, ctx)
    assert not r.ok and "\n" not in r.content


def test_symlinks_inside_the_root_are_followed(ctx, root: Path) -> None:
    (root / "real").mkdir()
    (root / "real" / "f.txt").write_text("hello\n")
    os.symlink("real", root / "alias")
    assert "hello" in ReadFileTool().run({"path": "alias/f.txt"}, ctx).content
    assert WriteFileTool().run({"path": "alias/g.txt", "content": "via link\n"}, ctx).ok
    assert (root / "real" / "g.txt").read_text() == "via link\n" and (root / "alias").is_symlink()


def test_read_streams_a_page_anywhere_in_a_big_file(ctx, root: Path) -> None:
    with open(root / "big.txt", "w") as f:
        for i in range(1, 300_001):
            f.write(f"line {i}\n")
    r = ReadFileTool().run({"path": "big.txt", "offset": 250_000, "limit": 3}, ctx)
    assert r.content.splitlines()[:3] == ["250000\tline 250000", "250001\tline 250001", "250002\tline 250002"]
    assert "of 300000" in r.content and "offset=250003" in r.content


def test_read_of_a_huge_sparse_file_stops_at_the_prefix(ctx, root: Path) -> None:
    with open(root / "sparse.bin", "wb") as f:
        f.truncate(1 << 40)  # a terabyte of holes
    r = ReadFileTool().run({"path": "sparse.bin"}, ctx)
    assert not r.ok and "binary" in r.content


def test_a_write_over_a_big_file_says_the_diff_is_too_large(ctx, root: Path) -> None:
    (root / "big.txt").write_text("x\n" * (MAX_DIFF_INPUT // 2 + 10))
    need = WriteFileTool().approval({"path": "big.txt", "content": "small\n"}, ctx)
    assert need is not None and need.diff.startswith("(diff too large,") and "bytes" in need.diff
    edit = EditTool().run({"path": "big.txt", "old": "x\nx\nx\n", "new": "y\n", "replace_all": True}, ctx)
    assert edit.ok and "diff too large" in edit.content


def test_a_symlink_swapped_in_after_the_check_is_not_followed(ctx, root: Path, tmp_path: Path) -> None:
    # what resolve saw was a directory; what is there at open time is a symlink to outside
    from mrsmith_tui.tools import dirfd

    (root / "d").mkdir()
    target = root / "d"
    os.rmdir(target)
    os.symlink(tmp_path, target)
    try:
        with dirfd.open_dir(root, target):
            raise AssertionError("opened a symlink")
    except dirfd.Unsafe as e:
        assert "changed while it was being opened" in str(e)


def test_head_tail_keeps_both_ends_in_bounded_memory() -> None:
    buf = HeadTail(100)
    buf.add("START")
    for _ in range(10_000):
        buf.add("." * 97 + "\n")
    buf.add("END")
    text = buf.text()
    assert text.startswith("START") and text.endswith("END") and "characters cut" in text and len(text) < 200
    assert buf._tail_len <= 150


def test_live_output_gets_a_screenful_a_second_and_a_count_of_the_rest() -> None:
    shown: list[str] = []
    now = [0.0]
    live = LiveThrottle(shown.append, clock=lambda: now[0], per_second=100, lines=5)
    for _ in range(1000):
        live.feed("0123456789\n")  # 11 000 bytes in the first second
    now[0] = 1.5
    live.feed("later\n")
    live.close()
    text = "".join(shown)
    assert text.startswith("0123456789\n" * 5)
    assert "… 10945 bytes more\n" in text and text.endswith("later\n")


def test_a_long_diff_is_cut_for_the_screen(ctx, root: Path) -> None:
    from mrsmith_tui.tools.fileio import MAX_DIFF_SHOWN

    content = "".join(f"new line {i}\n" for i in range(60_000))  # ~0.8 MB: diffed, but not shown whole
    r = WriteFileTool().run({"path": "many.txt", "content": content}, ctx)
    assert r.ok and len(r.diff) < MAX_DIFF_SHOWN + 100 and "[diff cut:" in r.diff
    assert (root / "many.txt").read_text() == content


def test_head_tail_never_gives_more_than_its_limit_whatever_the_chunks():
    # the tail keeps whole chunks while dropping the oldest would leave less than half: 11 characters
    # through a limit of 10 came back whole, with no note (a `!command` of 50,001 characters, by chance)
    import random

    rng = random.Random(7)
    for _ in range(2_000):
        limit = rng.randint(2, 40)
        buf, sent = HeadTail(limit), ""
        for _ in range(rng.randint(0, 12)):
            chunk = "".join(rng.choice("ab\n") for _ in range(rng.randint(1, 9)))
            buf.add(chunk)
            sent += chunk
        got = buf.text()
        if len(sent) <= 2 * (limit // 2):
            assert got == sent
        else:
            head, rest = got.split("\n[... ", 1)
            note, tail = rest.split(" ...]\n", 1)
            assert note == f"{len(sent) - len(head) - len(tail)} characters cut from the middle of {len(sent)}"
            assert sent.startswith(head) and sent.endswith(tail) and len(head) + len(tail) <= limit


def test_eleven_characters_through_ten_say_one_was_cut():
    buf = HeadTail(10)
    for chunk in ("aaaaa", "bb", "bbbb"):
        buf.add(chunk)
    assert buf.text() == "aaaaa\n[... 1 characters cut from the middle of 11 ...]\nbbbbb"
