"""A tool file's contract, read with `ast`: the file is never imported into mrsmith.

    NAME = "shout"                      letters, digits, _ and -, starting with a letter, at most 48
    DESCRIPTION = "Shout the text."     what the model reads (at most 2000 characters)
    PARAMETERS = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    def run(args): return args["text"].upper()

The three values must be literals (they are read, not run); `run` must be a plain module-level
`def` taking the arguments dict. A cheap look comes first (size, UTF-8, no NUL, the four names at
the start of a line), so a file that is plainly no tool costs no parse. Any problem, whatever raised
it, is one line (ContractError) that quotes no value of the file but a schema property's name, cut to 40
characters (the frontends make its controls visible).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from mrsmith_tui.tools.dropin.files import MAX_FILE_BYTES

__all__ = ["MAX_DESCRIPTION", "NAME_RE", "Contract", "ContractError", "read_contract", "schema_problem"]

NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,47}\Z")
MAX_DESCRIPTION = 2000
MAX_SCHEMA_CHARS = 16 * 1024
MAX_SCHEMA_DEPTH = 12
SCHEMA_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
_MARKERS = {
    "NAME": re.compile(rb"^NAME\s*(?::[^=\n]*)?=", re.M),
    "DESCRIPTION": re.compile(rb"^DESCRIPTION\s*(?::[^=\n]*)?=", re.M),
    "PARAMETERS": re.compile(rb"^PARAMETERS\s*(?::[^=\n]*)?=", re.M),
    "def run": re.compile(rb"^(?:async\s+)?def\s+run\s*\(", re.M),
}


class ContractError(Exception):
    """Why a file is no tool, one line (without any value of the file)."""


@dataclass(frozen=True)
class Contract:
    name: str
    description: str
    parameters: dict[str, Any]


def read_contract(data: bytes) -> Contract:
    """The contract of a tool file's bytes; raises ContractError for anything wrong, never another error."""
    try:
        return _read(data)
    except ContractError:
        raise
    except Exception as e:  # whatever a hostile file makes the parser raise is one line
        raise ContractError(f"cannot be read as a tool ({type(e).__name__})") from None


def _precheck(data: bytes) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise ContractError(f"over the {MAX_FILE_BYTES // 1024} KiB a tool file may have")
    if b"\0" in data:
        raise ContractError("holds a NUL byte: not a Python source file")
    missing = [name for name, pattern in _MARKERS.items() if not pattern.search(data)]
    if missing:
        raise ContractError(f"no {', '.join(missing)} at the start of a line (a tool defines NAME, DESCRIPTION, "
                            "PARAMETERS and def run(args))")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ContractError(f"not UTF-8 text (byte {e.start})") from None


def _read(data: bytes) -> Contract:
    text = _precheck(data)
    try:
        tree = ast.parse(text, type_comments=False)
    except SyntaxError as e:
        raise ContractError(f"syntax error on line {e.lineno or '?'}: {str(e.msg)[:120]}") from None
    except (RecursionError, MemoryError):
        raise ContractError("nested too deeply to read") from None
    values: dict[str, ast.expr] = {}
    run: ast.stmt | None = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            values[node.target.id] = node.value
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "run":
            run = node
    name = _literal(values, "NAME")
    description = _literal(values, "DESCRIPTION")
    parameters = _literal(values, "PARAMETERS")
    if not isinstance(name, str):
        raise ContractError(f"NAME must be a string, not {type(name).__name__}")
    if not NAME_RE.match(name) or "__" in name:
        raise ContractError("NAME must be letters, digits, _ and - (starting with a letter, at most 48, no __: "
                            "names with __ are MCP tools')")
    if not isinstance(description, str) or not description.strip():
        raise ContractError(f"DESCRIPTION must be a non-empty string, not {_kind(description)}")
    if len(description) > MAX_DESCRIPTION:
        raise ContractError(f"DESCRIPTION has {len(description)} characters; at most {MAX_DESCRIPTION}")
    problem = schema_problem(parameters)
    if problem:
        raise ContractError(f"PARAMETERS: {problem}")
    if run is None:
        raise ContractError("no module-level def run(args)")
    if isinstance(run, ast.AsyncFunctionDef):
        raise ContractError("run must be a plain def, not async def")
    assert isinstance(run, ast.FunctionDef)
    a = run.args
    if not (a.posonlyargs or a.args or a.vararg):
        raise ContractError("run must take the arguments: def run(args)")
    return Contract(name=name, description=description.strip(), parameters=parameters)


