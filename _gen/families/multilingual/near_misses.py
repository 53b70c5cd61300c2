"""Near misses of eval-multilingual-v3 rows (issue 19), by category: what a careless solver
answers instead of the gold.

* number words: the spellings of the neighbouring numbers (one and ten either side), of other
  numbers whose spelling *contains* the gold's ("trente et un" for 30, "cent cinquante-trois"
  for 53, "mia moja tisini na mbili" for 92, "mille sept cent soixante-dix-sept" for 777: what
  eval-multilingual-v2's ``contains`` scoring accepted), and the number in digits;
* weekdays and months: the names one place either side of the gold, the start name itself, and
  the name reached by shifting the wrong way;
* word problems and spoken arithmetic: a step left out or taken with the wrong operation, and
  the result one off.

mc rows take the other letters and option texts (``common.probes.mc``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from common import probes

from families.multilingual.lexicon import DAYS, EN_DAYS, EN_MONTHS, MONTHS
from families.multilingual.numbers import NUMBER_WORDS

Row = dict[str, Any]
#: a thousand before a number of three digits, as a separate word (1 777, 1 969, 1 708, 1 132)
THOUSAND = {"fr": "mille ", "es": "mil ", "pt": "mil ", "sw": "elfu moja "}


def _words(text: str) -> list[str]:
    return text.casefold().split()


def _contains(longer: str, shorter: str) -> bool:
    """Whether the words of ``shorter`` occur, in a run, among the words of ``longer``."""
    big, small = _words(longer), _words(shorter)
    return any(big[i : i + len(small)] == small for i in range(len(big) - len(small) + 1))


def containing(lang: str, n: int, limit: int = 3) -> list[int]:
    """The numbers up to 999, nearest first, whose canonical spelling contains ``n``'s."""
    gold = NUMBER_WORDS[lang](n)[0]
    found = [m for m in range(1000) if m != n and _contains(NUMBER_WORDS[lang](m)[0], gold)]
    return sorted(found, key=lambda m: (abs(m - n), m))[:limit]


def thousand_more(lang: str, n: int) -> str | None:
    """The spelling of 1000 + ``n`` where it holds ``n``'s as separate words (three-digit
    ``n`` not a multiple of 100, in the languages that write a thousand as its own word)."""
    if lang not in THOUSAND or n < 100 or n % 100 == 0:
        return None
    return THOUSAND[lang] + NUMBER_WORDS[lang](n)[0]


def _number_words(row: Row) -> list[str]:
    lang, n = row["meta"]["lang"], row["meta"]["value"]
    near = [m for m in (n - 1, n + 1, n - 10, n + 10) if 0 <= m <= 999]
    spelled = [NUMBER_WORDS[lang](m)[0] for m in near + containing(lang, n)]
    thousand = thousand_more(lang, n)
    return spelled + ([thousand] if thousand else []) + [str(n)]


def _shifted(row: Row) -> list[str]:
    meta, lang = row["meta"], row["meta"]["lang"]
    table, english, start = (
        (DAYS, EN_DAYS, meta["today"]) if "today" in meta else (MONTHS, EN_MONTHS, meta["start"])
    )
    k, shift, size = english.index(start), meta["shift"], len(english)
    spots = [(k + shift - 1) % size, (k + shift + 1) % size, k, (k - shift) % size]
    return [table[lang][s][0] for s in spots]


def _problem(row: Row) -> list[int]:
    x = [int(v) for v in re.findall(r"\d+", row["prompt"].split("\n")[0])]
    gold = int(row["answer"])
    if len(x) == 2:  # a + b
        return [*probes.off_by_one(gold), abs(x[0] - x[1])]
    if gold == x[0] + x[1] - x[2]:  # a + b - c
        return [x[0] + x[1], x[0] + x[1] + x[2], *probes.off_by_one(gold)]
    return [x[0] * x[1], x[0] * x[1] + x[2], x[0] + x[1] - x[2]]  # a * b - c


def _arithmetic(row: Row) -> list[int]:
    a, b = row["meta"]["operands"]
    return [a + b, a - b, a * b, *probes.off_by_one(int(row["answer"]))]


OPEN: dict[str, Callable[[Row], list[str]]] = {
    "number_words": _number_words,
    "weekdays": _shifted,
    "months": _shifted,
}
NUMERIC: dict[str, Callable[[Row], list[int]]] = {
    "word_problems": _problem,
    "word_arithmetic": _arithmetic,
}


def slips(row: Row) -> tuple[list[Any], list[str]]:
    """The wrong answers of an open row's category (``common.probes.with_probes``)."""
    if row["scorer"] == "numeric":
        return list(NUMERIC[row["category"]](row)), []
    return OPEN[row["category"]](row), []
