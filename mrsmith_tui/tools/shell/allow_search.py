"""The read-only set's search tools (grep, rg, find), and the programs that show names only."""

from __future__ import annotations

import re

from mrsmith_tui.tools.shell.program import GNU, Program

SEARCH_PROGRAMS: dict[str, Program] = {
    "grep": Program(
        "EFGPe:f:iywxvcLlm:obnHhsqTZzaIrUA:B:C:d:D:",
        f"{GNU} extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case "
        "word-regexp line-regexp null-data no-messages invert-match byte-offset line-number line-buffered "
        "with-filename no-filename label= only-matching quiet silent binary-files= text directories= devices= "
        "recursive include= exclude= exclude-from= exclude-dir= files-without-match files-with-matches count "
        "initial-tab null before-context= after-context= context= color=? colour=? binary max-count=",
        operands="pattern", path_opts="f file exclude-from", pattern_opts="e f regexp file", numeric=True, dynamic_ok=True,
        check="search_globs",
    ),
    # ripgrep: no --pre/--pre-glob/--hostname-bin (run programs), -z/--search-zip (runs decompressors),
    # -L/--follow (leaves the tree through links), --ignore-file (reads any file)
    "rg": Program(
        "e:f:iswxvcloqnNpHIuUPaA:B:C:m:M:d:j:g:t:T:r:E:F0S",
        f"{GNU} regexp= file= ignore-case smart-case case-sensitive word-regexp line-regexp invert-match count "
        "count-matches files-with-matches files-without-match only-matching quiet line-number no-line-number "
        "pretty with-filename no-filename unrestricted multiline multiline-dotall pcre2 no-pcre2 engine= text "
        "after-context= before-context= context= max-count= max-columns= max-columns-preview max-depth= "
        "threads= glob= iglob= glob-case-insensitive type= type-not= type-list replace= encoding= "
        "fixed-strings null null-data hidden no-hidden no-ignore no-ignore-vcs no-ignore-parent no-ignore-dot "
        "no-ignore-global no-ignore-exclude no-ignore-files no-ignore-messages no-messages no-config files "
        "heading no-heading column no-column json no-json vimgrep sort= sortr= stats trim no-trim passthru "
        "color= colors= byte-offset crlf no-crlf binary no-binary max-filesize= one-file-system "
        "no-unicode unicode line-buffered block-buffered context-separator= field-context-separator= "
        "field-match-separator= path-separator= stop-on-nonmatch debug trace",
        operands="pattern", path_opts="f file", pattern_opts="e f regexp file files type-list", check="search_globs",
    ),
    # find's words are a small language of its own: checked by argv
    "find": Program(check="find"),
}

# egrep/fgrep are grep
SEARCH_PROGRAMS["egrep"] = SEARCH_PROGRAMS["grep"]
SEARCH_PROGRAMS["fgrep"] = SEARCH_PROGRAMS["grep"]

# grep's and rg's options that pick which files a recursive search reads (checked against secrets)
SEARCH_GLOB_OPTS = frozenset({"--include", "-g", "--glob", "--iglob"})

# --------------------------------------------------------------------------- find

# primary -> what its value is: None (no value), "any", "path" (a file it reads), "date"
FIND_PRIMARIES: dict[str, str | None] = {
    **dict.fromkeys((
        "-print -print0 -ls -prune -quit -true -false -empty -readable -writable -executable -nouser -nogroup "
        "-depth -d -xdev -mount -noleaf -daystart -ignore_readdir_race -noignore_readdir_race -not -a -and -o "
        "-or ! ( ) ,"
    ).split()),
    **dict.fromkeys((
        "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -size "
        "-mtime -mmin -atime -amin -ctime -cmin -used -perm -user -group -uid -gid -links -inum -maxdepth "
        "-mindepth -regextype -fstype -printf"
    ).split(), "any"),
    **dict.fromkeys("-newer -anewer -cnewer -samefile".split(), "path"),
}
FIND_NEWER_XY = re.compile(r"^-newer[aBcm][aBcmt]$")  # -newermt DATE; -newerXY FILE otherwise
FIND_LEADING = frozenset({"-P", "-H"})  # no -L: it follows links out of the tree

# These show names and sizes, never content: naming a secret inside the root is fine
# (`ls -l .env`, `du -sh *`), as list_dir shows it; a path outside the root still asks.
# Not wc or file: they read the secret (`wc -L`, `file id_rsa` says "OpenSSH private key").
NAMES_ONLY = frozenset("ls stat du tree".split())
