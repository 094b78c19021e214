"""The environment a child gets: secret-looking names out, passthrough back in, values redacted."""
from __future__ import annotations

import subprocess
import sys

import pytest

from mrsmith_tui.security.environment import NO_TERMINAL, child_environment, looks_secret, scrub_process_environment
from mrsmith_tui.security.redact import Redactor


@pytest.mark.parametrize("name", ["OPENAI_API_KEY", "MRSMITH_GROQ_API_KEY", "GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN",
                                  "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION", "PGPASSWORD", "DB_PASSWORD",
                                  "MYSQL_PWD", "DJANGO_SECRET_KEY", "CLIENT_SECRET", "STRIPE_APIKEY", "GPG_KEY",
                                  "GOOGLE_APPLICATION_CREDENTIALS", "HF_TOKEN", "GITHUB_PAT", "SSH_PASSPHRASE",
                                  "DB_PASS", "SMTP_PASSWD", "REDIS_PWD", "SENTRY_DSN", "DB_DSN"])
def test_secret_names(name):
    assert looks_secret(name)


@pytest.mark.parametrize("name", ["PATH", "HOME", "PWD", "OLDPWD", "TERM", "LANG", "SSH_AUTH_SOCK", "EDITOR",
                                  "TOKENIZERS_PARALLELISM", "KEYBOARD", "LESSKEY", "MONKEY", "PYTHONPATH", "VIRTUAL_ENV"])
def test_ordinary_names(name):
    assert not looks_secret(name)


def test_scrub_takes_out_holds_and_redacts():
    env = {"PATH": "/bin", "GITHUB_TOKEN": "ghp_abcdefghijkl", "MY_LLM": "sk-UNIQUE-123456", "MRSMITH_X_API_KEY": "k",
           "AWS_REGION": "eu-west-1"}
    redactor, held = Redactor(), {}
    taken = scrub_process_environment(["MRSMITH_X_API_KEY"], ["sk-UNIQUE-123456"], environ=env, redactor=redactor,
                                      held=held)
    assert taken == ["AWS_REGION", "GITHUB_TOKEN", "MRSMITH_X_API_KEY", "MY_LLM"]
    assert env == {"PATH": "/bin"}
    assert redactor.redact("ghp_abcdefghijkl sk-UNIQUE-123456 eu-west-1") == "[redacted] [redacted] eu-west-1"
    assert child_environment(environ=env, held=held) == {"PATH": "/bin"} | NO_TERMINAL
    assert child_environment(["GITHUB_*"], environ=env, held=held) == {"PATH": "/bin", "GITHUB_TOKEN": "ghp_abcdefghijkl"} | NO_TERMINAL


def test_child_environment_filters_what_was_never_scrubbed():
    env = {"PATH": "/bin", "ANTHROPIC_API_KEY": "sk-ant-xxxxxxxx", "NPM_TOKEN": "npm_xxxxxxxxx"}
    assert child_environment(environ=env) == {"PATH": "/bin"} | NO_TERMINAL
    assert child_environment(["NPM_TOKEN"], environ=env) == {"PATH": "/bin", "NPM_TOKEN": "npm_xxxxxxxxx"} | NO_TERMINAL


def test_a_url_with_a_password_is_scrubbed_under_any_name():
    env = {"PATH": "/bin", "DATABASE_URL": "postgres://app:PGPASSWORD-XYZ@db/x", "HOMEPAGE": "https://example.com/a@b"}
    redactor, held = Redactor(), {}
    assert scrub_process_environment(environ=env, redactor=redactor, held=held) == ["DATABASE_URL"]
    assert "PGPASSWORD-XYZ" not in redactor.redact("it is PGPASSWORD-XYZ")
    assert child_environment(environ={"PATH": "/bin", "LATER_URL": "mysql://u:hunter2hunter2@h/db"}) == {"PATH": "/bin"} | NO_TERMINAL


def test_a_path_or_common_value_under_a_secret_name_is_not_redacted_everywhere(tmp_path):
    env = {"PATH": "/usr/local/bin:/usr/bin", "HOME": str(tmp_path), "PASSWORD_STORE_DIR": "/usr/bin",
           "SECRETS_DIR": str(tmp_path), "API_TOKEN": "tok-1234567890"}
    redactor, held = Redactor(), {}
    scrub_process_environment(environ=env, redactor=redactor, held=held)
    assert redactor.redact(f"/usr/bin {tmp_path}") == f"/usr/bin {tmp_path}"
    assert redactor.redact("tok-1234567890") == "[redacted]"
    assert env == {"PATH": "/usr/local/bin:/usr/bin", "HOME": str(tmp_path)}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_process_holding_the_keys_is_not_dumpable_and_its_children_are():
    """After keep_process_private a same-user child cannot read the parent's /proc environ or memory
    (`cat /proc/$PPID/environ | base64` got past redaction); the child itself is an ordinary process."""
    code = ("import ctypes, subprocess, sys\n"
            "from mrsmith_tui.security.environment import keep_process_private\n"
            "libc = ctypes.CDLL(None)\n"
            "assert keep_process_private()\n"
            "child = subprocess.run([sys.executable, '-c', 'import ctypes; print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))'],"
            " capture_output=True, text=True).stdout.strip()\n"
            "print(libc.prctl(3, 0, 0, 0, 0), child)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1"]