def _literal(values: dict[str, ast.expr], key: str) -> Any:
    node = values.get(key)
    if node is None:
        raise ContractError(f"no {key} = … at module level")
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ContractError(f"{key} must be a literal (it is read, not run)") from None


def _kind(value: Any) -> str:
    return "an empty string" if value == "" else type(value).__name__


def schema_problem(schema: Any) -> str | None:
    """None when `schema` is a JSON schema of an arguments object mrsmith can check and send; else why not."""
    if not isinstance(schema, dict):
        return f"must be a dict (a JSON schema), not {type(schema).__name__}"
    if schema.get("type") != "object":
        return 'the top must say "type": "object"'
    problem = _json_problem(schema, 0)
    if problem:
        return problem
    try:
        size = len(json.dumps(schema, allow_nan=False))
    except (TypeError, ValueError):
        return "not JSON"
    if size > MAX_SCHEMA_CHARS:
        return f"{size} characters of JSON; at most {MAX_SCHEMA_CHARS}"
    return _schema_words(schema, "", 0)


def _json_problem(value: Any, depth: int) -> str | None:
    if depth > MAX_SCHEMA_DEPTH * 3:
        return f"nested deeper than {MAX_SCHEMA_DEPTH} levels"
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return f"a key is {type(k).__name__}, not a string"
            problem = _json_problem(v, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, list):
        for v in value:
            problem = _json_problem(v, depth + 1)
            if problem:
                return problem
        return None
    if value is None or isinstance(value, (str, bool, int, float)):
        return None
    return f"holds a {type(value).__name__}, which JSON has not"


def _schema_words(schema: dict[str, Any], where: str, depth: int) -> str | None:
    """The keywords mrsmith's argument check reads, each of the shape it expects."""
    at = f" at {where}" if where else ""
    if depth > MAX_SCHEMA_DEPTH:
        return f"nested deeper than {MAX_SCHEMA_DEPTH} levels"
    kind = schema.get("type")
    if kind is not None:
        names = kind if isinstance(kind, list) else [kind]
        if not names or not all(isinstance(n, str) and n in SCHEMA_TYPES for n in names):
            return f'"type"{at} must be one of {", ".join(sorted(SCHEMA_TYPES))} (or a list of them)'
    if "enum" in schema and not isinstance(schema["enum"], list):
        return f'"enum"{at} must be a list'
    props = schema.get("properties")
    if props is not None:
        if not isinstance(props, dict):
            return f'"properties"{at} must be an object'
        for key, sub in props.items():
            if not isinstance(sub, dict):
                return f'the property "{key[:40]}"{at} must be a schema object'
            problem = _schema_words(sub, f"{where}.{key[:40]}" if where else key[:40], depth + 1)
            if problem:
                return problem
    required = schema.get("required")
    if required is not None and not (isinstance(required, list) and all(isinstance(r, str) for r in required)):
        return f'"required"{at} must be a list of names'
    extra = schema.get("additionalProperties")
    if extra is not None and not isinstance(extra, (bool, dict)):
        return f'"additionalProperties"{at} must be true, false or a schema'
    if isinstance(extra, dict):
        problem = _schema_words(extra, f"{where}+" if where else "+", depth + 1)
        if problem:
            return problem
    items = schema.get("items")
    if items is not None:
        if not isinstance(items, dict):
            return f'"items"{at} must be a schema object'
        return _schema_words(items, f"{where}[]", depth + 1)
    return None
