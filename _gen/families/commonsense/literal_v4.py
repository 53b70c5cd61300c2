"""eval-commonsense-v4 literal text: eval-commonsense-v3's questions about the letters of quoted
words, with sort rows that cannot share their answer.

v3's sort question takes 4 + level words with one first letter, and some letters have only as
many words as a harder level takes ("d": five, "m": four), so two rows could sort the very same
words (a fresh eval-commonsense-v4 draw gave cs4-0044 and cs4-0048 the same answer, which the
issue-19 audit's family answers then found). Here each level sorts words of its own first
letters (``SORT_LETTERS``), each with more words than the level takes, so every sort row's word
set is drawn from letters no other level uses.

The counts (letter, vowel and word counts, numeric) are drawn first from a set of values of
their own per kind and level (``COUNTS``), then text is drawn until it has that count. v3's
counts fell where the text made them likely, so with fresh instances pooled, 4 answered 9 of 32
count rows and 3 answered 7 (issue 19: the pooled audit's numeric baseline +5.1 points on the
family's commonest answer); here the sets are chosen so that every value is about equally often
the answer. Word counts may be 1 or 2 (v3: 3 or more).

Every other form, and every proof, is v3's (``literal``).
"""

from __future__ import annotations

import random
from typing import Any

from families.commonsense import literal
from families.commonsense.literal import VOWELS, WORDS, _open

FORMS = literal.FORMS
#: level -> the first letters its sort rows draw from (disjoint; each has more words than the
#: level's 4 + level)
SORT_LETTERS = ("bt", "ps", "c")


def sort(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    while True:
        item = literal.sort(rng, level, slot, ordinal)
        if item["meta"]["words"][0][0] in SORT_LETTERS[level]:
            return item


#: kind -> level -> the counts its rows answer, each drawn uniformly: chosen (within what each
#: level's text length makes plain to draw) so that over the rows this layout asks (letter and
#: vowel counts at every level, word counts at the first two) the answers 1-6 and 9-11 are each
#: about equally often right (12 half as often); word counts at level 2 are not asked
COUNTS: dict[str, tuple[tuple[int, ...], ...]] = {
    "letter_count": ((3, 4), (5, 6), (9, 10)),
    "word_count": ((1, 2), (1, 2, 3), (4, 5, 6)),
    "vowel_count": ((4, 5, 6), (9, 10, 11), (11, 12)),
}


def letter_count(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    target = rng.choice(COUNTS["letter_count"][level])
    while True:
        phrase = " ".join(rng.sample(WORDS, 2 + 2 * level))
        letters = [ch for ch in sorted(set(phrase) - {" "}) if phrase.count(ch) == target]
        if letters:
            break
    letter = rng.choice(letters)
    q = f'How many times does the letter "{letter}" appear in the text "{phrase}"?'
    meta = {"kind": "letter_count", "text": phrase, "letter": letter}
    return _open(q, "numeric", str(target), meta, "")


def vowel_count(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    target = rng.choice(COUNTS["vowel_count"][level])
    while True:
        phrase = " ".join(rng.sample(WORDS, 2 + 2 * level))
        if sum(phrase.count(v) for v in VOWELS) == target:
            break
    q = f'How many vowels (a, e, i, o, u) are there in the text "{phrase}"? Count every occurrence.'
    return _open(q, "numeric", str(target), {"kind": "vowel_count", "text": phrase}, "")


def word_count(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    target = rng.choice(COUNTS["word_count"][level])
    while True:
        words = rng.sample(WORDS, 5 + 2 * level)
        letters = [ch for ch in "aeinorstl" if sum(ch in w for w in words) == target]
        if letters:
            break
    letter = rng.choice(letters)
    q = f'How many of these words contain the letter "{letter}": {", ".join(words)}?'
    meta = {"kind": "word_count", "words": words, "letter": letter}
    return _open(q, "numeric", str(target), meta, "")


BUILD = {
    **literal.BUILD,
    "sort": sort,
    "letter_count": letter_count,
    "vowel_count": vowel_count,
    "word_count": word_count,
}
PROVE = literal.PROVE
