"""--protocol and the knobs applied to the config (cli.wire_flags): endpoints, names, models, refusals."""

from __future__ import annotations

import pytest

from mrsmith_tui.cli.args import UsageError, build_parser
from mrsmith_tui.cli.wire_flags import apply_wire_flags
from mrsmith_tui.config.load import apply_cli
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig


def flags(config: Config, *argv: str) -> Config:
    args = build_parser().parse_args(list(argv))
    config = apply_cli(config, agent=args.agent, base_url=args.base_url, model=args.model, api_key=args.api_key)
    return apply_wire_flags(config, args)


@pytest.mark.parametrize(("protocol", "url", "model"), [
    ("anthropic", "https://api.anthropic.com", "claude-sonnet-4-6"),
    ("minimax", "https://api.minimax.io/anthropic", "MiniMax-M2.7"),
    ("zai", "https://api.z.ai/api/paas/v4", "glm-4.7"),
    ("deepseek", "https://api.deepseek.com", "deepseek-v4-pro"),
])
def test_a_key_and_a_protocol_are_a_whole_config(protocol, url, model):
    config = flags(Config(), "--protocol", protocol, "--api-key", "k")
    (provider,) = config.providers
    assert (provider.name, provider.protocol, provider.base_url, provider.api_key) == (protocol, protocol, url, "k")
    assert [(a.provider, a.model) for a in config.agents] == [(protocol, model)]


def test_a_named_base_url_and_model_are_kept():
    config = flags(Config(), "--protocol", "anthropic", "--base-url", "http://127.0.0.1:9", "--model", "m", "--api-key", "k")
    assert config.providers[0].base_url == "http://127.0.0.1:9" and config.agents[0].model == "m"


def test_the_protocol_goes_to_the_chosen_agents_provider_and_knobs_to_the_agent():
    config = Config(providers=[ProviderConfig(name="p", base_url="https://gw.example/v1"), ProviderConfig(name="q")],
                    agents=[AgentConfig(name="a", provider="p", model="m"), AgentConfig(name="b", provider="q", model="n")])
    out = flags(config, "--agent", "a", "--protocol", "anthropic", "--effort", "low", "--thinking", "preserve",
                "--cache", "active", "--max-tokens", "9000")
    assert out.provider("p").protocol == "anthropic" and out.provider("p").base_url == "https://gw.example/v1"
    assert out.provider("q").protocol == "openai"
    a = out.agent("a")
    assert (a.reasoning_effort, a.thinking, a.cache, a.max_tokens) == ("low", "preserve", "active", 9000)
    assert out.agent("b").reasoning_effort is None


def test_a_config_provider_with_a_vendor_protocol_and_no_agent_gets_one():
    config = flags(Config(providers=[ProviderConfig(name="mm", protocol="minimax", api_key="k")]))
    assert config.providers[0].base_url == "https://api.minimax.io/anthropic"
    assert [(a.provider, a.model) for a in config.agents] == [("mm", "MiniMax-M2.7")]


@pytest.mark.parametrize("argv", [
    ("--protocol", "zai", "--cache", "active"),
    ("--protocol", "deepseek", "--effort", "high", "--thinking", "strip"),
    ("--protocol", "anthropic", "--model", "claude-sonnet-4-5", "--effort", "medium", "--max-tokens", "12000"),
    ("--protocol", "anthropic", "--effort", "xhigh"),
    ("--protocol", "minimax", "--effort", "none"),
    ("--protocol", "deepseek", "--effort", "minimal"),
])
def test_forbidden_combinations_are_usage_errors(argv):
    with pytest.raises(UsageError) as info:
        flags(Config(), *argv, "--api-key", "k")
    assert "\n" not in str(info.value) and info.value.exit_code == 2


def test_an_adaptive_model_takes_any_max_tokens_with_an_effort():
    config = flags(Config(), "--protocol", "anthropic", "--model", "claude-opus-4-6", "--effort", "high",
                   "--max-tokens", "2000", "--api-key", "k")
    assert config.agents[0].max_tokens == 2000


@pytest.mark.parametrize("effort", ["none", "minimal", "xhigh"])
def test_the_openai_protocol_takes_its_own_efforts_from_the_command_line(effort):
    config = flags(Config(), "--protocol", "openai", "--model", "gpt-5", "--effort", effort, "--api-key", "k")
    assert config.agents[0].reasoning_effort == effort
