"""The floor for a Python client: one streamed Chat Completions request on httpx, the answer's
text to stdout, nothing else (no config, no tools, no transcript). The headless bench times
`mrsmith -p` against this script on the same loopback answer.

    python bench/floor_client.py BASE_URL MODEL PROMPT
"""
from __future__ import annotations

import json
import sys

import httpx


def main() -> None:
    base_url, model, prompt = sys.argv[1:4]
    body = {"model": model, "stream": True, "messages": [{"role": "user", "content": prompt}]}
    out = sys.stdout
    with httpx.Client(timeout=60) as client, client.stream("POST", f"{base_url}/chat/completions", json=body) as r:
        r.raise_for_status()
        for line in r.iter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            for choice in json.loads(data).get("choices") or []:
                text = (choice.get("delta") or {}).get("content")
                if text:
                    out.write(text)
    out.write("\n")
    out.flush()


if __name__ == "__main__":
    main()
