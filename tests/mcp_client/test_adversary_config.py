"""Regressions from the adversary's report against #24 (config, digest, names, files): each test is one
of its reproducers, cut down to the config layer."""

from __future__ import annotations

import os
import stat

import pytest

from mrsmith_tui.mcp.config import load_specs
from mrsmith_tui.mcp.names import server_keys
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.security.trust_store import TrustStore

from .servers import write_config


def _digest(tmp_path, entry, name="demo"):
    root = tmp_path / "p"
    write_config(root / ".mcp.json", {name: entry})
    [spec] = load_specs(root, user_path=tmp_path / "none.json")[0]
    return spec.digest


@pytest.mark.parametrize("edit", [
    {"env": {"PATH": "evilbin:/usr/bin:/bin"}},
    {"env": {"TOKEN_X": "${OPENAI_API_KEY}"}},
    {"cwd": "elsewhere"},
])
def test_an_edited_env_value_or_cwd_is_an_edit_of_the_trusted_entry(tmp_path, edit):  # adv 1
    entry = {"command": "python3", "env": {"PATH": "/usr/bin:/bin", "TOKEN_X": "${HOME}"}, "cwd": "."}
    edited = {**entry, **edit, "env": {**entry["env"], **edit.get("env", {})}}
    assert _digest(tmp_path, edited) != _digest(tmp_path, entry)


def test_an_edited_header_value_of_a_url_server_is_an_edit(tmp_path):  # adv 1
    entry = {"url": "http://127.0.0.1:9/mcp", "headers": {"X-A": "1"}}
    assert _digest(tmp_path, {**entry, "headers": {"X-A": "${OPENAI_API_KEY:-x}"}}) != _digest(tmp_path, entry)


def test_the_server_name_is_part_of_the_trust_key(tmp_path):  # adv 15
    entry = {"command": "python3", "args": ["s.py"]}
    assert _digest(tmp_path, entry, "a") != _digest(tmp_path, entry, "b")
    assert _digest(tmp_path, {"command": ["bad"]}, "a") != _digest(tmp_path, {"command": ["bad"]}, "b")


def test_user_servers_resolve_relative_paths_in_the_user_config_folder_never_the_project(tmp_path):  # adv 2
    user = write_config(tmp_path / "cfg" / "mrsmith" / "mcp.json", {
        "rel": {"command": "./server.sh"}, "py": {"command": "python3", "args": ["server.py"]},
        "sub": {"command": "x", "cwd": "tools"}})
    write_config(tmp_path / "proj" / ".mcp.json", {})
    specs = {s.name: s for s in load_specs(tmp_path / "proj", user_path=user)[0]}
    for spec in specs.values():
        assert spec.cwd is not None and not spec.cwd.startswith(str(tmp_path / "proj"))
    assert specs["rel"].cwd == specs["py"].cwd == str(user.parent)
    assert specs["sub"].cwd == str(user.parent / "tools")


def test_loading_an_untrusted_file_never_changes_the_redactor(tmp_path, monkeypatch):  # adv 5
    monkeypatch.setenv("ADV5_API_TOKEN", "adv5-secret-0123456789abcdef")
    write_config(tmp_path / "p" / ".mcp.json", {"x": {
        "command": "/nonexistent", "env": {"API_KEY": "import os", "GITHUB_TOKEN": "print(os.getcwd())",
                                           "T": "${ADV5_API_TOKEN}"}}})
    [spec] = load_specs(tmp_path / "p", user_path=tmp_path / "none.json")[0]
    assert spec.secrets == ("adv5-secret-0123456789abcdef",)  # joins the redactor only when the server starts
    text = "import os\nprint(os.getcwd())\nadv5-secret-0123456789abcdef"
    assert PROCESS.redact(text) == text


@pytest.mark.parametrize("names", [
    ["web_916175", "web", "web-"],
    ["web", "web-", "web_916175"],
    ["a", "a-", "a_", "a--", "a__", "a_ca978"],
])
def test_server_keys_are_unique_even_against_a_name_shaped_like_a_suffixed_key(names):  # adv 6
    keys = server_keys(names)
    assert len(set(keys.values())) == len(names)
    for name, key in keys.items():
        others = [k for n, k in keys.items() if n != name]
        assert not any(f"mcp__{o}__".startswith(f"mcp__{key}__") for o in others)


@pytest.mark.parametrize("kind", ["fifo", "link", "dir"])
def test_a_config_that_is_not_a_regular_file_is_one_warning_never_a_hang(tmp_path, kind):  # adv 4
    root = tmp_path / "p"
    root.mkdir()
    target = root / ".mcp.json"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "link":
        write_config(tmp_path / "real.json", {"x": {"command": "y"}})
        target.symlink_to(tmp_path / "real.json")
    else:
        target.mkdir()
    specs, warnings = load_specs(root, user_path=tmp_path / "none.json")
    assert specs == [] and len(warnings) == 1 and "cannot be read" in warnings[0]


def _store_with_entry(tmp_path):
    store = TrustStore(tmp_path / "state" / "trusted.json")
    store.trust(tmp_path, "mcp", "d1", name="a")
    return store


def test_a_trust_store_others_can_write_counts_as_empty_with_a_reason(tmp_path):  # adv 14
    store = _store_with_entry(tmp_path)
    assert store.is_trusted(tmp_path, "mcp", "d1") and not store.problem
    os.chmod(store.path, 0o666)
    assert not store.is_trusted(tmp_path, "mcp", "d1") and "not yours alone" in store.problem


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_a_trust_store_that_is_a_link_or_fifo_counts_as_empty_at_once(tmp_path, kind):  # adv 14
    real = _store_with_entry(tmp_path)
    store = TrustStore(tmp_path / "other" / "trusted.json")
    store.path.parent.mkdir()
    if kind == "fifo":
        os.mkfifo(store.path)
    else:
        store.path.symlink_to(real.path)
    assert not store.is_trusted(tmp_path, "mcp", "d1") and store.problem
    assert stat.S_IMODE(os.stat(real.path).st_mode) == 0o600


def test_the_user_mcp_config_is_sensitive_wherever_xdg_config_home_puts_it(tmp_path, monkeypatch):  # adv 13
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    user = write_config(tmp_path / "cfg" / "mrsmith" / "mcp.json", {})
    assert SensitivePaths().reason(user, tmp_path) == "this looks like a secret"
    assert SensitivePaths().reason(tmp_path / "cfg" / "mrsmith" / "other.json", tmp_path) is None


def test_read_file_asks_for_the_user_mcp_config_under_the_root(tmp_path, monkeypatch):  # adv 13
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.tools.base import ToolContext
    from mrsmith_tui.tools.secret_paths import secret_need

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    write_config(tmp_path / "cfg" / "mrsmith" / "mcp.json", {})
    (tmp_path / "notes.json").write_text("{}")
    ctx = ToolContext(root=tmp_path, cancel=CancelToken(), approver=None)  # type: ignore[arg-type]
    need = secret_need("read_file", "cfg/mrsmith/mcp.json", ctx, SensitivePaths())
    assert need is not None and need.rule == "secret"
    assert secret_need("read_file", "notes.json", ctx, SensitivePaths()) is None
