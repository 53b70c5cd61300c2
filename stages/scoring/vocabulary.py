"""The candidates of a word answer's kind (issue 30: "a second distinct candidate of the answer's
kind"), for the contains and exact scorers.

A row's kind is known two ways, joined:
- **calendar names**: when an accepted answer is a weekday or a month name, every weekday (or
  month) name in the suites' languages is a candidate, keyed by its day or month, so ``mardi``
  and ``Tuesday`` are one answer and ``jeudi`` another. The names come from the Unicode CLDR
  through Babel (format and stand-alone forms, with and without accents; Portuguese ``terça`` as
  well as ``terça-feira``).
- **the dataset's answers of the row's category**: every accepted answer of every row of the
  same ``category`` in the row's dataset (``dataset_dir/rows.jsonl``), keyed by its normal form.

The row's own accepted answers share the key ``GOLD``. Matching is on whole words, case-folded,
in the text as :func:`stages.scoring.text_forms.analysis_text` prepares it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable
from functools import lru_cache
from pathlib import Path
from typing import Any

from stages.scoring.commitment import Candidate
from stages.scoring.number_reading import candidates as number_candidates
from stages.scoring.numbers import Number, parse_number
from stages.scoring.text_forms import fold_accents, gold_strings, normalize

GOLD = "gold"
LANGUAGES = ("en", "fr", "es", "de", "it", "pt", "sw")


@lru_cache(maxsize=1)
def calendar_names() -> dict[str, tuple[str, int]]:
    """Every weekday and month name of the suites' languages (normal form -> (kind, index))."""
    from babel import Locale  # CLDR data: loaded once, only for word answers

    names: dict[str, tuple[str, int]] = {}
    for lang in LANGUAGES:
        locale = Locale.parse(lang)
        for kind, table in (("weekday", locale.days), ("month", locale.months)):
            for context in ("format", "stand-alone"):
                for index, name in table[context]["wide"].items():
                    for form in {name, name.removesuffix("-feira")}:
                        names[normalize(form)] = (kind, int(index))
                        names[fold_accents(normalize(form))] = (kind, int(index))
    return names


@lru_cache(maxsize=64)
def _category_answers(rows_path: str) -> dict[str, frozenset[str]]:
    by_category: dict[str, set[str]] = {}
    path = Path(rows_path)
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row.get("scorer") in ("exact", "contains"):
                answers = by_category.setdefault(str(row.get("category")), set())
                answers.update(normalize(a) for a in gold_strings(row["answer"]))
    return {k: frozenset(v) for k, v in by_category.items()}


def kind_words(row: dict[str, Any], dataset_dir: Path | None) -> dict[str, Hashable]:
    """Normal form -> key of every candidate word of ``row``'s kind (module rules)."""
    golds = {normalize(g) for g in gold_strings(row["answer"])}
    words: dict[str, Hashable] = {}
    if dataset_dir is not None:
        answers = _category_answers(str(dataset_dir / "rows.jsonl"))
        for answer in answers.get(str(row.get("category")), frozenset()):
            words[answer] = answer
    calendar = calendar_names()
    kinds = {calendar[g][0] for g in golds if g in calendar}
    for name, key in calendar.items():
        if key[0] in kinds:
            words[name] = key
    gold_keys = {words.get(g) for g in golds} - {None}
    for name, known in list(words.items()):
        if known in gold_keys:
            words[name] = GOLD
    for gold in golds:
        words[gold] = GOLD
    return {w: k for w, k in words.items() if w}


_NO_SPACE_SCRIPTS = re.compile(
    r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
)


def _edge(word: str, left: bool) -> str:
    """The boundary a word needs on one side: none beside punctuation or a script written
    without spaces (Han, kana, Thai); a hyphen or apostrophe before a letter joins words; a
    ``.``/``,`` between digits joins a number (58821 is not in 1,58821)."""
    char = word[0] if left else word[-1]
    if not (char.isalnum() or char == "_") or _NO_SPACE_SCRIPTS.match(char):
        return ""
    edge = r"(?<![\w])(?<!\w[-'])" if left else r"(?![\w])(?![-']\w)"
    if char.isdigit():
        edge += r"(?<!\d[.,])" if left else r"(?![.,]\d)"
    return edge


@lru_cache(maxsize=256)
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    parts = [
        _edge(w, True) + r"\s+".join(re.escape(p) for p in w.split()) + _edge(w, False)
        for w in sorted(words, key=len, reverse=True)
    ]
    return re.compile("|".join(parts), re.I)


def word_candidates(text: str, words: dict[str, Hashable], fold: bool) -> list[Candidate]:
    """The candidates of ``words`` in ``text`` (leftmost-longest, not overlapping); ``fold``
    matches with accents folded (the flexible reading: ``text`` must be folded too)."""
    table = {(fold_accents(w) if fold else w): k for w, k in words.items()}
    if not table:
        return []
    pattern = _pattern(tuple(sorted(table)))
    found = []
    for match in pattern.finditer(text):
        key = table.get(normalize(match.group()))
        if key is not None:
            found.append(Candidate(match.start(), match.end(), key))
    return found


@lru_cache(maxsize=32)
def calendar_list(kind: str, lang: str) -> list[str]:
    """The weekday (Monday first) or month names of ``lang`` as its calendar writes them."""
    from babel import Locale

    locale = Locale.parse(lang if lang in LANGUAGES else "en")
    table = locale.days if kind == "weekday" else locale.months
    names = table["format"]["wide"]
    return [str(names[i]) for i in sorted(names)]


def gold_numbers(row: dict[str, Any]) -> frozenset[Number]:
    """The accepted answers' values when every one of them is a number (then every number in
    the reply is a candidate), else nothing."""
    values = [parse_number(g) for g in gold_strings(row["answer"])]
    return frozenset(v for v in values if v is not None) if None not in values else frozenset()


def _merged(
    plain: str, kind: dict[str, Hashable], numbers: frozenset[Number], fold: bool
) -> list[Candidate]:
    """Word candidates; on a row whose answers are numbers, every number first (a fraction
    ``58821 / 12345`` is one number, not the answer 58821 and a word)."""
    found: list[Candidate] = []
    if numbers:
        for cand in number_candidates(plain):
            found.append(Candidate(cand.start, cand.end, GOLD if cand.key in numbers else cand.key))
    taken = [(c.start, c.end) for c in found]
    for cand in word_candidates(plain, kind, fold):
        if not any(a < cand.end and cand.start < b for a, b in taken):
            found.append(cand)
    return sorted(found, key=lambda c: c.start)


def answer_candidates(
    plain: str, row: dict[str, Any], dataset_dir: Path | None, fold: bool
) -> list[Candidate]:
    """The candidates of ``row``'s kind in ``plain`` (casefolded analysis text): numbers first
    when every accepted answer is a number, then the kind's words."""
    return _merged(plain, kind_words(row, dataset_dir), gold_numbers(row), fold)
