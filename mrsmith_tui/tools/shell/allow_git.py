"""The read-only set's git: the global options, each read-only subcommand's table, and the
repository configuration that would make a read-only command run a program or print a token."""

from __future__ import annotations

import re
from typing import Any

from mrsmith_tui.tools.shell.program import Program

GIT_GLOBAL = Program(  # no -c/--config-env, -C, --git-dir/--work-tree, --exec-path, -p/--paginate, --icase-pathspecs
    "P",
    "no-pager no-optional-locks literal-pathspecs glob-pathspecs noglob-pathspecs "
    "no-replace-objects no-lazy-fetch no-advice version",
    permute=False,
)

_DIFF = (
    "patch no-patch unified= raw patch-with-raw patch-with-stat stat=? compact-summary numstat shortstat "
    "dirstat=? cumulative summary name-only name-status submodule=? color=? no-color color-moved=? no-color-moved "
    "color-moved-ws= word-diff=? word-diff-regex= color-words=? no-renames rename-empty no-rename-empty "
    "find-renames=? find-copies=? find-copies-harder irreversible-delete diff-filter= pickaxe-all "
    "pickaxe-regex minimal patience histogram diff-algorithm= anchored= indent-heuristic no-indent-heuristic "
    "ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines "
    "ignore-matching-lines= ignore-submodules=? inter-hunk-context= function-context exit-code quiet "
    "no-ext-diff no-textconv src-prefix= dst-prefix= no-prefix default-prefix line-prefix= relative=? "
    "no-relative text abbrev=? full-index binary break-rewrites=? ws-error-highlight= check merge-base "
    "output-indicator-new= output-indicator-old= output-indicator-context= stat-width= stat-name-width= "
    "stat-graph-width= stat-count="
)
_DIFF_SHORT = "psuU:zM::C::B::Dl:S:G:RawbW"
# log --format/--pretty placeholders %G? etc. and --show-signature run gpg.program: checked by "git_format"
_LOG = (
    "oneline max-count= skip= since= after= until= before= since-as-filter= author= committer= grep= "
    "all-match invert-grep regexp-ignore-case basic-regexp extended-regexp fixed-strings perl-regexp "
    "merges no-merges min-parents= max-parents= no-min-parents no-max-parents first-parent exclude-first-parent-only "
    "all branches=? tags=? remotes=? exclude= reflog alternate-refs single-worktree ignore-missing bisect "
    "cherry-mark cherry-pick left-only right-only cherry walk-reflogs merge boundary simplify-by-decoration "
    "full-history dense sparse simplify-merges ancestry-path=? date-order author-date-order topo-order reverse "
    "no-walk=? do-walk pretty=? format= abbrev-commit no-abbrev-commit encoding= expand-tabs=? no-expand-tabs "
    "notes=? no-notes show-notes=? standard-notes no-standard-notes relative-date date= parents children "
    "left-right graph show-linear-break=? cc dd combined-all-paths remerge-diff diff-merges= no-diff-merges "
    "decorate=? no-decorate decorate-refs= decorate-refs-exclude= clear-decorations source mailmap no-mailmap "
    "use-mailmap no-use-mailmap log-size follow count no-graph show-pulls"
)
_LOG_SHORT = "n:iEFPmctgrL:"
_GREP_LONG = (
    "cached untracked no-index no-exclude-standard exclude-standard recurse-submodules text ignore-case "
    "max-depth= recursive no-recursive word-regexp invert-match full-name extended-regexp basic-regexp "
    "perl-regexp fixed-strings line-number column files-with-matches name-only files-without-match null "
    "only-matching count color=? no-color break heading show-function context= after-context= before-context= "
    "function-context threads= and or not all-match quiet max-count= no-textconv"
)


def _git(short: str = "", long: str = "", **kw: Any) -> Program:
    return Program(short, long, **kw)


