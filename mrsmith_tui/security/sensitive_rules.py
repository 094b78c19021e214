"""The built-in sensitive-path patterns, as data (gitignore style, matched by security.sensitive).

Where the list comes from (facts reused, no code): the path signatures of gitrob
(michenriksen/gitrob, core/signatures.go: key stores, credential configs, shell and database
histories), gitleaks' default path rule (`*.p12`/`*.pfx` key bundles) and the ecosystems' own
documentation of where they keep credentials (package managers, IaC variable files, serverless
and function-app local settings). A pattern without a slash matches at any depth.
"""

from __future__ import annotations

# ssh private keys: any id_* without an extension (id_work, id_github), the usual names with any
# suffix (id_rsa.bak), and gitrob's *_rsa/*_dsa/*_ecdsa/*_ed25519 (deploy_rsa); id_utils.py is code.
# First: its `!` lines take back only what came before them.
SSH_KEYS = (
    "id_*", "!id_*.*", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "id_xmss*", "*_rsa", "*_dsa",
    "*_ecdsa", "*_ed25519", "!id_*.pub",
)

# .env and every variant (.env.local, .env~, .env-prod, .env_old, .envrc); .env.example and the like
# ask too: real values end up in them often enough.
DOTENV = (".env*", "*.env")

KEYS_AND_KEY_STORES = (
    "*.pem", "*.key", "*.keypair", "*.p12", "*.pfx", "*.pkcs12", "*.jks", "*.keystore", "*.kdbx", "*.ppk", "*.asc",
    "*.ovpn", "*.keychain", "*.agilekeychain", "*.kwallet", "*.psafe3", "*.bek", "*.tpm", "*.fve", "*.tblk",
    "*.cscfg", "*.rdp",
    "AuthKey_*.p8",  # Apple API keys
    "otr.private_key",
    ".ssh/", ".gnupg/", ".password-store/", "**/.local/share/keyrings/",
)

CLOUD_AND_CLUSTERS = (
    ".aws/", ".azure/", "**/.config/gcloud/", "**/.docker/config.json", ".dockercfg", ".dockerconfigjson",
    "**/.kube/config", "kubeconfig", ".s3cfg", ".boto", ".passwd-s3fs", ".vault-token", "*credentials*.json",
    "credentials", "credentials.toml", "credentials.xml", "client_secret*.json", "service-account*.json",
    "*service?account*.json", "*serviceaccount*.json", "**/.config/gh/hosts.yml", "**/.config/hub",
    "**/.config/glab-cli/config.yml", ".git-credentials*", ".netrc", "_netrc", ".tugboat",
    "rclone.conf", ".sentryclirc", "sentry.properties", ".clasprc.json", "*.publishsettings", ".ftpconfig",
    "*firebase-adminsdk*.json",
    ".gitconfig",  # url."https://x-access-token:TOKEN@github.com/".insteadOf, credential helpers
)

PACKAGE_MANAGERS = (
    ".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", "pip.conf", "pip.ini", "auth.json",  # composer's auth.json
    "**/.m2/settings.xml", "settings-security.xml", "**/.gradle/gradle.properties", "nuget.config",
    "**/.bundle/config", "**/.gem/credentials", "**/.cargo/credentials", ".terraformrc", "terraform.rc",
    ".condarc", "bunfig.toml", "auth.toml", ".credentials",  # bun, poetry, sbt/ivy
    "gradle.properties",  # a project's own holds signing.password, ossrhPassword as often as ~/.gradle's
    "keystore.properties", "signing.properties", "secrets.properties",  # Android release signing, API keys
    "settings.xml",  # Maven's <server><password> wherever a build keeps its settings (mvn -s)
)

IAC_AND_SERVERLESS = (
    "*.tfstate", "*.tfstate.backup",  # Terraform state holds every secret of the infrastructure in clear
    "*.tfvars", "*.tfvars.json",  # Terraform variable files (terraform.tfvars, prod.auto.tfvars)
    ".vault_pass*", ".vault-pass*", "vault_pass*.txt", "vault-password*",  # Ansible vault passwords
    "local.settings.json",  # Azure Functions
    ".dev.vars", ".dev.vars.*",  # Cloudflare Workers
    ".runtimeconfig.json",  # Firebase functions
    "env.json",  # AWS SAM local env vars
    "**/.chalice/config.json",
    "serverless.env.yml", "serverless.env.yaml", "zappa_settings.json",
    "*.pkrvars.hcl",  # Packer variable files
)

APP_CONFIGS_WITH_PASSWORDS = (
    "secrets.yml", "secrets.yaml", "secrets.json", "secret_token.rb", "database.yml", "omniauth.rb",
    "carrierwave.rb", "wp-config.php", "LocalSettings.php", "knife.rb", ".htpasswd", "proftpdpasswd",
    ".pgpass", ".my.cnf", ".mylogin.cnf", "sftp-config", "sftp-config.json", "filezilla.xml", "recentservers.xml",
    "robomongo.json", "dbeaver-data-sources.xml", "ventrilo_srv.ini", ".trc", ".muttrc", ".esmtprc", ".fetchmailrc",
    ".msmtprc", "**/.purple/accounts.xml", "**/.irssi/config", "**/.recon-ng/keys.db",
    "jenkins.plugins.publish_over_ssh.BapSshPublisherPlugin.xml", "logins.json", "key4.db",
    "appsettings.*.json",  # .NET per-environment settings: connection strings with their passwords
)

SHELL_FILES = (  # exported tokens and typed passwords end up here
    ".bash_history", ".zsh_history", ".sh_history", ".history", ".mysql_history", ".psql_history", ".irb_history",
    ".python_history", ".node_repl_history", ".rediscli_history", ".sqlite_history",
    ".bashrc", ".zshrc", ".cshrc", ".profile", ".bash_profile", ".zprofile", ".zshenv", ".bash_aliases",
    ".exports", ".extra", ".functions",
)

# Every repository's own config, not only the root's: a remote URL (https://user:ghp_…@github.com)
# or an extraheader can carry a token in a submodule's (under .git/modules/) or a vendored
# repository's config as well. Git itself still reads them; only reading them as files asks.
# security.sensitive also knows a bare repository's config anywhere by its neighbours (HEAD, objects/).
REPOSITORY_CONFIGS = (
    "**/.git/config", "**/.git/config.worktree", "**/.git/worktrees/*/config.worktree", "**/.git/modules/**/config",
    "**/.git/modules/**/config.worktree",
)

# MCP server configs name tokens in headers and environments (#24).
MCP_CONFIGS = (".mcp.json", "**/.config/mrsmith/mcp.json")

DEFAULT_SENSITIVE_PATTERNS: tuple[str, ...] = (
    SSH_KEYS + DOTENV + KEYS_AND_KEY_STORES + CLOUD_AND_CLUSTERS + PACKAGE_MANAGERS + IAC_AND_SERVERLESS
    + APP_CONFIGS_WITH_PASSWORDS + SHELL_FILES + REPOSITORY_CONFIGS + MCP_CONFIGS
)
