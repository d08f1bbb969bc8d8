#!/usr/bin/env python3
"""Prints a large tools/call `arguments` object for interop/record: one compact JSON line,
deterministic for a given SEED (the same seed, the same bytes), of about KB kilobytes
(default 20): a nested object with strings of many scripts, emoji, escapes and control
characters, integers (negative, beyond 2^53), floats (negative, tiny, huge, -0.0),
booleans, nulls, arrays of objects and a matrix. The peer parses it and writes it again,
so what the corpus keeps is the peer's own encoding of it.

usage: large_args.py SEED [KB]
"""

from __future__ import annotations

import json
import random
import sys

WORDS = [
    "alpha", "beta", "gamma", "Zürich", "Ærøskøbing", "naïve", "façade", "smörgåsbord",
    "東京", "日本語", "中文", "한국어", "русский", "ελληνικά", "עברית", "العربية", "हिन्दी",
    "🦀", "🎉", "👩‍💻", "🇫🇷", "e\u0301", "zero\u200bwidth", "line\u2028separator",
    "\"quoted\"", "back\\slash", "slash/ed", "tab\there", "new\nline", "cr\rlf", "bell\u0007",
    "nul\u0000byte", "esc\u001b[0m", "del\u007f", "<html>&amp;</html>", "{\"json\":[1,2]}",
]
TAGS = ["red", "green", "blue", "urgent", "later", "ünïcode", "✓", "null", "true", ""]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def number(rng: random.Random):
    kind = rng.randrange(8)
    if kind == 0:
        return rng.randrange(-1_000_000, 1_000_000)
    if kind == 1:
        return round(rng.uniform(-1000, 1000), rng.randrange(1, 8))
    if kind == 2:
        return rng.choice([0, -1, 2**53 + 1, -(2**63), 2**63 - 1, 10**15])
    if kind == 3:
        return rng.choice([1e300, -1e-300, 5e-324, 1.7976931348623157e308, -0.0, 0.1, 1e21])
    if kind == 4:
        return rng.uniform(-1, 1) * 10 ** rng.randrange(-12, 12)
    if kind == 5:
        return rng.randrange(0, 256)
    if kind == 6:
        return -rng.randrange(1, 100) / 8
    return rng.random()


def section(rng: random.Random, i: int) -> dict:
    return {
        "id": i,
        "heading": sentence(rng, 3),
        "body": sentence(rng, rng.randrange(8, 24)),
        "score": number(rng),
        "weight": number(rng),
        "visible": rng.random() < 0.7,
        "archived": None if i % 3 == 0 else rng.random() < 0.2,
        "tags": rng.sample(TAGS, rng.randrange(0, 4)),
        "author": {"name": sentence(rng, 2), "email": f"user{i}@example.org", "karma": number(rng)},
        "history": [{"at": f"2026-0{1 + k % 9}-1{k % 10}T0{k % 10}:00:00Z", "delta": number(rng),
                     "note": None if k % 2 else sentence(rng, 2)} for k in range(rng.randrange(0, 3))],
    }


def large(seed: int, kb: int) -> dict:
    rng = random.Random(seed)
    doc = {
        "query": sentence(rng, 6),
        "options": {"limit": 50, "offset": -5, "threshold": 0.125, "exact": False,
                    "language": None, "fields": ["heading", "body", "tags"]},
        "matrix": [[number(rng) for _ in range(6)] for _ in range(6)],
        "flags": [True, False, None, True],
        "empty": {"object": {}, "array": [], "string": ""},
        "sections": [],
    }
    i = 0
    while len(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()) < kb * 1024:
        doc["sections"].append(section(rng, i))
        i += 1
    return doc


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    kb = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    print(json.dumps(large(int(sys.argv[1]), kb), ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    main()
