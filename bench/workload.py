"""The benchmark's streamed text: realistic Markdown with code blocks, and reasoning, as tokens.

A "token" is one SSE delta, about four characters, as real servers send them. The text is
deterministic (seeded) and plain ASCII, so key-latency probes can type characters that
never occur in it.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from loopback import Turn, chunk, usage_chunk

END_MARK = "ZQXEND"  # the last word of every streamed answer: when it is on screen, the UI caught up

WORDS = ("the context window grows as each tool result is appended so the loop trims old turns and "
         "keeps the system prompt stable which lets the server reuse its cache between calls while the "
         "person reads the diff approves the write and watches the shell output scroll past").split()

CODE = [
    "def fold(blocks, focused):\n    out = []\n    for i, block in enumerate(blocks):\n"
    "        if i == focused:\n            out.append(block.unfold())\n        else:\n"
    "            out.append(block)\n    return tuple(out)\n",
    "async def stream(response):\n    async for line in response.aiter_lines():\n"
    "        if line.startswith('data: '):\n            yield json.loads(line[6:])\n",
    "for path in sorted(root.rglob('*.py')):\n    tree = ast.parse(path.read_text())\n"
    "    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}\n",
]

_TOKEN = re.compile(r"\s*\S{1,4}|\s+")


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def markdown_text(tokens: int, seed: int = 1, mark: str = END_MARK) -> str:
    """About `tokens` tokens of Markdown: headings, paragraphs, lists, code, a table; ends with END_MARK."""
    rng = random.Random(seed)
    parts: list[str] = []
    count = 0
    section = 0
    while count < tokens:
        section += 1
        pieces = [f"## Step {section}: {rng.choice(WORDS)} {rng.choice(WORDS)}\n\n",
                  " ".join(_sentence(rng) for _ in range(rng.randint(2, 4))) + "\n\n"]
        kind = section % 4
        if kind == 0:
            pieces.append("".join(f"- **{rng.choice(WORDS)}**: {_sentence(rng)}\n" for _ in range(4)) + "\n")
        elif kind == 1:
            pieces.append(f"```python\n{rng.choice(CODE)}```\n\n")
        elif kind == 2:
            rows = "".join(f"| `{rng.choice(WORDS)}` | {rng.randint(1, 999)} | {rng.choice(WORDS)} |\n" for _ in range(3))
            pieces.append("| name | count | note |\n| --- | ---: | --- |\n" + rows + "\n")
        else:
            pieces.append(f"1. {_sentence(rng)}\n2. {_sentence(rng)}\n3. `{rng.choice(WORDS)}()` {_sentence(rng)}\n\n")
        text = "".join(pieces)
        parts.append(text)
        count += len(tokenize(text))
    parts.append(f"Done {mark}\n")
    return "".join(parts)


def reasoning_text(tokens: int, seed: int = 2) -> str:
    rng = random.Random(seed)
    lines, count = [], 0
    while count < tokens:
        line = _sentence(rng) + "\n"
        lines.append(line)
        count += len(tokenize(line))
    return "".join(lines)


def stream_turn(tokens: int, reasoning_share: float = 0.15, seed: int = 1, mark: str = END_MARK) -> tuple[Turn, int]:
    """(the SSE turn, exact number of delta tokens in it): reasoning first, then the answer."""
    reasoning_tokens = int(tokens * reasoning_share)
    reasoning = tokenize(reasoning_text(reasoning_tokens, seed + 1))[:reasoning_tokens] if reasoning_tokens else []
    answer = tokenize(markdown_text(int((tokens - len(reasoning)) * 1.1) + 50, seed, mark))
    # Keep the end mark: trim from the middle of the answer, not its tail.
    excess = len(reasoning) + len(answer) - tokens
    if excess > 0:
        answer = answer[: -(excess + 3)] + answer[-3:]
    events: list = [chunk(role="assistant", content="")]
    events += [chunk(reasoning=t) for t in reasoning]
    events += [chunk(t) for t in answer]
    events += [chunk(finish="stop"), usage_chunk(prompt=1200, completion=len(reasoning) + len(answer))]
    # Large writes: the server must never be what limits the rate.
    return Turn(events=events, split=16384), len(reasoning) + len(answer)
