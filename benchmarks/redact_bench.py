"""What redacting costs: ``Secrets.redact`` on a 20 kB page-state text with 5 secrets.

The text is built like the state message the model reads (element lines with links and percent-encoded
query strings, runs of page text, a JSON snippet, entities), from a fixed seed, with each secret shown a
few times in it: raw, percent-encoded, HTML-escaped. It prints the time to build the ``Secrets`` (the
patterns are compiled then, once per run) and the median time of one ``redact`` of the whole text.

    .venv/bin/python benchmarks/redact_bench.py [--repeat 200]

Run it on another checkout to compare (``PYTHONPATH=/path/to/other/checkout``). Target (issue 21): the
redaction of 20 kB with 5 secrets stays in the low milliseconds.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
import statistics
import time
from urllib.parse import quote, quote_plus

from browser_agent.sensitive import Secrets

SECRETS = {
    "user": "ada.lovelace@example.org",
    "pw": "hunter2-pass~!",
    "pin": "4111 1111 1111 1111",
    "token": "sk-live-9fQ2xLr7TzWb0aKc",
    "note": 'pa$$ wörd&<x>"q',
}
PROSE = (
    "the a of to and in for on with price cart add laptop phone review shipping free order account "
    "search results page next previous home about contact help sign in out total items color size "
    "stock delivery tomorrow returns warranty compare rating stars customers bought also"
)
WORDS = PROSE.split()


def _line(rng: random.Random, index: int) -> str:
    kind = rng.randrange(6)
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(3, 12)))
    if kind == 0:
        query = quote_plus(" ".join(rng.choice(WORDS) for _ in range(3)))
        return f"[{index}]<a href=/search?q={query}&amp;page={rng.randrange(9)}>{words.title()}</a>"
    if kind == 1:
        return f"[{index}]<button>{words.capitalize()}</button>"
    if kind == 2:
        return f'[{index}]<input type=email placeholder="{words}" value="{rng.choice(WORDS)}"/>'
    if kind == 3:
        return json.dumps({"sku": rng.randrange(10**6), "name": words, "url": f"/p/{rng.randrange(999)}"})
    if kind == 4:
        return f"| {words} | {rng.randrange(100)}.{rng.randrange(100):02d} &euro; | in stock |"
    return words.capitalize() + "."


def state_text(size: int = 20_000, seed: int = 1) -> str:
    """About ``size`` characters of page state with every secret in it three times, encoded three ways."""
    rng = random.Random(seed)
    lines: list[str] = []
    while sum(map(len, lines)) < size:
        lines.append(_line(rng, len(lines)))
    for value in SECRETS.values():
        for shown in (value, quote(value, safe=""), html.escape(value)):
            lines.insert(rng.randrange(len(lines)), f"Your value is {shown} here")
    return "\n".join(lines)


def main(repeat: int) -> None:
    text = state_text()
    re.purge()  # the compile of the patterns is part of what is measured, not served from re's cache
    started = time.perf_counter()
    secrets = Secrets(SECRETS)
    build_ms = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        out = secrets.redact(text)
        times.append((time.perf_counter() - started) * 1000)
    left = [name for name, value in SECRETS.items() if value in out]
    print(f"text: {len(text)} characters, {len(SECRETS)} secrets; placeholders: {out.count('<secret>')}")
    print(f"build Secrets (compile): {build_ms:.1f} ms")
    print(f"redact: median {statistics.median(times):.2f} ms, min {min(times):.2f} ms over {repeat} runs")
    print(f"raw values left: {left or 'none'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=200)
    main(parser.parse_args().repeat)
