"""The first-run setup screen: the form, writing config.toml; Pilot tests and one snapshot.
(Probing the local servers is tested in tests/provider/test_probe.py.)"""

from __future__ import annotations

import threading
import time
import tomllib
from pathlib import Path

from mrsmith_tui.config.load import load_config
from mrsmith_tui.provider.probe import LocalServer
from mrsmith_tui.tui.screens.setup import SetupApp

CLOSED_PORT = 9  # discard: nothing listens on 127.0.0.1:9 here


async def wait_for(pilot, predicate, timeout: float = 90.0) -> None:  # a safety net, not a budget
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out waiting for the setup screen"
        await pilot.pause(0.01)


def setup_app(config_path: Path, servers, fetch_models=None) -> SetupApp:
    options = {"servers": servers, "probe_timeout": 0.5}
    if fetch_models is not None:
        options["fetch_models"] = fetch_models
    return SetupApp(config_path, **options)


def field(app, selector: str):
    return app.screen.query_one(selector)


# ------------------------------------------------------------------ the screen


async def test_pick_a_found_server_and_save(tmp_path, loopback):
    srv = loopback(models=["qwen3:8b", "llama3"])
    path = tmp_path / "cfg" / "config.toml"
    app = setup_app(path, [LocalServer("Ollama", "ollama", srv.port), LocalServer("vLLM", "vllm", CLOSED_PORT)])
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        # nothing typed yet, so the list takes focus (focus moves on the next message: wait for it)
        await wait_for(pilot, lambda: app.focused is field(app, "#found"))
        assert field(app, "#found").option_count == 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: field(app, "#model").value == "llama3")
        assert field(app, "#base-url").value == srv.base_url
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.return_value is not None)
    assert app.return_value == path
    config = load_config(path, env={})
    assert config.provider("ollama").base_url == srv.base_url
    assert config.agent("default").model == "llama3" and config.default_agent == "default"


async def test_nothing_found_then_a_typed_endpoint_with_key_lists_models(tmp_path, loopback):
    srv = loopback(models=["gpt-x", "gpt-y"])
    path = tmp_path / "config.toml"
    app = setup_app(path, [LocalServer("Ollama", "ollama", CLOSED_PORT)])
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        assert "No local server answered" in str(field(app, "#probe-status").content)
        assert not field(app, "#found").display
        field(app, "#base-url").value = srv.base_url
        field(app, "#api-key").focus()
        await pilot.press(*"sk-test", "enter")  # Enter in the key field fetches the models
        await wait_for(pilot, lambda: app.screen.models == ["gpt-x", "gpt-y"])
        assert field(app, "#model-list").value == "gpt-x"
        field(app, "#model-list").value = "gpt-y"
        await wait_for(pilot, lambda: field(app, "#model").value == "gpt-y")
        assert field(app, "#name").value == "local"
        await pilot.click("#save")
        await wait_for(pilot, lambda: app.return_value is not None)
    raw = tomllib.loads(path.read_text())
    assert raw["providers"] == [{"name": "local", "baseUrl": srv.base_url, "apiKey": "sk-test"}]
    assert raw["agents"][0]["model"] == "gpt-y"


async def test_a_failed_model_list_says_why_and_a_typed_model_still_saves(tmp_path):
    def fetch(url, key, timeout):
        raise RuntimeError(f"cannot reach {url}: connection refused")

    path = tmp_path / "config.toml"
    app = setup_app(path, [], fetch)
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        field(app, "#base-url").value = "https://api.example.com/v1"
        field(app, "#base-url").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Could not list models" in str(field(app, "#message").content))
        assert "connection refused" in str(field(app, "#message").content)
        assert field(app, "#message").has_class("error")
        field(app, "#model").focus()
        await pilot.press(*"my-model", "enter")  # Enter in the model field saves
        await wait_for(pilot, lambda: app.return_value is not None)
    config = load_config(path, env={})
    assert config.provider("example").base_url == "https://api.example.com/v1"


async def test_missing_fields_and_bad_url_are_one_line_errors(tmp_path):
    app = setup_app(tmp_path / "config.toml", [], lambda *a: [])
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        await pilot.press("ctrl+s")
        assert "Base URL" in str(field(app, "#message").content)
        field(app, "#base-url").value = "localhost:1234"
        field(app, "#model").value = "m"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "not an http(s) URL" in str(field(app, "#message").content))
        assert "\n" not in str(field(app, "#message").content)
    assert not (tmp_path / "config.toml").exists()


async def test_an_existing_config_is_replaced_only_on_a_second_save(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('providers = [{ name = "old" }]\n')
    app = setup_app(path, [], lambda *a: [])
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        field(app, "#base-url").value = "http://127.0.0.1:1234/v1"
        field(app, "#model").value = "m"
        await pilot.press("ctrl+s")
        assert "already exists" in str(field(app, "#message").content)
        assert "old" in path.read_text()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.return_value is not None)
    assert load_config(path, env={}).agent("default").model == "m"


async def test_escape_cancels_without_writing(tmp_path):
    app = setup_app(tmp_path / "config.toml", [], lambda *a: [])
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_value is None and not (tmp_path / "config.toml").exists()


