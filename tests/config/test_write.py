"""write_config: a loadable camelCase config.toml, 0600 from creation, atomic, no clobbering."""

from __future__ import annotations

import os
import stat
import tomllib

import pytest

from mrsmith_tui.config import write as write_mod
from mrsmith_tui.config.load import ConfigError, load_config
from mrsmith_tui.config.write import write_config

ARGS = dict(provider_name="ollama", base_url="http://127.0.0.1:11434/v1/", api_key=None, model="qwen3:8b")


def test_written_file_loads_back_with_camel_case_keys(tmp_path):
    path = tmp_path / "deep" / "mrsmith" / "config.toml"
    write_config(path, **{**ARGS, "api_key": "sk-secret"})
    raw = tomllib.loads(path.read_text())
    assert raw["defaultAgent"] == "default"
    assert raw["providers"][0] == {"name": "ollama", "baseUrl": "http://127.0.0.1:11434/v1", "apiKey": "sk-secret"}
    config = load_config(path, env={})
    assert config.agent("default").model == "qwen3:8b"
    assert config.provider("ollama").api_key == "sk-secret"


def test_no_key_means_no_api_key_field(tmp_path):
    path = write_config(tmp_path / "config.toml", **ARGS, agent_name="local")
    raw = tomllib.loads(path.read_text())
    assert "apiKey" not in raw["providers"][0]
    assert raw["agents"] == [{"name": "local", "provider": "ollama", "model": "qwen3:8b"}]


def test_mode_is_0600_and_no_temp_file_left(tmp_path):
    old = os.umask(0)  # even with a permissive umask
    try:
        path = write_config(tmp_path / "config.toml", **ARGS)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]


def test_refuses_to_overwrite_unless_asked(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("# mine\n")
    with pytest.raises(ConfigError, match="already exists"):
        write_config(path, **ARGS)
    assert path.read_text() == "# mine\n"
    write_config(path, **ARGS, overwrite=True)
    assert "qwen3:8b" in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "bad, field",
    [({"base_url": "localhost:11434"}, "baseUrl"), ({"model": ""}, "model"), ({"provider_name": ""}, "name")],
)
def test_bad_values_are_one_line_errors_and_nothing_is_written(tmp_path, bad, field):
    path = tmp_path / "config.toml"
    with pytest.raises(ConfigError) as e:
        write_config(path, **{**ARGS, **bad})
    assert field in e.value.message and "\n" not in e.value.message
    assert not path.exists()


def test_a_failed_write_leaves_neither_file_nor_temp(tmp_path, monkeypatch):
    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(write_mod.os, "fsync", broken_fsync)
    with pytest.raises(ConfigError, match="cannot write: No space left on device"):
        write_config(tmp_path / "config.toml", **ARGS)
    assert list(tmp_path.iterdir()) == []