GIT: dict[str, Program] = {
    "status": _git("sbvu::zM::", "short branch show-stash porcelain=? long verbose untracked-files=? ignored=? "
                   "ignore-submodules=? null column=? no-column ahead-behind no-ahead-behind renames no-renames find-renames=?"),
    "log": _git(_DIFF_SHORT + _LOG_SHORT, f"{_DIFF} {_LOG}", numeric=True, check="git_log"),
    "whatchanged": _git(_DIFF_SHORT + _LOG_SHORT, f"{_DIFF} {_LOG}", numeric=True, check="git_log"),
    "show": _git(_DIFF_SHORT + _LOG_SHORT, f"{_DIFF} {_LOG}", numeric=True, check="git_log"),
    "diff": _git(_DIFF_SHORT + "0123", f"{_DIFF} cached staged"),
    "shortlog": _git("nsec", "numbered summary email committer format= group= all branches=? tags=? since= until= "
                     "after= before= no-merges merges first-parent author= grep=", numeric=True, check="git_format"),
    "blame": _git("bL:ltsenfpwM::C::c", "root show-stats reverse first-parent porcelain line-porcelain incremental "
                  "encoding= date= progress no-progress score-debug show-name show-number show-email "
                  "abbrev=? color-lines color-by-age minimal ignore-rev="),
    "rev-parse": _git("q", "verify quiet short=? abbrev-ref=? symbolic symbolic-full-name all branches=? tags=? "
                      "remotes=? glob= exclude= disambiguate= local-env-vars show-toplevel show-prefix show-cdup "
                      "git-dir absolute-git-dir git-common-dir is-inside-git-dir is-inside-work-tree "
                      "is-bare-repository is-shallow-repository show-superproject-working-tree show-object-format=? "
                      "show-ref-format default= prefix= revs-only no-revs flags no-flags since= after= until= "
                      "before= path-format= sq not"),
    "ls-files": _git("cdmoiskutvfzx:", "cached deleted modified others ignored stage killed unmerged directory "
                     "no-empty-directory eol deduplicate exclude= exclude-standard error-unmatch full-name "
                     "recurse-submodules abbrev=? debug format= sparse resolve-undo"),
    "ls-tree": _git("dtrlz", "long name-only name-status object-only full-name full-tree abbrev=? format="),
    "cat-file": _git("tsep", "allow-unknown-type mailmap no-mailmap use-mailmap no-use-mailmap"),
    "describe": _git("", "tags all long abbrev= always dirty=? broken=? exact-match contains match= exclude= "
                     "first-parent candidates= debug"),
    "rev-list": _git("n:", "max-count= skip= since= after= until= before= all branches=? tags=? remotes=? "
                     "count reverse first-parent merges no-merges left-right left-only right-only cherry-pick "
                     "cherry-mark boundary topo-order date-order author-date-order parents children objects "
                     "objects-edge no-object-names abbrev-commit abbrev=? oneline ancestry-path=? author= "
                     "committer= grep= timestamp header", numeric=True, check="git_format"),
    "name-rev": _git("", "name-only tags refs= exclude= no-undefined always all annotate-stdin"),
    "merge-base": _git("a", "all octopus is-ancestor independent fork-point"),
    "show-ref": _git("dsq", "head tags heads branches dereference hash=? abbrev=? verify quiet exists"),
    "for-each-ref": _git("", "count= shell perl python tcl sort= format= color=? points-at= merged=? no-merged=? "
                         "contains=? no-contains=? ignore-case omit-empty exclude= include-root-refs", check="git_format"),
    "grep": _git("aiIwvhHEGPFnlLzocpWqe:f:A:B:C:m:", _GREP_LONG, numeric=True, operands="pattern", pattern_opts="e f", path_opts="f"),
    "count-objects": _git("vH", "verbose human-readable", operands="none"),
    "version": _git("", "build-options", operands="none"),
    "check-ignore": _git("qvnz", "quiet verbose non-matching no-index"),
    "check-attr": _git("az", "all cached source="),
    # listing forms only; argv checks that nothing would be created, deleted or written
    "branch": _git("arvli", "all remotes verbose list show-current ignore-case contains=* no-contains=* merged=* "
                   "no-merged=* points-at= sort= format= color=? no-color column=? no-column abbrev=? no-abbrev omit-empty",
                   check="git_list"),
    "tag": _git("lin::", "list ignore-case contains=* no-contains=* merged=* no-merged=* points-at= sort= format= "
                "color=? column=? no-column omit-empty", check="git_list"),
    "remote": _git("v", "verbose", operands="none", max_operands=0),
    "remote get-url": _git("", "push all", operands="none", max_operands=1),
    "stash list": _git(_LOG_SHORT, _LOG, check="git_log"),
    "stash show": _git(_DIFF_SHORT + "u", f"{_DIFF} include-untracked only-untracked", operands="none", max_operands=1),
    "worktree list": _git("vz", "porcelain verbose expire=", operands="none", max_operands=0),
    "submodule status": _git("q", "quiet cached recursive"),  # each submodule's commit, its paths as operands
    "reflog": _git(_LOG_SHORT, _LOG, numeric=True, max_operands=0, check="git_log"),
    "reflog show": _git(_LOG_SHORT, _LOG, numeric=True, max_operands=1, check="git_log"),
    # --list only with --local: the global config can hold tokens (url.<token>@host, credentials)
    # no --get-urlmatch (prints every http.* value for a URL: extra headers with tokens), no --includes
    # (reads the files a repository's include.path names)
    "config": _git("lz", "get get-all get-regexp list local show-origin show-scope name-only null "
                   "type= bool int bool-or-int path expiry-date default= no-includes", operands="none",
                   check="git_config"),
}
GIT_WITH_SUB = {"stash": frozenset({"list", "show"}), "remote": frozenset({"get-url"}), "worktree": frozenset({"list"}),
                "reflog": frozenset({"show"}), "submodule": frozenset({"status"})}
