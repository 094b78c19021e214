"""Config loading: file formats, key styles, precedence, the implicit provider and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mrsmith_tui.config.load import (
    ConfigError,
    api_key_for,
    api_key_variable,
    apply_cli,
    load_config,
    resolve_agent,
    sessions_dir,
)
from mrsmith_tui.config.schema import Config

TOML_CAMEL = """
defaultAgent = "coder"
contextWindowRatio = 0.5
sessionsDir = "/from/file"

[[providers]]
name = "groq"
apiKey = "file-key"
baseUrl = "https://api.groq.example/openai/v1/"

[[agents]]
name = "coder"
provider = "groq"
model = "llama"
maxToolRounds = 7
shellHarmlessCommands = ["ls"]

[[agents]]
name = "other"
provider = "groq"
model = "mixtral"
"""

TOML_SNAKE = """
default_agent = "coder"
context_window_ratio = 0.5

[[providers]]
name = "groq"
api_key = "file-key"
base_url = "https://api.groq.example/openai/v1"

[[agents]]
name = "coder"
provider = "groq"
model = "llama"
max_tool_rounds = 7
shell_harmless_commands = ["ls"]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def error_of(fn, *args, **kw) -> str:
    with pytest.raises(ConfigError) as info:
        fn(*args, **kw)
    message = info.value.message
    assert "\n" not in message
    return message


# --------------------------------------------------------------------------- formats and keys


@pytest.mark.parametrize("text", [TOML_CAMEL, TOML_SNAKE])
def test_toml_accepts_camel_and_snake_case(tmp_path, text):
    config = load_config(write(tmp_path, "config.toml", text), env={})
    agent = resolve_agent(config, None)
    assert (agent.name, agent.model, agent.max_tool_rounds, agent.shell_harmless_commands) == ("coder", "llama", 7, ["ls"])
    assert config.provider("groq").base_url == "https://api.groq.example/openai/v1"
    assert config.context_window_ratio == 0.5


def test_json_with_the_reference_tools_camel_case_keys(tmp_path):
    data = {
        "providers": [{"name": "local", "baseUrl": "http://127.0.0.1:11434/v1"}],
        "agents": [{"name": "a", "provider": "local", "model": "qwen3", "maxContextTokens": 32000, "thinking": "preserve"}],
        "includeUsage": False,
    }
    config = load_config(write(tmp_path, "config.json", json.dumps(data)), env={})
    agent = resolve_agent(config, "a")
    assert (agent.max_context_tokens, agent.thinking, config.include_usage) == (32000, "preserve", False)


def test_default_location_toml_then_json(tmp_path, monkeypatch):
    folder = tmp_path / "xdg" / "mrsmith"
    folder.mkdir(parents=True)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (folder / "config.json").write_text(json.dumps({"contextWindowRatio": 0.25}))
    assert load_config(env={}).context_window_ratio == 0.25
    (folder / "config.toml").write_text("contextWindowRatio = 0.125\n")
    assert load_config(env={}).context_window_ratio == 0.125


# --------------------------------------------------------------------------- precedence


def test_precedence_flag_beats_env_beats_file(tmp_path):
    path = write(tmp_path, "config.toml", TOML_CAMEL)
    assert load_config(path, env={}).sessions_dir == "/from/file"

    env = {"MRSMITH_SESSIONS_DIR": "/from/env", "MRSMITH_CONTEXT_WINDOW_RATIO": "0.3", "MRSMITH_CONTEXT_BUILDER": "sliding"}
    config = load_config(path, env=env)
    assert (config.sessions_dir, config.context_window_ratio, config.context_builder) == ("/from/env", 0.3, "sliding")

    config = apply_cli(config, sessions_dir="/from/flag", context_window_ratio=0.9, context_builder="full")
    assert (config.sessions_dir, config.context_window_ratio, config.context_builder) == ("/from/flag", 0.9, "full")
    assert sessions_dir(config) == Path("/from/flag")


def test_defaults_without_anything():
    config = load_config(env={})
    assert config == Config()
    assert config.providers == [] and config.agents == []
    assert config.context_window_ratio == 0.75 and config.include_usage is True


