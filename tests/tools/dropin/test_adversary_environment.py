"""Adversary (#25): a drop-in tool (and the shell, which gets the same environment) never sees a secret
that a well-known variable carries. These passed the scrub: BW_SESSION (unlocks a Bitwarden vault),
OP_SESSION_<account> (1Password), SSHPASS (a password), SLACK_WEBHOOK_URL and other webhook URLs (the URL is
the secret), DOCKER_AUTH_CONFIG (registry credentials), COOKIE; a Slack or Discord webhook URL under
any name. Names a program needs (SSH_AUTH_SOCK, KUBECONFIG, DBUS_SESSION_BUS_ADDRESS, …) stay."""

from __future__ import annotations

import json

import pytest

from mrsmith_tui.security.environment import child_environment, looks_secret, secret_value
from tests.tools.dropin.helpers import tool_source

SECRET_NAMES = ["BW_SESSION", "OP_SESSION_my", "OP_SESSION_team_example", "SSHPASS", "SLACK_WEBHOOK_URL",
                "SLACK_WEBHOOK", "DISCORD_WEBHOOK_URL", "TEAMS_WEBHOOK", "WEBHOOK_URL", "ALERT_WEBHOOK_URL",
                "DOCKER_AUTH_CONFIG", "COOKIE", "HTTP_COOKIE", "SESSION_COOKIE"]
SECRET_VALUES = ["https://hooks.slack.com/services/T0000000/B0000000/XXXXXXXXXXXXXXXXXXXXXXXX",
                 "https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_ABCDEFG",
                 "https://discordapp.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz"]
ORDINARY = {"SSH_AUTH_SOCK": "/tmp/ssh-a/agent.1", "KUBECONFIG": "/home/u/.kube/config", "NETRC": "/home/u/.netrc",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus", "DESKTOP_SESSION": "gnome",
            "XDG_SESSION_TYPE": "wayland", "XDG_SESSION_ID": "3", "SESSION_MANAGER": "local/host:@/tmp/.ICE-unix/9",
            "GIT_ASKPASS": "/usr/lib/git-core/git-gui--askpass", "WEBHOOK_PORT": "8080", "COOKIE_JAR": "/tmp/jar",
            "LANG": "C.UTF-8", "TERM": "xterm-256color"}
ROWS = ([(name, value) for name in SECRET_NAMES for value in ("abcdefghijklmnop0123", '{"auths":{"r":{"auth":"dXNlcjpwYXNz"}}}')]
        + [(name, value) for name in ("NOTIFY", "ALERTS_TO", "MY_HOOK", "X") for value in SECRET_VALUES])


def test_the_table_is_wide():
    assert len(ROWS) + len(ORDINARY) >= 40


@pytest.mark.parametrize(("name", "value"), ROWS)
def test_a_secret_carrier_never_reaches_a_child(name, value):
    assert looks_secret(name) or secret_value(value)
    assert name not in child_environment(environ={name: value, "PATH": "/bin"})


@pytest.mark.parametrize("name", sorted(ORDINARY))
def test_what_programs_need_stays(name):
    assert not looks_secret(name)
    assert child_environment(environ={name: ORDINARY[name]})[name] == ORDINARY[name]


def test_a_tool_that_dumps_its_environment_finds_none_of_them(env, monkeypatch):
    for name, value in ROWS:
        monkeypatch.setenv(name, value)
    env.user_tool("dump.py", tool_source("dump", "import os, json\n    return json.dumps(dict(os.environ))"))
    tool = env.service().current_tools()[0]
    seen = json.loads(tool.run({}, env.ctx()).content)
    assert not {name for name, _ in ROWS} & set(seen)