async def test_a_slow_probe_never_blocks_typing(tmp_path):
    release = threading.Event()

    def hanging(url, key, timeout):
        release.wait(90)  # the test releases it; a safety net, not a budget
        return ["late-model"]

    app = setup_app(tmp_path / "config.toml", [LocalServer("Ollama", "ollama", 11434)], hanging)
    try:
        async with app.run_test(size=(100, 36)) as pilot:
            await pilot.press(*"http://h")
            assert field(app, "#base-url").value == "http://h" and app.screen.found is None
            release.set()
            await wait_for(pilot, lambda: app.screen.found is not None)
            assert app.focused is field(app, "#base-url")  # the list did not steal focus from typing
    finally:
        release.set()


async def test_at_60x20_every_field_fits_its_row_whatever_the_protocol(tmp_path):
    from mrsmith_tui.config.vendors import VENDORS

    app = setup_app(tmp_path / "config.toml", [], lambda *a: [])
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        for protocol in VENDORS:  # the longest label ("MiniMax (Anthropic-compatible endpoint)") wrapped
            field(app, "#protocol").value = protocol
            await pilot.pause()
            for row in app.screen.query(".row"):
                for widget in row.children:
                    assert widget.region.height <= row.region.height, (protocol, widget.id, widget.region)
        save = field(app, "#save")  # what does not fit scrolls into view
        save.scroll_visible(animate=False, immediate=True)
        await wait_for(pilot, lambda: app.screen.region.contains_region(save.region))


# ------------------------------------------------------------------ snapshot


def test_snapshot_found_servers(snap_compare, tmp_path):
    def fetch(url, key, timeout):
        if url.endswith(":11434/v1"):
            return ["gpt-oss:20b", "qwen3-coder:30b", "qwen3:8b"]
        if url.endswith(":1234/v1"):
            return ["mistral-small-3.2"]
        raise OSError("connection refused")

    servers = [LocalServer("Ollama", "ollama", 11434), LocalServer("LM Studio", "lmstudio", 1234),
               LocalServer("llama.cpp", "llamacpp", 8080), LocalServer("vLLM", "vllm", 8000)]
    app = setup_app(Path("~/.config/mrsmith/config.toml"), servers, fetch)

    async def found(pilot):
        await wait_for(pilot, lambda: app.screen.found is not None)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.models != [])

    assert snap_compare(app, terminal_size=(100, 36), run_before=found)


async def test_a_vendor_protocol_fills_its_endpoint_and_model_and_is_saved(tmp_path):
    path = tmp_path / "config.toml"
    app = setup_app(path, [], lambda *a: [])
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        field(app, "#protocol").value = "minimax"
        await wait_for(pilot, lambda: field(app, "#base-url").value == "https://api.minimax.io/anthropic")
        assert field(app, "#model").value == "MiniMax-M2.7" and field(app, "#name").value == "minimax"
        assert "Messages" in str(field(app, "#message").content)
        field(app, "#api-key").value = "mm-key"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.return_value is not None)
    config = load_config(path, env={})
    provider = config.provider("minimax")
    assert (provider.protocol, provider.base_url, provider.api_key) == ("minimax", "https://api.minimax.io/anthropic", "mm-key")
    assert config.agents[0].model == "MiniMax-M2.7"


# ------------------------------------------------------------------ the app's quit keys, a refused key


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_ctrl_c_twice_quits_the_setup_as_in_the_app(tmp_path):
    clock = _Clock()
    app = SetupApp(tmp_path / "config.toml", servers=[], fetch_models=lambda *a: [], clock=clock)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "Ctrl-C again to quit" in str(field(app, "#message").content))
        clock.now += 5  # too late: this one arms again
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.is_running and not app._notifications  # not Textual's "press ctrl+q"
        clock.now += 1
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_value is None and not (tmp_path / "config.toml").exists()


async def test_ctrl_d_deletes_in_a_field_and_quits_from_an_empty_one(tmp_path):
    app = setup_app(tmp_path / "config.toml", [], lambda *a: [])
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        field(app, "#model").focus()
        await pilot.press(*"abc", "home", "ctrl+d")
        await wait_for(pilot, lambda: field(app, "#model").value == "bc")
        await pilot.press("end", "ctrl+d")
        await wait_for(pilot, lambda: "empty field" in str(field(app, "#message").content))
        assert app.is_running
        field(app, "#model").value = ""
        await pilot.press("ctrl+d")
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_value is None


async def test_a_refused_key_says_the_key_is_the_problem(tmp_path):
    from mrsmith_tui.provider.types import ProviderError

    def fetch(url, key, timeout):
        raise ProviderError(f"{url}/models answered 401: Incorrect API key provided", status=401)

    app = setup_app(tmp_path / "config.toml", [], fetch)
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_for(pilot, lambda: app.screen.found is not None)
        field(app, "#base-url").value = "https://api.example.com/v1"
        field(app, "#api-key").value = "sk-wrong"
        field(app, "#base-url").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: "API key was refused" in str(field(app, "#message").content))
        message = str(field(app, "#message").content)
        assert "401" in message and "model name" not in message