def test_sessions_dir_default_and_tilde(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert sessions_dir(Config()) == tmp_path / "data" / "mrsmith" / "sessions"
    assert sessions_dir(Config(sessions_dir="~/s")) == Path.home() / "s"


def test_provider_api_key_env_beats_file_and_flag_beats_env(tmp_path):
    path = write(tmp_path, "config.toml", TOML_CAMEL)
    assert api_key_for(load_config(path, env={}), "groq", env={}) == "file-key"

    env = {"MRSMITH_GROQ_API_KEY": "env-key"}
    config = load_config(path, env=env)
    assert api_key_for(config, "groq", env=env) == "env-key"

    config = apply_cli(config, api_key="flag-key")
    assert api_key_for(config, "groq", env=env) == "flag-key"


def test_api_key_variable_name():
    assert api_key_variable("open-router") == "MRSMITH_OPEN_ROUTER_API_KEY"
    assert api_key_variable("groq") == "MRSMITH_GROQ_API_KEY"


def test_api_key_from_env_for_a_config_built_in_code():
    config = Config.model_validate({"providers": [{"name": "open-router"}]})
    assert api_key_for(config, "open-router", env={"MRSMITH_OPEN_ROUTER_API_KEY": "k"}) == "k"
    assert api_key_for(config, "open-router", env={}) is None


# --------------------------------------------------------------------------- implicit provider and agent


def test_no_file_env_makes_an_implicit_provider_and_agent():
    env = {"MODEL": "qwen3", "OPENAI_BASE_URL": "http://localhost:11434/v1/", "OPENAI_API_KEY": "sk-x"}
    config = load_config(env=env)
    agent = resolve_agent(config, None)
    assert (agent.name, agent.provider, agent.model) == ("default", "openai", "qwen3")
    assert config.provider("openai").base_url == "http://localhost:11434/v1"
    assert api_key_for(config, "openai", env=env) == "sk-x"


def test_implicit_base_url_defaults_to_openai():
    config = load_config(env={"MODEL": "gpt-x"})
    assert config.provider("openai").base_url == "https://api.openai.com/v1"


def test_env_model_is_ignored_when_a_config_file_exists(tmp_path):
    config = load_config(write(tmp_path, "config.toml", TOML_CAMEL), env={"MODEL": "ignored"})
    assert [a.model for a in config.agents] == ["llama", "mixtral"]


def test_flags_make_the_implicit_provider_without_a_file():
    config = apply_cli(load_config(env={}), base_url="http://127.0.0.1:8080/v1", model="gemma", api_key="k")
    agent = resolve_agent(config, None)
    assert (agent.provider, agent.model) == ("openai", "gemma")
    assert config.provider("openai").base_url == "http://127.0.0.1:8080/v1"
    assert api_key_for(config, "openai", env={}) == "k"


def test_flag_model_completes_an_env_provider():
    config = apply_cli(load_config(env={"OPENAI_BASE_URL": "http://h:1/v1"}), model="m")
    assert resolve_agent(config, None).model == "m"
    assert config.provider("openai").base_url == "http://h:1/v1"


def test_flags_override_the_chosen_agent_of_a_config(tmp_path):
    config = load_config(write(tmp_path, "config.toml", TOML_CAMEL), env={})
    config = apply_cli(config, agent="other", model="flag-model", base_url="http://127.0.0.1:1/v1")
    agent = resolve_agent(config, None)
    assert (agent.name, agent.model) == ("other", "flag-model")
    assert config.agent("coder").model == "llama"  # only the chosen agent changes
    assert config.provider("groq").base_url == "http://127.0.0.1:1/v1"


# --------------------------------------------------------------------------- errors: one line, file, field, what


@pytest.mark.parametrize(
    "text, expected",
    [
        ('[[providers]]\nname = "a"\n[[agents]]\nname = "x"\nprovider = "a"\nmodel = "m"\n'
         '[[agents]]\nname = "y"\nprovider = "opencode"\nmodel = "m"\n',
         "config.toml: agents[1].provider: 'opencode' is not a configured provider"),
        ('[[providers]]\nname = "a"\n[[agents]]\nname = "x"\nprovider = "a"\nmodel = "m"\nmax_tool_rounds = 0\n',
         "config.toml: agents[0].maxToolRounds: input should be greater than 0"),
        ('[[providers]]\nname = "a"\n[[agents]]\nname = "x"\nprovider = "a"\nmodel = "m"\nmaxToolRoundz = 3\n',
         "config.toml: agents[0].maxToolRoundz: unknown field"),
        ('[[agents]]\nname = "x"\nprovider = "a"\n', "config.toml: agents[0].model: required field is missing"),
        ("contextWindowRatio = 1.5\n", "config.toml: contextWindowRatio: input should be less than or equal to 1"),
        ('contextBuilder = "clever"\n', "config.toml: contextBuilder: input should be 'full' or 'sliding'"),
        ('[[providers]]\nname = "a"\nbaseUrl = "localhost:1"\n', "config.toml: providers[0].baseUrl: 'localhost:1' is not an http(s) URL"),
        ('defaultAgent = "ghost"\n', "config.toml: defaultAgent: 'ghost' is not a configured agent"),
        ('[[providers]]\nname = "a"\n[[providers]]\nname = "a"\n', "config.toml: providers[1].name: 'a' is defined twice"),
        ("x = = 1\n", "config.toml: TOML syntax error: line 1, column 5"),
    ],
)
def test_toml_errors_are_one_line_naming_file_and_field(tmp_path, text, expected):
    message = error_of(load_config, write(tmp_path, "config.toml", text), env={})
    assert expected in message


def test_json_syntax_error_has_line_and_column(tmp_path):
    message = error_of(load_config, write(tmp_path, "config.json", '{\n  "agents": [,]\n}'), env={})
    assert "config.json: JSON syntax error: line 2, column 14" in message


def test_json_top_level_must_be_an_object(tmp_path):
    assert "config.json: the top level must be an object" in error_of(load_config, write(tmp_path, "config.json", "[1]"), env={})


def test_json_field_error(tmp_path):
    path = write(tmp_path, "config.json", json.dumps({"agents": [{"name": "a", "provider": "p", "model": "m", "thinking": "show"}]}))
    assert "config.json: agents[0].thinking: input should be 'strip' or 'preserve'" in error_of(load_config, path, env={})


def test_missing_config_path():
    assert "--config" in error_of(load_config, Path("/no/such/config.toml"), env={})


def test_bad_env_value_names_the_variable():
    message = error_of(load_config, env={"MRSMITH_CONTEXT_WINDOW_RATIO": "lots"})
    assert message.startswith("MRSMITH_CONTEXT_WINDOW_RATIO: input should be a valid number")


def test_bad_flag_values_name_the_flag():
    assert error_of(apply_cli, Config(), context_window_ratio=0).startswith("--context-window-ratio: input should be greater than 0")
    assert error_of(apply_cli, Config(), base_url="ftp://x", model="m").startswith("--base-url: 'ftp://x' is not an http(s) URL")
    assert "--agent: 'ghost' is not a configured agent" in error_of(apply_cli, Config(), agent="ghost")


def test_resolve_agent_errors(tmp_path):
    assert "no agent configured" in error_of(resolve_agent, Config(), None)
    config = load_config(write(tmp_path, "config.toml", TOML_CAMEL), env={})
    assert "'nope' is not a configured agent (configured: coder, other)" in error_of(resolve_agent, config, "nope")
    assert resolve_agent(config, "other").model == "mixtral"


def test_the_allow_list_is_read_and_an_empty_entry_is_one_error(tmp_path):
    path = write(tmp_path, "c.toml", 'allow = ["write_file", " shell:git commit "]\n' + TOML_CAMEL)
    assert load_config(path).allow == ["write_file", "shell:git commit"]
    bad = write(tmp_path, "bad.toml", 'allow = ["write_file", ""]\n' + TOML_CAMEL)
    assert "allow" in error_of(load_config, bad)


def test_an_allow_entry_that_can_never_match_is_one_error(tmp_path):
    for entry in ("*", "shell:", "shell: ", "*:git"):
        bad = write(tmp_path, "bad.toml", f'allow = ["write_file", "{entry}"]\n' + TOML_CAMEL)
        message = error_of(load_config, bad)
        assert "allow" in message and "\n" not in message.strip()
    ok = write(tmp_path, "ok.toml", 'allow = ["shell", "web_fetch:docs.python.org", "mcp__srv__tool"]\n' + TOML_CAMEL)
    assert load_config(ok).allow == ["shell", "web_fetch:docs.python.org", "mcp__srv__tool"]


def test_a_config_path_that_is_no_file_says_what_it_is(tmp_path):
    assert error_of(load_config, tmp_path, env={}) == f"--config: {tmp_path}: a folder, not a config file"
    assert error_of(load_config, tmp_path / "nope.toml", env={}) == f"--config: {tmp_path / 'nope.toml'}: no such file"


def test_a_config_file_with_no_agent_is_named_not_the_default_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    empty = write(tmp_path, "mine.toml", "\n")
    config = load_config(empty, env={"MODEL": "m"})  # with a file the environment's MODEL is not read
    assert error_of(resolve_agent, config, None, config_file=empty) == (
        f"{empty} is empty: add an agent ([[agents]] name, provider, model), or pass --model")
    providers_only = write(tmp_path, "p.json", '{"providers": [{"name": "x", "baseUrl": "http://h/v1"}]}')
    assert error_of(resolve_agent, load_config(providers_only, env={}), None, config_file=providers_only) == (
        f'{providers_only} configures no agent: add an agent ("agents": [{{"name", "provider", "model"}}]), or pass --model')
    assert error_of(resolve_agent, Config(), None).endswith(f"or write {tmp_path}/xdg/mrsmith/config.toml")  # none: the default
    (tmp_path / "xdg" / "mrsmith").mkdir(parents=True)
    default = write(tmp_path / "xdg", "mrsmith/config.toml", "theme = 'dark'\n")
    assert error_of(resolve_agent, Config(), None).startswith(f"{default} configures no agent")
