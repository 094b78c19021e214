"""Adversary (#25, /init): the facts /init sends are read from ordinary files (docker-compose.yml,
the README, a workflow, a Makefile), and such files often repeat a value of the tree's `.env`. The
file tools redact those values (the tree's secrets are learnt before a tool runs); /init read the
same files without learning them first, so `/init` as the session's first act sent the database
password to the model. Generated table: every fact file /init reads x every kind of secret carrier."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
from pathlib import Path

import pytest

from mrsmith_tui.core.init_prompt import gather_facts
from mrsmith_tui.security.tree_secrets import forget_learned_roots

# (the secret file, how its line holds the value)
CARRIERS = [
    (".env", "DB_PASSWORD={v}\n"),
    (".env.local", "API_TOKEN={v}\n"),
    (".env.production", "export STRIPE_SECRET_KEY={v}\n"),
    (".ENV", "PASSWORD={v}\n"),
    ("config/.env.staging", "SECRET={v}\n"),
    ("app/.env.test", "AUTH_TOKEN='{v}'\n"),
    (".envrc", "export GITHUB_TOKEN={v}\n"),
    (".npmrc", "//registry.npmjs.org/:_authToken={v}\n"),
    (".pypirc", "[pypi]\npassword = {v}\n"),
    ("secrets.json", '{{"api_key": "{v}"}}\n'),
    ("secrets.yaml", "db_password: {v}\n"),
    ("credentials.json", '{{"client_secret": "{v}"}}\n'),
    ("terraform.tfvars", 'db_password = "{v}"\n'),
    (".netrc", "machine example.com login me password {v}\n"),
]

# (the file /init reads, how the value is repeated in it)
FACT_FILES = [
    ("Makefile", "deploy:\n\tcurl -u admin:{v} https://example.invalid\n"),
    ("justfile", "deploy:\n    echo {v}\n"),
    ("pyproject.toml", '[tool.x]\ntoken = "{v}"\n'),
    ("setup.cfg", "[x]\npassword = {v}\n"),
    ("tox.ini", "[testenv]\nsetenv = DB_PASSWORD={v}\n"),
    ("requirements.txt", "--extra-index-url https://user:{v}@pypi.example.invalid/simple\n"),
    ("package.json", '{{"scripts": {{"deploy": "TOKEN={v} node deploy.js"}}}}\n'),
    ("Cargo.toml", '[package]\nname = "x"\n# {v}\n'),
    ("go.mod", "module x\n// {v}\n"),
    ("Dockerfile", "FROM python\nENV DB_PASSWORD={v}\n"),
    ("docker-compose.yml", "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD={v}\n"),
    (".pre-commit-config.yaml", "repos: []\n# {v}\n"),
    ("Gemfile", "source 'https://{v}@gems.example.invalid'\n"),
    ("README.md", "# Project\nLog in with the shared key {v} for now.\n"),
    ("README", "Project\nkey: {v}\n"),
    ("CLAUDE.md", "Use the key {v} to reach staging.\n"),
    ("CONTRIBUTING.md", "Staging password: {v}\n"),
    (".cursorrules", "token {v}\n"),
    ("AGENTS.md", "# Notes\nstaging key {v}\n"),
    (".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    env:\n      TOKEN: {v}\n"),
]

ROWS = list(itertools.product(CARRIERS, FACT_FILES))


def _value(row: str) -> str:
    """A value of its own for every row (the redactor is one per process: a shared value would be
    known from an earlier row and hide the finding)."""
    digest = base64.b32encode(hashlib.sha256(row.encode()).digest()).decode().rstrip("=")
    return "Q" + digest[:10].lower() + digest[10:22] + "7z"


def test_the_table_is_wide():
    assert len(ROWS) >= 250


@pytest.mark.parametrize(("carrier", "fact"), ROWS, ids=[f"{c[0]}>{f[0]}" for c, f in ROWS])
def test_init_facts_never_hold_a_value_of_the_trees_secrets(tmp_path: Path, carrier, fact):
    forget_learned_roots()
    value = _value(f"{carrier[0]}|{fact[0]}")
    secret, fact_file = tmp_path / carrier[0], tmp_path / fact[0]
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text(carrier[1].format(v=value))
    fact_file.parent.mkdir(parents=True, exist_ok=True)
    fact_file.write_text(fact[1].format(v=value))
    facts, _ = gather_facts(tmp_path)
    shown_name = fact[0].rsplit("/", 1)[-1]
    assert shown_name in facts  # the file was read: the row checks something
    assert value not in facts
    if fact[0] == "package.json":
        assert json.dumps("deploy")[1:-1] in facts
