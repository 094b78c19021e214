"""Round 2's credential files and the values learned from them (adversary findings)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from mrsmith_tui.security.redact import Redactor
from mrsmith_tui.security.sensitive import SensitivePaths, is_repository_config
from mrsmith_tui.security.tree_secrets import forget_learned_roots, learn_tree_secrets, secret_values
from mrsmith_tui.tools.shell.classify import classify

NEW_FILES = {
    "gradle.properties": "signing.password=GRADLEPROPSsecret_4433\nossrhPassword=GRADLEossrh_9911\n",
    "app/gradle.properties": "storePassword=hunter22xx\n",
    "keystore.properties": "storePassword=KEYSTOREPROPS_2288\nkeyPassword=KEYSTOREPROPSkey_1177\n",
    ".sentryclirc": "[auth]\ntoken=SENTRYCLIRC_tok_5599\n",
    "rclone.conf": '[remote "s3"]\ntype = s3\nsecret_access_key = RCLONEsecret_8123\n',
    "settings.xml": "<settings><servers><server><password>MAVENSETTINGS_pw_6612</password></server></servers></settings>\n",
    "build/settings.xml": "<settings><password>MAVENdeep_pw_1</password></settings>\n",
    ".gitconfig": '[url "https://x-access-token:GITCONFIGTRACKED_ghtok1@github.com/"]\n\tinsteadOf = https://github.com/\n',
    "appsettings.Development.json": '{"ConnectionStrings": {"Db": "Server=x;Password=APPSETTINGS_pw_3322"}}\n',
    "appsettings.Production.json": '{"Jwt": {"Key": "APPSETTINGSjwtKey99"}}\n',
    "sentry.properties": "auth.token=SENTRYPROPS_tok1\n",
}
READERS = ["cat", "head -n 2", "grep -n a", "sort", "base64", "od -c"]


@pytest.mark.parametrize(("path", "reader"), list(itertools.product(sorted(NEW_FILES), READERS)))
def test_more_credential_files_ask_by_every_reader(path: str, reader: str, tmp_path: Path) -> None:
    full = tmp_path / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(NEW_FILES[path])
    verdict = classify(f"{reader} {path}", root=tmp_path)
    assert not verdict.read_only and verdict.rule == "secret", (path, reader, verdict)


def test_gitmodules_asks_only_when_a_url_carries_credentials(tmp_path: Path) -> None:
    (tmp_path / ".gitmodules").write_text('[submodule "s"]\n\tpath = s\n\turl = https://github.com/o/s.git\n')
    assert classify("cat .gitmodules", root=tmp_path).read_only
    for url in ("https://x-access-token:GITMODULESTOKEN1@github.com/o/s.git", "https://ghp_abcdefghijklmnop@github.com/x",
                "ssh://user:pw@host/x"):
        (tmp_path / ".gitmodules").write_text(f'[submodule "s"]\n\tpath = s\n\turl = {url}\n')
        assert is_repository_config(str(tmp_path / ".gitmodules"))
        for reader in READERS:
            assert not classify(f"{reader} .gitmodules", root=tmp_path).read_only, (url, reader)


def test_the_redactor_learns_the_new_files_values(tmp_path: Path) -> None:
    for path, text in NEW_FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    forget_learned_roots()
    redactor = Redactor()
    learn_tree_secrets(tmp_path, SensitivePaths(), redactor=redactor)
    for secret in ("GRADLEPROPSsecret_4433", "KEYSTOREPROPS_2288", "SENTRYCLIRC_tok_5599", "RCLONEsecret_8123",
                   "MAVENSETTINGS_pw_6612", "GITCONFIGTRACKED_ghtok1", "hunter22xx"):
        assert secret not in redactor.redact(f"x {secret} y"), secret
    forget_learned_roots()


WORDS = ["correct-horse-battery-staple", "supersecretpassword", "Zx9#q", "abcd", "hunter", "letmein", "qwerty_pw",
         "p@ss", "my secret phrase"]
KEYS = ["DB_PASSWORD", "password", "SHORTPW", "API_TOKEN", "client_secret", "AUTH", "aws_secret_access_key",
        "signing.password", "storePassword", "REDIS_KEY", "MY_CREDENTIAL"]


@pytest.mark.parametrize(("key", "value"), list(itertools.product(KEYS, WORDS)))
def test_a_value_under_a_secret_key_is_learned_whatever_its_shape(key: str, value: str) -> None:
    for line in (f"{key}={value}", f'{key}: "{value}"', f"export {key}='{value}'", f"<{key}>{value}</{key}>"):
        assert value in secret_values(line), line


@pytest.mark.parametrize("line", ["NODE_ENV=production", "DEBUG=true", "PASSWORD=", "TOKEN=$T", "KEY_FILE=/etc/k",
                                  "password: null", "API_KEY=abc", "name=correct-horse"])
def test_placeholders_and_ordinary_settings_are_not_learned(line: str) -> None:
    assert secret_values(line) == [], line
