"""Escape sequences a model, a tool or a file name may carry, each a way to drive a terminal."""
from __future__ import annotations

ESCAPES = {
    "osc52 clipboard": "\x1b]52;c;cm0gLXJmIH4K\x07",
    "osc0 title": "\x1b]0;PWNED-TITLE\x07",
    "osc2 title st": "\x1b]2;PWNED-TITLE2\x1b\\",
    "osc8 link": "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "csi clear": "\x1b[2J",
    "csi home": "\x1b[H",
    "csi erase line": "\x1b[K",
    "csi cursor up": "\x1b[5A",
    "dcs": "\x1bPq#0;2;0;0;0\x1b\\",
    "apc": "\x1b_Gf=100;AAAA\x1b\\",
    "pm": "\x1b^privacy\x1b\\",
    "8-bit csi": "\x9b2J",
    "8-bit osc": "\x9d0;PWNED-C1\x9c",
    "bell": "\x07",
    "backspace": "abc\x08\x08\x08xyz",
    "rtl override": "good\u202etxt.exe",
    "rtl isolate": "\u2067evil\u2069",
    "carriage return": "safe\roverwritten",
}
CONTROL_CHARS = set(map(chr, [*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)])) | set(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def controls_in(text: str) -> set[str]:
    return {c for c in text if c in CONTROL_CHARS}


ALL = "".join(f"[{name}: {seq}]\n" for name, seq in ESCAPES.items())
