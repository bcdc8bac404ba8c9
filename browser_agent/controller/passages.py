"""The passages of a page that answer a goal: its text blocks ranked by BM25, the best few kept.

A question about one sentence of a 5,000-word article should cost a few hundred tokens, not the article:
the page's text (as ``extract_content`` writes it, one block a line) is cut into passages — a paragraph,
a list item, a table row, a heading with the block after it, a long paragraph in pieces of a few
sentences — and each is scored against the goal's words with BM25 (Robertson's weights, k1 = 1.2,
b = 0.75). Words are lowercased runs of letters and digits with a crude stem (a plural ``s``, then
``ing``, ``ed`` or ``e`` dropped), a few function words left out of the goal; no model is asked. The best
passages are kept, best first, until a token budget is spent (about four characters a token, the
conversation's estimate). Passages of at most 350 characters found the answer to 20 of the reading
suite's 20 questions within 400 tokens, 500 and 700 characters 19 (``benchmarks/README.md``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

__all__ = ["Passage", "Ranking", "best_passages", "closest_passage", "split_passages", "words"]

CHARS_PER_TOKEN = 4
_K1, _B = 1.2, 0.75
_MAX_PASSAGE_CHARS = 350  # a longer paragraph is cut at sentence ends into pieces about this long
_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_PROSE_CHARS = 100  # a passage this long is a sentence or more, not a link or a label
_CLOSE_SHARE = 0.5  # the least share of a text's words a passage must hold to be "closest" to it
_SUFFIXES = ("ing", "ed", "e")
_HEADING = re.compile(r"^#{1,6} ")
# A markdown link's address (one level of parentheses inside, as in Wikipedia's): the words stay, the
# address, a quarter of a news page's tokens, goes.
_LINK_TARGET = re.compile(r"\]\((?:[^()\s]|\([^()\s]*\))*\)")


@dataclass(frozen=True, slots=True)
class Passage:
    """One block of the page's text; ``position`` is its order on the page."""

    position: int
    text: str


@dataclass(frozen=True, slots=True)
class Ranking:
    """What was kept for a goal: the passages, best first, and how many the page had."""

    kept: tuple[Passage, ...]
    total: int
    matched: bool  # some passage shares a word with the goal; otherwise ``kept`` is the page's first prose

    def text(self) -> str:
        return "\n\n".join(p.text for p in self.kept)


def words(text: str) -> list[str]:
    """Lowercased words of ``text``, stemmed (``prices`` and ``price``, ``died`` and ``die`` are one)."""
    return [_stem(w) for w in _WORD.findall(text.lower())]


def _stem(word: str) -> str:
    """A plural ``s``, then ``ing``, ``ed`` or ``e`` dropped, leaving at least two letters: crude, but
    the same for a question's words and the page's, which is all a match needs."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            return word[: -len(suffix)]
    return word


# Words of a question that say nothing about where its answer stands.
_FUNCTION_WORDS = frozenset(
    words(
        "a an and are as at be by did do does for from how in is it its of on or page says the this to "
        "was were what when where which who whom whose why with according article report tell",
    )
)


# A goal naming one of these wants the links' addresses kept.
_ADDRESS_WORDS = frozenset(words("link links url urls address addresses href"))


def split_passages(page: str, *, addresses: bool = False) -> list[Passage]:
    """The passages of a page text written one block a line: a heading goes with the block after it, a
    long block is cut at sentence ends, links keep their words but not their addresses (unless
    ``addresses``)."""
    lines = page.splitlines() if addresses else [_LINK_TARGET.sub("]", line) for line in page.splitlines()]
    blocks = [line.strip() for line in lines]
    blocks = [b for b in blocks if b.strip("[]| ")]
    merged: list[str] = []
    heading = ""
    for block in blocks:
        if _HEADING.match(block):
            if heading:
                merged.append(heading)
            heading = block
            continue
        merged += _pieces(f"{heading}\n{block}" if heading else block)
        heading = ""
    if heading:
        merged.append(heading)
    return [Passage(i, text) for i, text in enumerate(merged)]


def _pieces(block: str) -> list[str]:
    """``block`` whole when short, else runs of its sentences about ``_MAX_PASSAGE_CHARS`` long."""
    if len(block) <= _MAX_PASSAGE_CHARS:
        return [block]
    pieces, current = [], ""
    for sentence in _SENTENCE_END.split(block):
        if current and len(current) + len(sentence) > _MAX_PASSAGE_CHARS:
            pieces.append(current)
            current = ""
        current = f"{current} {sentence}".strip()
        while len(current) > 2 * _MAX_PASSAGE_CHARS:  # no sentence end in sight: a hard cut
            pieces.append(current[:_MAX_PASSAGE_CHARS])
            current = current[_MAX_PASSAGE_CHARS:]
    return [*pieces, current] if current else pieces


def _scores(goal: str, passages: list[Passage]) -> list[float]:
    """BM25 of each passage against the goal's words."""
    query = [w for w in dict.fromkeys(words(goal)) if w not in _FUNCTION_WORDS]
    counted = [Counter(words(p.text)) for p in passages]
    lengths = [sum(c.values()) for c in counted]
    average = sum(lengths) / len(lengths) if lengths else 0.0
    holding = Counter(w for c in counted for w in query if w in c)
    total = len(passages)
    scores = []
    for counts, length in zip(counted, lengths, strict=True):
        score = 0.0
        for word in query:
            tf = counts.get(word, 0)
            if tf:
                idf = math.log(1 + (total - holding[word] + 0.5) / (holding[word] + 0.5))
                score += idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / (average or 1)))
        scores.append(score)
    return scores


