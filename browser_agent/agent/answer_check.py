"""Whether the text of a ``done`` answers the question a task asks.

Asked "In what year was Arduino LLC incorporated?", a small model often ended with ``done`` and the text
"The task is done." or "The page did not change, so no actions were taken.": a success that answers
nothing (four of the six misses of the reading suite's development half, three of its held-out half). Such
a text is told apart by its words: once the words of the question, the small words of any sentence and
the words a model uses about its own run (task, page, done, action, found...) are set aside, nothing is
left. A name, a number, a date, a yes or a no is an answer, right or wrong; judging that is not this
module's business.
"""

from __future__ import annotations

import re

__all__ = ["asks_question", "holds_answer"]

_WORD = re.compile(r"[^\W_]+")
_YES_OR_NO = re.compile(r"^\W*(yes|no)\b(?!\s+(?:\w+\s+)?(?:action|change|new|information|answer))", re.I)

# The small words of a sentence: they carry no answer of their own.
_GRAMMAR_WORDS = """
    a an the is are was were be been being am has have had do does did done not no nor so and or but of
    to in on at for with by from about after before into onto over under this that these those it its as
    any all there here now yet still same more further than then i we you he she they my our your their me
    us them nothing none anything something some which who whom what when where why how can could would
    should will shall may might must just only also very"""
_GRAMMAR = frozenset(_GRAMMAR_WORDS.split())

# What a model says about its own run rather than about the page.
_RUN_WORDS = """
    task tasks complete completed completes finish finished end ended page pages site website web browser
    tab change changed changes changing action actions step steps take taken took information info find
    found finding new gather gathered result results last previous answer answers answered question
    questions success successful successfully succeed succeeded fail failed failure unknown goal goals
    current state content data available provide provided show shown showing shows visible display
    displayed load loaded reload read user need needed needs required requested asked ask given see seen
    perform performed attempt attempted try tried click clicked link links button element elements go
    went able unable possible impossible could not determine determined locate located match matches
    matched matching correctly relevant"""
_RUN_TALK = frozenset(_RUN_WORDS.split())


def asks_question(task: str) -> bool:
    """Whether ``task`` asks a question (a question mark in it): its ``done`` should hold the answer."""
    return "?" in task


def holds_answer(task: str, text: str) -> bool:
    """Whether ``text`` says anything beyond the question, small words and talk about the run: a word or
    number the task does not hold, or a leading yes or no."""
    if _YES_OR_NO.match(text):
        return True
    # In a choice ("Which is larger, Paris or London?") the answer is one of the task's own words.
    asked = set() if re.search(r"\bor\b", task, re.I) else {word.lower() for word in _WORD.findall(task)}
    for word in _WORD.findall(text):
        lowered = word.lower()
        if lowered in asked or lowered in _GRAMMAR or lowered in _RUN_TALK:
            continue
        return True
    return False
