"""Passages: the page's text blocks ranked by BM25 against a goal, the best kept within a token budget."""

from __future__ import annotations

from browser_agent.controller.passages import (
    CHARS_PER_TOKEN,
    best_passages,
    closest_passage,
    split_passages,
    words,
)

NAVIGATION = "\n".join(
    f"[{name}](http://127.0.0.1:1/{name})" for name in ("Home", "News", "Sport", "Weather")
)
FILLER = "\n".join(
    f"Paragraph {n} says something about the weather in the hills and the roads around the town."
    for n in range(60)
)
PAGE = f"""{NAVIGATION}
# The town council
{FILLER}
The council voted to rebuild the old stone bridge in 2031, at a cost of 4.2 million.
## Opening hours
The library opens at 9:30 on weekdays.
"""


def test_the_passage_with_the_goals_rare_words_comes_first_and_the_budget_holds() -> None:
    ranking = best_passages("When will the stone bridge be rebuilt?", PAGE, budget_tokens=60)
    assert ranking.matched
    assert ranking.kept[0].text.startswith("The council voted to rebuild the old stone bridge in 2031")
    assert len(ranking.text()) <= 60 * CHARS_PER_TOKEN
    assert ranking.total > 60  # one passage a block


def test_a_heading_goes_with_the_block_after_it() -> None:
    ranking = best_passages("opening hours", PAGE, budget_tokens=40)
    assert ranking.kept[0].text == "## Opening hours\nThe library opens at 9:30 on weekdays."


def test_words_are_lowercased_and_stemmed_alike_in_goal_and_page() -> None:
    assert words("Prices DIED used") == words("price die use")
    ranking = best_passages("In what year did the founder die?", f"{FILLER}\nShe died in 2008.", 50)
    assert ranking.kept[0].text == "She died in 2008."


def test_link_addresses_are_left_out_and_empty_blocks_dropped() -> None:
    passages = split_passages("[Home](http://127.0.0.1:1/a_(b)) and [more](http://x/)\n|\n[](http://y/)\n")
    assert [p.text for p in passages] == ["[Home] and [more]"]


def test_a_goal_asking_for_links_keeps_their_addresses() -> None:
    ranking = best_passages("the link to the weather", f"{NAVIGATION}\n{FILLER}", budget_tokens=30)
    assert ranking.kept[0].text == "[Weather](http://127.0.0.1:1/Weather)"
    assert "http://" not in best_passages("the weather", f"{NAVIGATION}\n{FILLER}", 30).text()


def test_a_long_paragraph_is_cut_at_sentence_ends() -> None:
    paragraph = " ".join(f"Sentence number {n} is here." for n in range(60))
    passages = split_passages(paragraph)
    assert len(passages) > 3
    assert all(p.text.endswith(".") and len(p.text) <= 400 for p in passages)
    assert " ".join(p.text for p in passages) == paragraph


def test_without_a_matching_word_the_first_prose_is_kept_in_order_not_the_navigation() -> None:
    ranking = best_passages("Summarize it", PAGE, budget_tokens=60)
    assert not ranking.matched
    positions = [p.position for p in ranking.kept]
    assert positions == sorted(positions)
    assert ranking.kept[0].text.startswith("# The town council\nParagraph 0 says")
    assert all("[Home]" not in p.text for p in ranking.kept)


def test_a_best_passage_larger_than_the_budget_is_cut_not_lost() -> None:
    page = "x " * 10 + "\n" + "bridge " + "word " * 2_000
    ranking = best_passages("bridge", page, budget_tokens=20)
    assert len(ranking.kept) == 1 and ranking.kept[0].text.startswith("bridge word")
    assert len(ranking.text()) <= 20 * CHARS_PER_TOKEN


def test_a_page_within_the_budget_is_kept_whole_in_order() -> None:
    ranking = best_passages("the lamp", "# Shop\nLamp 42 EUR\nChair 30 EUR", budget_tokens=100)
    assert [p.text for p in ranking.kept] == ["# Shop\nLamp 42 EUR", "Chair 30 EUR"]


def test_an_empty_page_keeps_nothing() -> None:
    ranking = best_passages("anything", "", budget_tokens=100)
    assert ranking.kept == () and ranking.total == 0 and ranking.text() == ""


def test_the_closest_passage_holds_most_of_a_texts_words() -> None:
    page = "\n".join(
        [
            "# Edward Lorenz",
            "Lorenz, who died in 2008 at the age of 90, taught at MIT for decades.",
            "The Lorenz Center at MIT studies climate.",
            "Chaos theory grew from his weather models.",
        ]
    )
    closest = closest_passage("Edward Lorenz died in 2008.", page)
    assert closest is not None and "died in 2008" in closest.text
    assert closest_passage("Parking fees rise in winter.", page) is None
    assert closest_passage("Lorenz", page) is None  # one word is a search, not a sentence to place
