"""What bash itself brings to the read-only set: its builtins, the wrappers that run another
command, the test operators, the device files and the variables a command may not touch."""

from __future__ import annotations

import re

from mrsmith_tui.tools.shell.program import Program, Wrapper

# bash builtins: no long options, no permutation
BUILTIN_PROGRAMS: dict[str, Program] = {
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
}

# Bash runs these itself (no PATH look-up) when they are the command's first word.
SHELL_BUILTINS = frozenset({"echo", "printf", "test", "[", "cd", "pwd", "type", "true", "false", ":", "command", "time"})

# Programs that only print what the environment holds: never read-only (secrets live there).
ENV_PRINTERS = frozenset({"printenv", "env", "set", "export", "declare", "typeset", "compgen"})

# --------------------------------------------------------------------------- test / [ / [[

TEST_UNARY = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -n -z -o".split())
TEST_BINARY = frozenset("= == != < > -eq -ne -lt -le -gt -ge -nt -ot -ef =~".split())
TEST_FILE_UNARY = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -u -w -x -G -L -N -O -S".split())  # their operand is a path
TEST_FILE_BINARY = frozenset("-nt -ot -ef".split())
TEST_EVALUATES = frozenset({"-v", "-R"})  # bash evaluates the operand's subscript as code

# --------------------------------------------------------------------------- wrappers

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
