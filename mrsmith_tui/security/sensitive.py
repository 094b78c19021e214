"""Paths that look like secrets: reading them asks the person first.

The built-in list is gitignore-style patterns (matched with pathspec against the path relative
to the working directory, at any depth unless the pattern has a slash inside it). Config's
`sensitivePaths` adds patterns; a `!pattern` there takes one back out. A path outside the
working directory is always sensitive: the tools do not know what it is.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import PurePosixPath

import pathspec

DEFAULT_SENSITIVE_PATTERNS: tuple[str, ...] = (
    # .env and every variant (.env.local, .env~, .env-prod, .env_old, .envrc); .env.example and the
    # like ask too: real values end up in them often enough.
    ".env*",
    "*.env",  # prod.env, secrets.env
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.kdbx",
    "*.ppk",  # PuTTY private keys
    "AuthKey_*.p8",  # Apple API keys
    "*.tfstate",  # Terraform state holds every secret of the infrastructure in clear
    "*.tfstate.backup",
    # ssh private keys: any id_* without an extension (id_work, id_github), and the usual names with
    # any suffix (id_rsa.bak); id_utils.py and id_map.json are code, not keys
    "id_*",
    "!id_*.*",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "id_xmss*",
    "!id_*.pub",
    ".ssh/",
    ".aws/",
    ".gnupg/",
    ".azure/",
    "**/.config/gcloud/",
    "**/.config/gh/hosts.yml",
    ".netrc",
    "_netrc",
    ".pgpass",
    ".htpasswd",
    ".git-credentials*",  # .git-credentials.bak too
    "secrets.yml",  # Rails, Ansible, ASP.NET user secrets
    "secrets.yaml",
    "secrets.json",
    ".npmrc",
    ".pypirc",
    "*credentials*.json",
    "credentials",  # ~/.aws/credentials, ~/.cargo/credentials and kin
    "credentials.toml",
    "client_secret*.json",  # Google OAuth clients
    "service-account*.json",
    ".vault-token",
    ".my.cnf",
    ".dockercfg",
    "**/.docker/config.json",
    "**/.kube/config",
    "kubeconfig",
    # A remote URL in a repository's config can carry a token (https://user:ghp_…@github.com); git itself
    # still reads it, only reading it as a file asks.
    ".git/config",
    # MCP server configs name tokens in headers and environments (#24)
    ".mcp.json",
    "**/.config/mrsmith/mcp.json",
)

OUTSIDE_ROOT = "outside the working directory"


def _user_mcp_config() -> str:
    """The person's own MCP config (#24) wherever XDG_CONFIG_HOME puts it: it names their tokens."""
    from mrsmith_tui.paths import config_dir

    try:
        return os.path.realpath(config_dir() / "mcp.json")
    except OSError:
        return str(config_dir() / "mcp.json")


def is_user_mcp_config(path: str | os.PathLike[str]) -> bool:
    """`path` (already resolved by the caller) is the person's mcp.json; never touches the disk for it."""
    try:
        return os.path.abspath(path) == _user_mcp_config()
    except OSError:  # the config folder swapped away meanwhile
        return False


@lru_cache(maxsize=32)
def _spec(extra: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(DEFAULT_SENSITIVE_PATTERNS + extra)


class SensitivePaths:
    """Answers "does this path look like a secret, and why?" for one session's configuration."""

    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.extra = tuple(p.strip() for p in extra if p and p.strip())
        self._spec = _spec(self.extra)

    def reason(self, path: str | os.PathLike[str], root: str | os.PathLike[str]) -> str | None:
        """None for an ordinary path inside the root; else why reading it should ask.

        `path` may be relative to `root` or absolute. It is judged by name (what the person
        would see), and, when it exists, by where it really leads (a link named `notes.txt`
        to `.ssh/id_rsa` is a secret too).
        """
        real_root = os.path.realpath(root)
        raw = os.fspath(path)
        joined = raw if os.path.isabs(raw) else os.path.join(real_root, raw)
        for candidate in dict.fromkeys((os.path.normpath(joined), os.path.realpath(joined))):
            rel = os.path.relpath(candidate, real_root)
            if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
                return f"it is {OUTSIDE_ROOT}"
            if rel != "." and (self.matches(rel) or candidate == _user_mcp_config()):
                return "this looks like a secret"
        return None

    def matches(self, rel_path: str) -> bool:
        """Whether a root-relative POSIX path (a file or a folder) matches a sensitive pattern."""
        rel = PurePosixPath(rel_path).as_posix().strip("/")
        if not rel or rel == ".":
            return False
        # A folder pattern (`.ssh/`) matches what is inside it; try the path as a folder too. Lower-cased
        # as well: `.ENV` or `ID_RSA` on a case-insensitive filesystem is the same file.
        for candidate in dict.fromkeys((rel, rel.lower())):
            if self._spec.match_file(candidate) or self._spec.match_file(candidate + "/_"):
                return True
        return False
