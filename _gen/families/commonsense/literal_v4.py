"""eval-commonsense-v4 literal text: eval-commonsense-v3's questions about the letters of quoted
words, with sort rows that cannot share their answer.

v3's sort question takes 4 + level words with one first letter, and some letters have only as
many words as a harder level takes ("d": five, "m": four), so two rows could sort the very same
words (a fresh eval-commonsense-v4 draw gave cs4-0044 and cs4-0048 the same answer, which the
issue-19 audit's family answers then found). Here each level sorts words of its own first
letters (``SORT_LETTERS``), each with more words than the level takes, so every sort row's word
set is drawn from letters no other level uses. Every other form, and every proof, is v3's
(``literal``).
"""

from __future__ import annotations

import random
from typing import Any

from families.commonsense import literal

FORMS = literal.FORMS
#: level -> the first letters its sort rows draw from (disjoint; each has more words than the
#: level's 4 + level)
SORT_LETTERS = ("bt", "ps", "c")


def sort(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    while True:
        item = literal.sort(rng, level, slot, ordinal)
        if item["meta"]["words"][0][0] in SORT_LETTERS[level]:
            return item


BUILD = {**literal.BUILD, "sort": sort}
PROVE = literal.PROVE
