"""``exact`` scorer (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows).

Rules:
- The model output goes through the four extraction steps (:mod:`stages.scoring.extract`).
- ``answer`` is a string or a list of accepted strings; a JSON number or boolean in the row is
  compared through its JSON spelling (``42``, ``2.5``, ``true``).
- Both sides are normalised the same way (:func:`stages.scoring.text_forms.normalize`): Unicode
  NFKC, a minus sign as ``-``, typographic apostrophes as ``'``, ``casefold()``, every run of
  whitespace collapsed to one space, surrounding whitespace removed.
- Correct when the normalised extraction equals one normalised accepted answer, or — for an
  answer that is a list (an accepted answer with two or more items) — when it lists the same
  items in the same order with any list separator (issue 30): ``,`` ``;`` ``>`` ``→`` ``->``, a
  spaced dash, spaces between bracketed items, or the list conjunction of English or the row's
  language (``Cato, Gus and Hedda``, ``R4>R1>R2>R3``, ``P > R > Q > S``, ``(5) (6)``); brackets
  around an item are dropped.
  Nothing else is forgiven: punctuation inside an item, articles and word order all count, and a
  hedge ("Paris or Lyon") never equals an accepted answer.

Flexible (issue 12): the flexible candidate (:mod:`stages.scoring.flexible`: markdown emphasis,
``\\boxed{}``, LaTeX removed), accents folded, compared the same way; when an accepted answer is
an integer, a candidate that commits to that number (:mod:`stages.scoring.number_reading`:
"7,651", "−205", "537 days") is right too; and a candidate whose main clause equals an accepted
answer and whose rest is bracketed commentary that offers no other answer of its kind
(:mod:`stages.scoring.commitment`, :mod:`stages.scoring.vocabulary`: ``Cleo (the chemist)``,
``Cleo (not Abel)``; not ``Cleo (or Abel)``), is right. Several different boxed answers are wrong.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from stages.scoring import flexible
from stages.scoring.commitment import commit
from stages.scoring.extract import extract_answer
from stages.scoring.lexicon import WordClasses, row_language, word_classes
from stages.scoring.numbers import parse_number
from stages.scoring.text_forms import analysis_text, fold_accents, gold_strings, normalize
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip
from stages.scoring.vocabulary import GOLD, answer_candidates

NAME = "exact"
__all__ = ["gold_strings", "normalize", "score"]

_SEPARATORS = r"\s*(?:[,;>→⇒]|->|=>|\s[-–—]\s|[–—])\s*|(?<=[)\]])\s+(?=[(\[])"
_BRACKETED = re.compile(r"^[(\[](.*)[)\]]$")
_TRAILING_GROUPS = re.compile(r"(?:\s*(?:\([^()]*\)|\[[^\[\]]*\]))+\s*$")


@lru_cache(maxsize=16)
def _splitter(words: WordClasses) -> re.Pattern[str]:
    conjunction = words.list_conjunction.pattern if words.list_conjunction else "(?!)"
    return re.compile(rf"{_SEPARATORS}|\s+(?:{conjunction})\s+", re.I)


def items(text: str, words: WordClasses) -> tuple[str, ...]:
    """The items of ``text`` read as a list (one item when it is not one)."""
    parts = [p.strip() for p in _splitter(words).split(normalize(text))]
    parts = [_BRACKETED.sub(r"\1", p).strip() for p in parts]
    return tuple(p for p in parts if p)


def is_list(gold: str) -> bool:
    """An accepted answer is a list when a list separator (not a conjunction, which a single
    answer may hold: ``cincuenta y dos``) splits it."""
    return len([p for p in re.split(_SEPARATORS, normalize(gold)) if p.strip()]) > 1


def equal(text: str, golds: list[str], words: WordClasses, fold: bool = False) -> bool:
    """The normalised ``text`` equals an accepted answer, or lists an accepted list's items."""
    form = (lambda s: fold_accents(normalize(s))) if fold else normalize
    if form(text) in {form(g) for g in golds}:
        return True
    got = tuple(form(i) for i in items(text, words))
    lists = [tuple(form(i) for i in items(g, words)) for g in golds if is_list(g)]
    return len(got) > 1 and got in lists


def flexible_verdict(
    row: dict[str, Any], output: str, dataset_dir: Path | None = None
) -> FlexibleVerdict:
    """The flexible reading of ``output`` against the accepted answers (module rules)."""
    found = flexible.candidate(output)
    if found.several:
        return FlexibleVerdict(False, found.text)
    golds = gold_strings(row["answer"])
    words = word_classes(row_language(row))
    if equal(found.text, golds, words, fold=True):
        return FlexibleVerdict(True, found.text)
    plain = analysis_text(found.text, flexible=True).casefold()
    committed = commit(plain, answer_candidates(plain, row, dataset_dir, True), words)
    if committed.key != GOLD:
        return FlexibleVerdict(False, found.text)
    if any(isinstance(parse_number(g), int) for g in golds):
        return FlexibleVerdict(True, found.text)  # "537 days", "7,651": the number it commits to
    head = _TRAILING_GROUPS.sub("", found.text)
    return FlexibleVerdict(head != found.text and equal(head, golds, words, True), found.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` against ``row["answer"]`` by normalised equality."""
    output = response.get("output") or ""
    extracted = extract_answer(output)
    golds = gold_strings(row["answer"])
    loose = flexible_verdict(row, output, dataset_dir)
    if equal(extracted, golds, word_classes(row_language(row))):
        return binary(NAME, True, extracted, "equals an accepted answer", loose)
    why = f"{clip(extracted)} matches none of {len(golds)} accepted"
    return binary(NAME, False, extracted, why, loose)