GIT_NEEDS_SUB = frozenset({"stash", "worktree", "submodule"})  # `git stash` alone pushes
# --format placeholders that verify signatures (run gpg.program from the repository's config)
GIT_FORMAT_RUNS = re.compile(r"%G|signature|show-signature", re.IGNORECASE)

# Repository configuration that makes a read-only git command run a program or read elsewhere.
GIT_CONFIG_DANGER = re.compile(
    r"^(core\.(fsmonitor|worktree|pager|sshcommand|gitproxy|askpass|editor|attributesfile|alternaterefscommand)"
    r"|diff\.external|diff\.[^\n]+\.(command|textconv)|filter\.[^\n]+|gpg\.([^\n]+\.)?program|log\.showsignature"
    r"|pager\.[^\n]+|credential\..*|uploadpack\.[^\n]+|sequence\.editor|blame\.ignorerevsfile|mailmap\.file"
    # files read from elsewhere: an include of ~/.pypirc makes `git config --get pypi.password` print it
    r"|include\.path|includeif\.[^\n]+\.path|core\.excludesfile"
    # a partial clone fetches missing objects while reading (`git log -p`): through these
    r"|extensions\.partialclone|remote\.[^\n]+\.(promisor|uploadpack|receivepack|vcs|proxy)|protocol\.[^\n]*allow)$"
)
# Keys `git config --get` may not print: they hold tokens (an extra header, a URL rewrite with a token).
GIT_CONFIG_SECRET_KEY = re.compile(r"(?i)(extraheader|insteadof|pushinsteadof|^url\.|^credential|cookiefile|sslkey|sslcert)")
# Subcommands that print the repository's config values (asked when one holds a token).
GIT_PRINTS_CONFIG = frozenset({"config", "remote", "remote get-url"})
GIT_CONFIG_OFF = frozenset({"", "false", "no", "off", "0"})
# Hooks a read-only command can fire (looked up where core.hooksPath or the git dir puts them).
GIT_READ_HOOKS = ("post-index-change",)
