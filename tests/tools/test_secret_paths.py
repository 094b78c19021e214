"""Secret-looking paths ask in the file tools; glob leaves them out; writes follow the umask."""

from __future__ import annotations

import os
import stat

import pytest

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.dirfd import write_atomic
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.glob_tool import GlobTool
from mrsmith_tui.tools.list_dir import ListDirTool
from mrsmith_tui.tools.read_file import ReadFileTool
from mrsmith_tui.tools.write_file import WriteFileTool


@pytest.fixture
def tree(root):
    (root / ".env").write_text("TOKEN=x\n")
    (root / ".ENV.production").write_text("TOKEN=y\n")
    (root / ".ssh").mkdir()
    (root / ".ssh" / "id_rsa").write_text("k")
    (root / "id_rsa.pub").write_text("pub")
    (root / "src").mkdir()
    (root / "src" / "main.py").write_text("print(1)\n")
    (root / "src" / "secrets.vaultdump").write_text("{}")
    (root / "link.txt").symlink_to(".ssh/id_rsa")
    return root


@pytest.mark.parametrize(("path", "spec"), [
    (".env", "read_file:.env"), ("./.env", "read_file:.env"), ("src/../.env", "read_file:.env"),
    (".ENV.production", "read_file:.ENV.production"), (".ssh/id_rsa", "read_file:.ssh/id_rsa"),
    ("link.txt", "read_file:.ssh/id_rsa"),
])
def test_read_file_asks_for_a_secret(tree, ctx, path, spec):
    need = ReadFileTool().approval({"path": path}, ctx)
    assert need is not None and need.spec == spec and need.rule == "secret"
    assert need.reason.endswith("looks like a secret") or "looks like a secret;" in need.reason


@pytest.mark.parametrize("path", ["src/main.py", "id_rsa.pub", "missing.txt", "../outside", ""])
def test_read_file_does_not_ask_for_the_rest(tree, ctx, path):
    assert ReadFileTool().approval({"path": path}, ctx) is None


def test_config_patterns_add_and_remove(tree, ctx):
    extra = SensitivePaths(["*.vaultdump", "!.env"])
    assert ReadFileTool(extra).approval({"path": "src/secrets.vaultdump"}, ctx).spec == "read_file:src/secrets.vaultdump"
    assert ReadFileTool(extra).approval({"path": ".env"}, ctx) is None


def test_list_dir_of_a_secret_folder_asks(tree, ctx):
    assert ListDirTool().approval({"path": ".ssh"}, ctx).spec == "list_dir:.ssh"
    assert ListDirTool().approval({"path": "."}, ctx) is None
    assert ".env" in ListDirTool().run({"path": "."}, ctx).content  # a name is not the secret


def test_glob_leaves_secrets_out_and_says_so(tree, ctx):
    r = GlobTool().run({"pattern": "**/*"}, ctx)
    lines = r.content.splitlines()
    assert "src/main.py" in lines and "id_rsa.pub" in lines
    assert not {".env", ".ENV.production", ".ssh/id_rsa"} & set(lines)
    assert lines[-1].startswith("[3 secret-looking paths")
    assert GlobTool().run({"pattern": ".ssh/*"}, ctx).content.startswith("[1 secret-looking path ")


def test_writing_a_secret_has_its_own_spec_and_asks_even_when_the_edit_fails(tree, ctx):
    need = WriteFileTool().approval({"path": ".env", "content": "A=1\n"}, ctx)
    assert need.spec == "write_file:.env" and need.rule == "secret"
    assert WriteFileTool().approval({"path": "notes.txt", "content": "x"}, ctx).spec == "write_file"
    need = EditTool().approval({"path": ".env", "old": "no such text", "new": "x"}, ctx)
    assert need is not None and need.spec == "edit:.env"


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_files_follow_the_umask_and_old_ones_keep_their_mode(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        write_atomic(tmp_path, tmp_path / "new.txt", b"x")
        assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == mode
        (tmp_path / "script.sh").write_text("old")
        os.chmod(tmp_path / "script.sh", 0o750)
        write_atomic(tmp_path, tmp_path / "script.sh", b"new")
        assert stat.S_IMODE((tmp_path / "script.sh").stat().st_mode) == 0o750
    finally:
        os.umask(old)


@pytest.mark.parametrize("tool", [ReadFileTool, ListDirTool])
def test_a_link_swapped_to_a_secret_after_approval_is_not_read(tree, ctx, tool):
    target = "src/main.py" if tool is ReadFileTool else "src"
    (tree / "swap").symlink_to(target)
    args = {"path": "swap"}
    assert tool().approval(args, ctx) is None  # an ordinary file when judged
    (tree / "swap").unlink()
    (tree / "swap").symlink_to(".env" if tool is ReadFileTool else ".ssh")
    result = tool().run(args, ctx)
    assert not result.ok and "changed while waiting for approval" in result.content
    assert "TOKEN=x" not in result.content and "id_rsa" not in result.content


@pytest.mark.parametrize("path", ["/proc/self/cwd/.env", "/proc/thread-self/cwd/.ssh/id_rsa"])
def test_an_absolute_path_back_into_the_root_asks(tree, ctx, path, monkeypatch):
    monkeypatch.chdir(tree)
    need = ReadFileTool().approval({"path": path}, ctx)
    assert need is not None and need.rule == "secret" and need.spec.startswith("read_file:")
