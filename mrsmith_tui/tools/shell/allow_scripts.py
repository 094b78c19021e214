"""The read-only set's script-taking text tools: sed and jq, and what their scripts may say."""

from __future__ import annotations

import re

from mrsmith_tui.tools.shell.program import GNU, Program

# programs whose words are a small language of their own: checked by argv
SCRIPT_PROGRAMS: dict[str, Program] = {
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

# Values the jq options --arg NAME VALUE and --argjson NAME JSON take two words.
JQ_TWO_VALUES = frozenset({"arg", "argjson"})

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
