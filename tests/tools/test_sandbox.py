"""Containment: every way out of the root is refused with a message naming the path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mrsmith_tui.tools.sandbox import SandboxError, display, resolve


@pytest.fixture
def tree(root: Path, tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (root / "sub").mkdir()
    (root / "sub" / "inner.txt").write_text("inner")
    os.symlink("/etc", root / "etc_link")
    os.symlink(outside, root / "out_dir")
    os.symlink(outside / "secret.txt", root / "secret_link")
    os.symlink(outside / "not_yet.txt", root / "dangling_out")
    os.symlink(root / "sub", root / "sub_link")  # inside: fine
    os.symlink("inner.txt", root / "sub" / "rel_link")  # inside, relative: fine
    os.symlink("../../outside/secret.txt", root / "sub" / "rel_out")
    os.symlink(root / "out_dir", root / "chain")  # a link to a link that leaves
    (root / "sub" / "deep").mkdir()
    return outside


ESCAPES = [
    "/etc/passwd",
    "/",
    "/tmp",
    "../outside/secret.txt",
    "..",
    "sub/../../outside/secret.txt",
    "sub/deep/../../../x",
    "etc_link/passwd",
    "etc_link",
    "out_dir/secret.txt",
    "out_dir/new_file.txt",  # not-yet-existing path under an outside ancestor
    "out_dir/newdir/deeper/file.txt",
    "secret_link",  # a write through a symlink whose target is outside
    "dangling_out",  # a dangling symlink to outside
    "sub/rel_out",
    "chain/secret.txt",
    "sub_link/../../outside/secret.txt",  # `..` after a symlink
    "/proc/self/root/etc/passwd",
    "/proc/self/root",
    "/proc/self/cwd/../outside",
    "/ETC/passwd",  # case games: another path on a case-sensitive system, still absolute elsewhere
    "/Etc_link/../etc/passwd",
    "~/.ssh/id_rsa",
    "~root/.bashrc",
    "C:\\Windows\\system32",
    "c:/windows",
    "\\\\server\\share\\x",
    "sub\\..\\..\\outside",
    "",
    "   ",
    "sub/\x00x",
]


@pytest.mark.parametrize("raw", ESCAPES)
def test_escape_is_refused(tree: Path, root: Path, raw: str) -> None:
    with pytest.raises(SandboxError) as info:
        resolve(root, raw)
    message = str(info.value)
    assert "\n" not in message
    if raw.strip() and "\x00" not in raw:
        assert repr(raw) in message


INSIDE = [
    ("sub/inner.txt", "sub/inner.txt"),
    ("./sub/inner.txt", "sub/inner.txt"),
    ("sub/deep/../inner.txt", "sub/inner.txt"),
    ("sub_link/inner.txt", "sub/inner.txt"),
    ("sub/rel_link", "sub/inner.txt"),
    ("new/dir/file.txt", "new/dir/file.txt"),
    (".", "."),
    ("sub//inner.txt", "sub/inner.txt"),
]


@pytest.mark.parametrize(("raw", "shown"), INSIDE)
def test_inside_paths_resolve(tree: Path, root: Path, raw: str, shown: str) -> None:
    assert display(root, resolve(root, raw)) == shown


def test_absolute_path_inside_root_is_fine(tree: Path, root: Path) -> None:
    assert resolve(root, str(root / "sub" / "inner.txt")) == root / "sub" / "inner.txt"


def test_root_given_through_a_symlink(tmp_path: Path, root: Path) -> None:
    os.symlink(root, tmp_path / "alias")
    (root / "f.txt").write_text("x")
    assert resolve(tmp_path / "alias", "f.txt") == root / "f.txt"
    with pytest.raises(SandboxError):
        resolve(tmp_path / "alias", "../root_sibling")
