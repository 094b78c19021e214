"""Text from a model, a tool or a file, made safe to show on a terminal.

Control characters other than newline and tab would drive the terminal (OSC 52 writes the
clipboard, OSC 0/2 set the window title, CSI 2J clears the screen, DCS/APC reach the
terminal's own interpreters) and bidi overrides make text read differently from what it is.
`clean` shows them as visible stand-ins instead: C0 controls as their Unicode pictures
(ESC -> `␛`, so `\\x1b[2J` reads `␛[2J`), C1 controls as `\\x9b`, bidi controls as
`\\u202e`. CRLF becomes LF. It runs on the streaming path: text with nothing to replace
costs one scan for a single character class.
"""

from __future__ import annotations

import functools
import re

# C0 except \t and \n, DEL, C1, the invisible marks that reorder text (bidi) and the zero-width
# characters that hide text inside a word (U+200B-U+200D, U+2060, U+FEFF).
# The zero-width joiner stays between two pictographs: it is what joins 👨‍👩‍👧 into one emoji.
_INVISIBLE = "\u200b\u200c\u2060\ufeff"
_PICTO = "\u2600-\u27bf\u2b00-\u2bff\ufe0f\U0001f000-\U0001faff"
_LONE_ZWJ = f"(?<![{_PICTO}])\u200d|\u200d(?![{_PICTO}])"
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069" + _INVISIBLE
# One character class finds every place a match can start (a search with no alternation is about ten
# times faster): text with nothing to replace, the common case on the streaming path, costs one such scan.
_MAYBE = re.compile(f"[{_UNSAFE}\u200d]")


# The two patterns that replace are compiled on their first use (~1.7 ms of every start, #26).
@functools.cache
def _find() -> re.Pattern[str]:
    return re.compile(f"\r\n|[{_UNSAFE}]|{_LONE_ZWJ}")


@functools.cache
def _find_json() -> re.Pattern[str]:
    return re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069" + _INVISIBLE + f"]|{_LONE_ZWJ}")


def _stand_in(ch: str) -> str:
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟ (ESC is ␛)
    if code == 0x7F:
        return "␡"
    if code <= 0x9F:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def _table() -> dict[str, str]:
    table = {"\r\n": "\n"}
    for lo, hi in ((0x00, 0x08), (0x0B, 0x1F), (0x7F, 0x9F), (0x61C, 0x61C), (0x200E, 0x200F), (0x202A, 0x202E),
                   (0x2066, 0x2069), (0x200B, 0x200D), (0x2060, 0x2060), (0xFEFF, 0xFEFF)):
        for code in range(lo, hi + 1):
            table[chr(code)] = _stand_in(chr(code))
    return table


_STAND_INS: dict[str, str] = _table()


def _replace(match: re.Match[str]) -> str:
    return _STAND_INS[match.group()]


def clean(text: str) -> str:
    """`text` with every terminal control shown as a visible stand-in; \\n and \\t kept."""
    if not _MAYBE.search(text):
        return text
    return _find().sub(_replace, text)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_safe(line: str) -> str:
    """A JSON text (from json.dumps, which escapes C0 already) with C1 and bidi characters
    written as \\uXXXX escapes too: the same data, nothing a terminal would act on."""
    pattern = _find_json()
    return pattern.sub(_json_escape, line) if pattern.search(line) else line


def is_clean(text: str) -> bool:
    return not _MAYBE.search(text) or _find().search(text) is None