def best_passages(goal: str, page: str, budget_tokens: int) -> Ranking:
    """The passages of ``page`` that best match ``goal``, best first, within ``budget_tokens``.

    Link addresses are left out unless the goal asks for links or addresses. A page within the budget
    is kept whole, in page order. Otherwise always at least one passage (cut to
    the budget when it alone is larger); when no passage shares a word with the goal ("summarize the
    article"), the page's first passages of prose are kept instead, in page order: an unstyled page
    starts with its navigation, a run of short links.
    """
    passages = split_passages(page, addresses=bool(_ADDRESS_WORDS & set(words(goal))))
    if sum(len(p.text) + 2 for p in passages) <= budget_tokens * CHARS_PER_TOKEN:
        return Ranking(tuple(passages), len(passages), matched=True)  # a short page: all of it, in order
    scores = _scores(goal, passages)
    matched = any(s > 0 for s in scores)
    order = sorted(range(len(passages)), key=lambda i: (-scores[i], i)) if matched else _prose(passages)
    budget = budget_tokens * CHARS_PER_TOKEN
    kept: list[Passage] = []
    for i in order:
        if matched and scores[i] <= 0:
            break
        size = len(passages[i].text) + 2
        if size > budget:
            if not kept:  # the best passage alone is too long: its start, rather than nothing
                kept.append(Passage(passages[i].position, passages[i].text[: max(budget, 1)]))
                break
            if not matched:  # the page's start: no gap in it
                break
            continue  # a smaller one further down may still fit
        kept.append(passages[i])
        budget -= size
    return Ranking(tuple(kept), len(passages), matched)


def _prose(passages: list[Passage]) -> list[int]:
    """The positions of the passages long enough to be prose, in page order (all, when none is)."""
    long = [i for i, p in enumerate(passages) if len(p.text) >= _PROSE_CHARS]
    return long or list(range(len(passages)))


def closest_passage(text: str, page: str) -> Passage | None:
    """The passage of ``page`` that holds the largest share of ``text``'s words (at least half of them,
    and two), the shorter one first on a tie; None when none does. What a model that wrote a sentence
    from memory ("Edward Lorenz died in 2008.") was looking for, in the page's own words."""
    wanted = {w for w in words(text) if w not in _FUNCTION_WORDS}
    if len(wanted) < 2:
        return None
    best: tuple[float, int, Passage] | None = None
    for passage in split_passages(page):
        share = len(wanted & set(words(passage.text))) / len(wanted)
        if share >= _CLOSE_SHARE and (best is None or (share, -len(passage.text)) > best[:2]):
            best = (share, -len(passage.text), passage)
    return best[2] if best else None
