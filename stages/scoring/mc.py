"""``mc`` scorer: multiple choice by letter label (spec 001, "Answer extraction and scorers";
docs/datasets.md#rows: ``choices`` are labelled A, B, C, … in order and ``answer`` is the letter).

The extracted answer (four extraction steps) is read by the committed-answer grammar
(:mod:`stages.scoring.commitment`, issue 30) with these candidates, each keyed by its option's
letter:
- **labels**: a capital letter of one of the choices standing alone — ``B``, ``(B)``, ``[B]``,
  ``B.``, ``B)``, ``B:``, ``Option B``/``Choice B`` (and the suites' languages' words for it) —
  except an ``A`` (or ``I``) followed by a lower-case word, which is English prose (``A cat``);
  a lone lower-case letter when it is the whole answer (``b``, ``(b)``);
- **option texts**: each choice's text as whole words, case-folded, also without its final
  ``.``/``!`` and without a leading article (``cotton wool`` for "The cotton wool"); an option
  text is read before the letters inside it.
So ``B``, ``(B)``, ``B) Paris``, ``B (27)``, ``A - fossil``, ``Option B``, ``The answer is B``
and the option's text alone are right for B. ``B) Lyon`` where Lyon is C's text, ``A.B.C.D``,
``A. B C D``, ``A or B``, ``C: but D is also plausible`` commit to none and are wrong; ``C (not
D)`` is C. Strict keeps accents (an accent can be the whole difference between two words);
the flexible reading reads the flexible candidate (:mod:`stages.scoring.flexible`: markdown
emphasis, ``\\boxed{C}``, ``\\text{(C)}``) with accents folded. Several different boxed answers
are wrong.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.scoring import flexible
from stages.scoring.commitment import Candidate, commit
from stages.scoring.extract import extract_answer, tidy
from stages.scoring.lexicon import WordClasses, row_language, word_classes
from stages.scoring.text_forms import analysis_text, normalize
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip

NAME = "mc"

_OPTION_WORDS = r"option|choice|choix|opción|opcion|opção|opcao|opzione|auswahl|chaguo"
_LABEL = re.compile(
    rf"(?:\b(?:{_OPTION_WORDS})\s+)?"
    r"(?:\((?P<p>[A-Z])\)|\[(?P<b>[A-Z])\]|(?<![\w'])(?P<l>[A-Z])(?![\w'])[.):\]]?)",
    re.I,
)
# English "A"/"I" before a word is an article or a pronoun ("A cat", "I think") — unless the
# word is one that follows a label ("A and C", "A is also plausible", "A or B").
_AFTER_LABEL = (
    "and or is are was were but not nor then too also seems looks might may could would should "
    "can must has had plus vs versus "  # English; then the suites' languages
    "et ou est sont mais ni y o u es son pero und oder ist sind aber e ed è sono ma né é são mas "
    "nem na au ni ama lakini aussi también tambien também tambem auch anche pia sao ne"
)
_PROSE_LETTER = re.compile(rf"[AI]\s+(?!(?:{'|'.join(_AFTER_LABEL.split())})\b)[a-zà-ÿ]")
_LONE_LOWER = re.compile(r"[(\[]?([a-z])[)\]]?")


@lru_cache(maxsize=4096)
def _option_forms(choice: str, articles: tuple[str, ...], fold: bool) -> tuple[str, ...]:
    text = analysis_text(choice, fold)
    forms = {text, tidy(text)}
    for form in list(forms):
        head, _, rest = form.partition(" ")
        if rest and (head.casefold() in articles or head.casefold().endswith("'")):
            forms.add(rest)
    return tuple(sorted((f for f in forms if f), key=len, reverse=True))


def _phrase(form: str) -> re.Pattern[str]:
    body = r"\s+".join(re.escape(part) for part in form.split())
    return re.compile(rf"(?<![^\s(\[\"'«“:.,;]){body}(?![^\s)\]\"'»”.,;:!?])", re.I)


def candidates(text: str, choices: list[str], words: WordClasses, fold: bool) -> list[Candidate]:
    """Option texts, then labels outside them (module rules), sorted by position."""
    found: list[Candidate] = []
    taken = [False] * len(text)
    forms = [
        (form, chr(65 + index))
        for index, choice in enumerate(choices)
        for form in _option_forms(choice, words.articles, fold)
    ]
    for form, label in sorted(forms, key=lambda f: len(f[0]), reverse=True):
        for match in _phrase(form).finditer(text):
            if not any(taken[match.start() : match.end()]):
                found.append(Candidate(match.start(), match.end(), label))
                taken[match.start() : match.end()] = [True] * (match.end() - match.start())
    for match in _LABEL.finditer(text):
        letter = next(g for g in (match["p"], match["b"], match["l"]) if g)
        if not letter.isupper() or ord(letter) - 65 >= len(choices):
            continue
        if match["l"] and _PROSE_LETTER.match(text, match.start("l")):
            continue
        if not any(taken[match.start() : match.end()]):
            found.append(Candidate(match.start(), match.end(), letter))
    return sorted(found, key=lambda c: c.start)


def read(text: str, choices: list[str], lang: str | None, fold: bool) -> tuple[str | None, str]:
    """``(letter, why)``: the option ``text`` commits to, or None and why not."""
    words = word_classes(lang)
    plain = analysis_text(text, fold)
    lone = _LONE_LOWER.fullmatch(plain)
    if lone is not None and ord(lone[1]) - 97 < len(choices):
        return lone[1].upper(), ""
    whole = normalize(tidy(plain))
    hits = {
        chr(65 + i)
        for i, c in enumerate(choices)
        if whole in {normalize(f) for f in _option_forms(c, words.articles, fold)}
    }
    if len(hits) == 1:
        return hits.pop(), ""
    found = commit(plain, candidates(plain, choices, words, fold), words)
    if found.key is None and not found.value_text:
        beyond = [m["l"] for m in _LABEL.finditer(plain) if m["l"] and m["l"].isupper()]
        if len(beyond) == 1:  # "Answer: F" with four choices
            return None, f"names label {beyond[0]}, not among {len(choices)} choices"
    return (None, found.why) if found.key is None else (str(found.key), "")


def judge(text: str, choices: list[str], gold: str, lang: str | None = None) -> tuple[bool, str]:
    """``(correct, why)`` of one extracted answer under the strict reading."""
    label, why = read(text, choices, lang, fold=False)
    if label is None:
        return False, f"{clip(text)} {why}"
    return label == gold, f"chose {label}, gold {gold}"


def flexible_verdict(
    choices: list[str], gold: str, output: str, lang: str | None = None
) -> FlexibleVerdict:
    """The flexible reading of ``output`` (module rules)."""
    found = flexible.candidate(output)
    if found.several:
        return FlexibleVerdict(False, found.text)
    label, _ = read(found.text, choices, lang, fold=True)
    return FlexibleVerdict(label == gold, found.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by the choice it commits to."""
    choices = row.get("choices") or []
    gold = row["answer"]
    if not isinstance(gold, str) or len(gold) != 1 or not "A" <= gold < chr(65 + len(choices)):
        raise AtlasError(f"row {row.get('id')}: answer: {gold!r} is not a label of its choices")
    output = response.get("output") or ""
    lang = row_language(row)
    extracted = extract_answer(output)
    correct, why = judge(extracted, choices, gold, lang)
    return binary(NAME, correct, extracted, why, flexible_verdict(choices, gold, output, lang))
