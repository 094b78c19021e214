"""The read-only set of the shell tool, as data: which programs, which options, spelled exactly.

A command runs without asking only when its program is here and every word it passes fits
the program's table (shell_argv.py reads these tables; shell_syntax.py walks the shell
syntax). An option that is not listed — an abbreviation, a typo, a flag that writes or runs
something — makes the command ask. To allow more, add the exact option here.

Program fields:
- `short`: getopt letters; `x:` takes a value (attached `-xV` or next word), `x::` takes an
  optional value attached only (`-M50`). Letters may be clustered (`-la`).
- `long`: long options spelled in full: `name` (no value), `name=` (value as `--name=V` or
  `--name V`), `name=?` (optional value, only as `--name=V`), `name=*` (the next word if there
  is one: git's "last argument default", `git branch --merged [commit]`).
- `operands`: what the non-option words are: "paths" (read, so checked against the working
  directory and the sensitive list), "none" (not paths), "pattern" (the first one is a pattern
  unless a `pattern_opts` option gave one; the rest are paths), "date" (`+FORMAT` only).
- `max_operands`: more operands than this ask (`uniq IN OUT` writes OUT); with `dash_output`,
  one more operand may be `-` (standard output).
- `path_opts`: options whose value is a path that is read (checked like a path operand).
- `pattern_opts`: options that supply the pattern (then every operand is a path).
- `numeric`: `-NUM` is an option (`head -20`, `git log -5`).
- `permute`: options may follow operands (GNU getopt); builtins stop at the first operand.
- `dashdash`: `--` ends the options.
- `dynamic_ok`: every option the real program has only reads, so a word whose value is only
  known when it runs (`$(git ls-files)`) cannot turn into a writing or running option.
- `check`: a further check of the words' content (a sed script, a find expression, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Program:
    short: str = ""
    long: str = ""
    operands: str = "paths"
    max_operands: int | None = None
    dash_output: bool = False
    path_opts: str = ""
    pattern_opts: str = ""
    numeric: bool = False
    permute: bool = True
    dashdash: bool = True
    dynamic_ok: bool = False
    check: str = ""

    @cached_property
    def shorts(self) -> dict[str, int]:
        """letter -> 0 no value, 1 value, 2 optional attached value (longs: 3 the next word if any)."""
        out: dict[str, int] = {}
        i = 0
        while i < len(self.short):
            letter = self.short[i]
            arity = 0
            if self.short[i + 1 : i + 3] == "::":
                arity, i = 2, i + 2
            elif self.short[i + 1 : i + 2] == ":":
                arity, i = 1, i + 1
            out[letter] = arity
            i += 1
        return out

    @cached_property
    def longs(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for item in self.long.split():
            if item.endswith("=?"):
                out[item[:-2]] = 2
            elif item.endswith("=*"):
                out[item[:-2]] = 3
            elif item.endswith("="):
                out[item[:-1]] = 1
            else:
                out[item] = 0
        return out

    @cached_property
    def path_set(self) -> frozenset[str]:
        return frozenset(self.path_opts.split())

    @cached_property
    def pattern_set(self) -> frozenset[str]:
        return frozenset(self.pattern_opts.split())


GNU = "help version"  # every GNU tool has these two

# --------------------------------------------------------------------------- plain programs

PROGRAMS: dict[str, Program] = {
    "cat": Program("AbeEnstTuv", f"{GNU} show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting", dynamic_ok=True),
    "tac": Program("brs:", f"{GNU} before regex separator=", dynamic_ok=True),
    "nl": Program("b:d:f:h:i:l:n:ps:v:w:", f"{GNU} body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width=", dynamic_ok=True),
    "head": Program("c:n:qvz", f"{GNU} bytes= lines= quiet silent verbose zero-terminated", numeric=True, dynamic_ok=True),
    # no -f/-F/--follow (never ends), no --pid/-s/--retry
    "tail": Program("c:n:qvz", f"{GNU} bytes= lines= quiet silent verbose zero-terminated", numeric=True),
    "wc": Program("clmwL", f"{GNU} bytes chars lines max-line-length words total=", dynamic_ok=True),
    "ls": Program(
        "aAbBcCdfFgGhiI:klmnNopqQrRsStT:uUvw:xXZ1",
        f"{GNU} all almost-all author escape block-size= ignore-backups color=? directory dired classify=? file-type "
        "format= full-time group-directories-first no-group human-readable si hide= hyperlink=? indicator-style= "
        "inode ignore= kibibytes literal numeric-uid-gid hide-control-chars show-control-chars quote-name "
        "quoting-style= reverse recursive size sort= time= time-style= tabsize= width= context zero",
    ),
    "stat": Program("Lfc:t", f"{GNU} dereference file-system format= printf= terse cached=", dynamic_ok=True),
    # no -z/-Z (runs decompressors), -p (resets access times), -C/-m/-f (magic or name files)
    "file": Program("bcEhiklLNrsS0F:e:P:", f"{GNU} brief checking-printout exclude= exclude-quiet= extension keep-going mime mime-type mime-encoding no-dereference dereference no-pad no-buffer raw special-files print0 separator= parameter= apple"),
    "du": Program("0abcd:DhHklmsSxt:", f"{GNU} null all apparent-size block-size= bytes total max-depth= human-readable inodes si summarize separate-dirs one-file-system threshold= time=? time-style= exclude=", dynamic_ok=False),
    "df": Program("ahHiklPTt:x:", f"{GNU} all block-size= human-readable si inodes local no-sync sync output=? portability print-type type= exclude-type= total", operands="none"),
    "tree": Program("adfiqNQpugshDFvtcUrCJXnL:I:P:", f"{GNU} noreport charset= dirsfirst filesfirst du si prune matchdirs ignore-case gitignore filelimit= timefmt= sort= info", ),
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
    "sort": Program(  # no -o/--output, -T, --compress-program, --files0-from, --random-source
        "bcCdfghik:mMnrRsS:t:uVz",
        f"{GNU} ignore-leading-blanks check=? dictionary-order ignore-case general-numeric-sort human-numeric-sort "
        "ignore-nonprinting key= merge month-sort numeric-sort random-sort reverse stable buffer-size= "
        "field-separator= unique version-sort zero-terminated parallel= sort= debug",
    ),
    "uniq": Program("cdDf:is:uw:z", f"{GNU} count repeated all-repeated=? skip-fields= group=? ignore-case skip-chars= unique zero-terminated check-chars=", max_operands=1, dash_output=True),
    "cut": Program("b:c:d:f:nsz", f"{GNU} bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated", dynamic_ok=True),
    "paste": Program("d:sz", f"{GNU} delimiters= serial zero-terminated", dynamic_ok=True),
    "join": Program("a:e:ij:o:t:v:1:2:z", f"{GNU} ignore-case check-order nocheck-order header zero-terminated", max_operands=2),
    "comm": Program("123z", f"{GNU} check-order nocheck-order output-delimiter= total zero-terminated", max_operands=2),
    # no -l/--paginate (runs pr), -r/--recursive (follows links out of the tree), --to-file/--from-file/-X
    "diff": Program(
        "abBcC:dD:eEfF:hiI:nNpqsS:tTuU:vwW:x:yZ",
        f"{GNU} normal brief report-identical-files context=? unified=? ed rcs side-by-side left-column "
        "suppress-common-lines show-c-function show-function-line= label= expand-tabs initial-tab tabsize= "
        "suppress-blank-empty new-file unidirectional-new-file ignore-case ignore-file-name-case "
        "no-ignore-file-name-case ignore-tab-expansion ignore-trailing-space ignore-space-change "
        "ignore-all-space ignore-blank-lines ignore-matching-lines= text strip-trailing-cr "
        "no-dereference exclude= starting-file= minimal horizon-lines= speed-large-files color=? palette= "
        "width= line-format= old-line-format= new-line-format= unchanged-line-format= old-group-format= "
        "new-group-format= unchanged-group-format= changed-group-format= ifdef=",
        max_operands=2, check="diff_dirs",
    ),
    "cmp": Program("bi:ln:sv", f"{GNU} print-bytes ignore-initial= verbose bytes= quiet silent", max_operands=4),
    "od": Program("A:j:N:S::t:vw::abcdfilosx", f"{GNU} address-radix= skip-bytes= read-bytes= strings=? format= output-duplicates width=? traditional endian=", dynamic_ok=True),
    "hexdump": Program("bcCdoxvn:s:e:", f"{GNU}", dynamic_ok=False),
    "strings": Program("adfn:t:e:wsT:", f"{GNU} all data print-file-name bytes= radix= encoding= include-all-whitespace output-separator= target=", dynamic_ok=False, check="no_response_file"),
    "base64": Program("diw:", f"{GNU} decode ignore-garbage wrap=", max_operands=1, dynamic_ok=True),
    "md5sum": Program("btz", f"{GNU} binary text zero tag", dynamic_ok=False),
    "sha1sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha224sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha256sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha384sum": Program("btz", f"{GNU} binary text zero tag"),
    "sha512sum": Program("btz", f"{GNU} binary text zero tag"),
    "b2sum": Program("btzl:", f"{GNU} binary text zero tag length="),
    "cksum": Program("a:l:z", f"{GNU} algorithm= length= raw tag untagged base64 zero debug"),
    "fold": Program("bsw:", f"{GNU} bytes spaces width=", numeric=True, dynamic_ok=True),
    "fmt": Program("cp:stuw:g:", f"{GNU} crown-margin prefix= split-only tagged-paragraph uniform-spacing width= goal=", numeric=True),
    "expand": Program("it:", f"{GNU} initial tabs=", numeric=True, dynamic_ok=True),
    "unexpand": Program("at:", f"{GNU} all first-only tabs=", numeric=True, dynamic_ok=True),
    "column": Program("tc:s:o:xnN:J", f"{GNU} table columns= separator= output-separator= fillrows table-columns= json table-name= keep-empty-lines"),
    "rev": Program("0", f"{GNU} zero", dynamic_ok=True),
    "tr": Program("cCdstz", f"{GNU} complement delete squeeze-repeats truncate-set1", operands="none", max_operands=2),
    "seq": Program("f:s:w", f"{GNU} format= separator= equal-width", operands="none", permute=False),
    "numfmt": Program("d:z", f"{GNU} debug delimiter= field= format= from= from-unit= grouping header=? invalid= padding= round= suffix= to= to-unit= zero-terminated", operands="none"),
    "basename": Program("as:z", f"{GNU} multiple suffix= zero", operands="none", dynamic_ok=True),
    "dirname": Program("z", f"{GNU} zero", operands="none", dynamic_ok=True),
    "realpath": Program("emLPqsz", f"{GNU} canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero relative-to= relative-base=", path_opts="relative-to relative-base"),
    "readlink": Program("femnqsvz", f"{GNU} canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero"),
    "date": Program("d:uI::R", f"{GNU} date= utc universal iso-8601=? rfc-email rfc-3339= resolution debug", operands="date"),
    "uname": Program("asnrvmpio", f"{GNU} all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system", operands="none", max_operands=0),
    "id": Program("agGnruzZ", f"{GNU} context group groups name real user zero", operands="none"),
    "whoami": Program("", GNU, operands="none", max_operands=0),
    "groups": Program("", GNU, operands="none"),
    "nproc": Program("", f"{GNU} all ignore=", operands="none", max_operands=0),
    "arch": Program("", GNU, operands="none", max_operands=0),
    "uptime": Program("ps", f"{GNU} pretty since", operands="none", max_operands=0),
    "free": Program("bkmghltwsc:", f"{GNU} bytes kibi mebi gibi tebi pebi kilo mega giga tera peta human lohi total wide si seconds= count=", operands="none", max_operands=0),
    "sleep": Program("", GNU, operands="none"),
    "which": Program("a", "", operands="none"),
    # bash builtins: no long options, no permutation
    "pwd": Program("LP", "", operands="none", max_operands=0, permute=False),
    "cd": Program("LPe@", "", max_operands=1, permute=False, check="cd"),
    "type": Program("afptP", "", operands="none", permute=False),
    "echo": Program(check="anything", operands="none", dynamic_ok=True),
    "true": Program(check="anything", operands="none", dynamic_ok=True),
    "false": Program(check="anything", operands="none", dynamic_ok=True),
    ":": Program(check="anything", operands="none", dynamic_ok=True),
    "printf": Program(check="printf", operands="none", permute=False),
    "test": Program(check="test", operands="none", dashdash=False),
    "[": Program(check="test", operands="none", dashdash=False),
    # programs whose words are a small language of their own: checked by shell_argv
    "find": Program(check="find"),
    "sed": Program(  # no -i/--in-place (edits), -f (script from a file), --follow-symlinks
        "nrEsuze:l:",
        f"{GNU} quiet silent regexp-extended separate unbuffered null-data expression= line-length= posix debug sandbox",
        operands="pattern", pattern_opts="e expression", check="sed",
    ),
    "jq": Program(  # no -f/--from-file, --rawfile/--slurpfile (read any file), -L (modules), --args
        "rjacnsSeCMR",
        f"{GNU} raw-output raw-output0 join-output ascii-output compact-output null-input slurp sort-keys "
        "exit-status color-output monochrome-output raw-input tab indent= seq stream stream-errors arg= argjson=",
        operands="pattern", check="jq",
    ),
}

# grep's and rg's options that pick which files a recursive search reads (checked against secrets)
SEARCH_GLOB_OPTS = frozenset({"--include", "-g", "--glob", "--iglob"})

# Values the jq options --arg NAME VALUE and --argjson NAME JSON take two words.
JQ_TWO_VALUES = frozenset({"arg", "argjson"})

# egrep/fgrep are grep
PROGRAMS["egrep"] = PROGRAMS["grep"]
PROGRAMS["fgrep"] = PROGRAMS["grep"]

# Bash runs these itself (no PATH look-up) when they are the command's first word.
SHELL_BUILTINS = frozenset({"echo", "printf", "test", "[", "cd", "pwd", "type", "true", "false", ":", "command", "time"})

# Programs that only print what the environment holds: never read-only (secrets live there).
ENV_PRINTERS = frozenset({"printenv", "env", "set", "export", "declare", "typeset", "compgen"})

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

# --------------------------------------------------------------------------- sed scripts

SED_PLAIN = frozenset("=dDgGhHlnNpPxzF")  # commands without argument
SED_EXIT = frozenset("qQ")  # optional exit code
SED_LABEL = frozenset("btT:")
SED_TEXT = frozenset("aic")  # text to output
SED_S_FLAGS = frozenset("gpiImM0123456789")  # no e (runs the pattern space), no w (writes)
# r R w W e and the s///e, s///w flags are what sed can do beyond printing: they ask.

# --------------------------------------------------------------------------- jq programs

# (jq 1.6 reads `$ ENV`, even `$ #…⏎ENV`, as $ENV: the bare names are forbidden)
JQ_FORBIDDEN = re.compile(r"\bENV\b|\b__prog_args\b|\b__loc__\b|\b(?:env|import|include|modulemeta|get_search_list|input_filename)\b")

# --------------------------------------------------------------------------- test / [ / [[

TEST_UNARY = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -n -z -o".split())
TEST_BINARY = frozenset("= == != < > -eq -ne -lt -le -gt -ge -nt -ot -ef =~".split())
TEST_FILE_UNARY = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -u -w -x -G -L -N -O -S".split())  # their operand is a path
TEST_FILE_BINARY = frozenset("-nt -ot -ef".split())
TEST_EVALUATES = frozenset({"-v", "-R"})  # bash evaluates the operand's subscript as code

# --------------------------------------------------------------------------- wrappers


@dataclass(frozen=True)
class Wrapper:
    options: Program
    leading: int = 0  # operands before the command (timeout's DURATION)
    needs_command: bool = True
    lookup_opts: str = ""  # options that make it look a name up instead of running it


WRAPPERS: dict[str, Wrapper] = {
    # no -I/-i (replaces inside words), -a/--arg-file (reads any file), -p/-o (the terminal), -E/-e
    "xargs": Wrapper(Program("0d:n:L:P:s:rtx", "null delimiter= max-args= max-lines= max-procs= max-chars= no-run-if-empty verbose exit", permute=False), needs_command=False),
    # no -S/--split-string (a command line of its own), -C/--chdir; without a command env prints everything
    "env": Wrapper(Program("i0u:", "ignore-environment null unset=", permute=False)),
    "nice": Wrapper(Program("n:", "adjustment=", numeric=True, permute=False), needs_command=False),
    "timeout": Wrapper(Program("k:s:v", "kill-after= signal= preserve-status foreground verbose", permute=False), leading=1),
    # the `time` keyword takes -p; /usr/bin/time's -o/-a/--output write a file and stay out
    "time": Wrapper(Program("pv", "portability verbose quiet", permute=False), needs_command=False),
    "command": Wrapper(Program("pvV", "", permute=False), lookup_opts="vV"),
    "stdbuf": Wrapper(Program("i:o:e:", "input= output= error=", permute=False)),
    "nohup": Wrapper(Program("", "", permute=False)),
}

# --------------------------------------------------------------------------- git

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
    # listing forms only; shell_argv checks that nothing would be created, deleted or written
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
                "reflog": frozenset({"show"})}
GIT_NEEDS_SUB = frozenset({"stash", "worktree"})  # `git stash` alone pushes
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

# --------------------------------------------------------------------------- paths

# Device files a read-only command may name.
HARMLESS_DEVICES = frozenset({"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/zero", "/dev/urandom",
                              "/dev/random", "/dev/fd/0", "/dev/fd/1", "/dev/fd/2"})

# Variables an assignment, a `for` loop or `printf -v` must never set: they change what later
# commands run or read. All assignments ask anyway; a for-loop variable may only be lower case.
# Variables whose value looks like a credential: expanding one (`echo $OPENAI_API_KEY`) asks.
# (security.environment.looks_secret is consulted too.) Connection strings and proxies carry passwords.
SECRET_VARIABLE = re.compile(
    r"(?i)(api_?key|_key$|^key$|key_id$|token|secret|pass(?!thru)|_pwd?$|_pat$|_sk$|webhook|credential|auth|private|session|cookie"
    r"|dsn|proxy|(database|db|redis|mongo\w*|postgres\w*|pg|mysql|amqp|rabbitmq|broker|celery\w*)_?(url|uri))"
)
LOOP_VARIABLE = re.compile(r"^[a-z][a-z0-9_]*$")
PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy"})

# --------------------------------------------------------------------------- listers

# Commands whose output is file names under the working directory: as `$(…)` operands, or on
# xargs' input, they may feed a read-only program's path operands (`wc -l $(git ls-files)`).
# git subcommand -> options of which one must be present ("" = none needed)
LISTERS_GIT = {"ls-files": "", "diff": "--name-only --name-status", "ls-tree": "--name-only", "grep": "-l --files-with-matches -L --name-only --files-without-match"}
LISTERS = {"find": "", "rg": "-l --files --files-with-matches --files-without-match", "grep": "-l -L --files-with-matches --files-without-match", "ls": ""}
LISTER_FIND_FORBIDDEN = frozenset({"-printf", "-ls"})  # they print more than names
# Filters that pass whole lines through unchanged, with the only options that keep it so
# (`grep -o`, `tail -c` could cut `/etc/passwd` out of a listed `a/etc/passwd`).
LISTER_FILTERS: dict[str, frozenset[str]] = {
    "grep": frozenset("-i -v -w -x -E -F -G -P -e --ignore-case --invert-match --word-regexp --line-regexp "
                      "--extended-regexp --fixed-strings --basic-regexp --perl-regexp --regexp".split()),
    "head": frozenset({"-n", "--lines", "-NUM"}),
    "tail": frozenset({"-n", "--lines", "-NUM"}),
    "sort": frozenset("-u -r -f -V -n --unique --reverse --ignore-case --version-sort --numeric-sort".split()),
    "uniq": frozenset("-u -d -i --unique --repeated --ignore-case".split()),
}
# Given listed names, these print only matching lines, counts, names or hashes — what a
# recursive search of the root may do — so a listed `.env` does not make them ask (a reader
# that prints whole files, like cat, does).
SEARCHERS = frozenset("grep egrep fgrep rg wc ls stat file du md5sum sha1sum sha224sum sha256sum sha384sum sha512sum "
                      "b2sum cksum".split())
# These show names and sizes, never content: naming a secret inside the root is fine
# (`ls -l .env`, `du -sh *`), as list_dir shows it; a path outside the root still asks.
# Not wc or file: they read the secret (`wc -L`, `file id_rsa` says "OpenSSH private key").
NAMES_ONLY = frozenset("ls stat du tree".split())


# --------------------------------------------------------------------------- the README's table


def markdown() -> str:
    """The read-only set as a Markdown table (README "Approvals"; a test keeps them equal)."""

    def opts(p: Program) -> str:
        short = " ".join(f"-{k}" + {0: "", 1: " V", 2: "[V]"}[a] for k, a in p.shorts.items())
        long = " ".join(f"--{k}" + {0: "", 1: "=V", 2: "[=V]", 3: " [V]"}[a] for k, a in p.longs.items() if k not in ("help", "version"))
        extra = ["-NUM"] if p.numeric else []
        return " ".join(x for x in (short, " ".join(extra), long) if x) or "(none)"

    def notes(p: Program) -> str:
        out = {"paths": "operands are paths", "none": "operands are not paths", "pattern": "pattern, then paths",
               "date": "only +FORMAT operands"}[p.operands]
        if p.max_operands is not None:
            out += f"; at most {p.max_operands}" + (" (+ `-`)" if p.dash_output else "")
        if p.path_opts:
            out += "; values of " + ", ".join(f"`{o}`" for o in p.path_opts.split()) + " are paths"
        if p.check:
            out += f"; content check `{p.check}`"
        if p.dynamic_ok:
            out += "; `$(lister)` operands ok"
        return out

    rows = ["| program | options allowed, spelled exactly | operands |", "|---|---|---|"]
    for name, p in sorted(PROGRAMS.items()):
        shown = "(any words)" if p.check == "anything" else "(checked by content)" if p.check in ("printf", "test", "find") else opts(p)
        rows.append(f"| `{name}` | {shown} | {notes(p)} |")
    rows.append(f"| `git` (global) | {opts(GIT_GLOBAL)} | then one subcommand below |")
    for key, p in sorted(GIT.items()):
        rows.append(f"| `git {key}` | {opts(p)} | {notes(p)} |")
    for name, w in sorted(WRAPPERS.items()):
        rows.append(f"| `{name}` (wrapper) | {opts(w.options)} | the command it runs is judged again |")
    rows.append("| `find` expression | " + " ".join(f"`{k}`" for k in FIND_PRIMARIES) + " `-newerXY` | leading `-P` `-H` |")
    return "\n".join(rows)
