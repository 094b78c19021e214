from __future__ import annotations

import os

import pytest

from mrsmith_tui.security.sensitive import SensitivePaths

SECRET = [
    ".env", ".env.local", "app/.env.production", ".envrc", "certs/server.pem", "tls.key", "id_rsa", "home/id_ed25519", "id_ecdsa_sk", "backup/id_rsa.old",
    ".ssh", ".ssh/config", "a/.ssh/known_hosts", ".aws/credentials", ".gnupg/pubring.kbx", ".netrc",
    ".git-credentials", ".npmrc", ".pypirc", "gcp-credentials.json", "x/.docker/config.json", ".kube/config",
    "deep/.kube/config", "store.p12",
    "prod.env", "secrets.env", ".env~", ".env-prod", ".env_old", ".env.example", "credentials", ".cargo/credentials.toml",
    ".vault-token", "putty.ppk", "AuthKey_ABC123.p8", "client_secret_123.apps.googleusercontent.com.json",
    "service-account-prod.json", "kubeconfig", ".dockercfg", "infra/terraform.tfstate", "terraform.tfstate.backup",
    ".my.cnf", ".git/config", "creds/.git-credentials.bak", "config/secrets.yml", "secrets.json",
    "id_work", ".ssh-backup/id_github", "keys/id_deploy_2024",  # private keys named by their owner
]
ORDINARY = ["src/main.py", "id_utils.py", "id_work.pub", "id_token.go", "src/id_map.ts", "README.md", "id_rsa.pub", "docs/environment.md", "key.txt", "config.json", ".gitignore", "keys.py",
            "credentials.py", "src/env.ts", "environment.yml", ".git/HEAD", "docs/kubeconfig.md"]


@pytest.mark.parametrize("path", SECRET)
def test_secret_paths_ask(path, tmp_path):
    assert SensitivePaths().reason(path, tmp_path) == "this looks like a secret"


@pytest.mark.parametrize("path", ORDINARY)
def test_ordinary_paths_do_not(path, tmp_path):
    assert SensitivePaths().reason(path, tmp_path) is None


@pytest.mark.parametrize("path", ["/etc/passwd", "../sibling", "a/../../x"])
def test_outside_the_root_asks(path, tmp_path):
    assert SensitivePaths().reason(path, tmp_path) == "it is outside the working directory"


def test_a_link_to_a_secret_is_a_secret(tmp_path):
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_rsa").write_text("k")
    os.symlink(tmp_path / ".ssh" / "id_rsa", tmp_path / "notes.txt")
    assert SensitivePaths().reason("notes.txt", tmp_path) == "this looks like a secret"


def test_config_adds_and_takes_back(tmp_path):
    paths = SensitivePaths(["*.sqlite", "!.env.example"])
    assert paths.reason("db/app.sqlite", tmp_path) is not None
    assert paths.reason(".env.example", tmp_path) is None
    assert paths.reason(".env", tmp_path) is not None
