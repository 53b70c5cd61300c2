"""``contains`` scorer (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows).

Rules:
- The model output goes through the four extraction steps; the extraction is read by the
  committed-answer grammar (:mod:`stages.scoring.commitment`, issue 30) with the candidates of
  the row's kind (:mod:`stages.scoring.vocabulary`: every weekday or month name when the answer
  is one, and the answers of the dataset's rows of the same category), matched as whole words:
  a hyphen or apostrophe followed (or preceded) by a letter joins words, so gold ``dix`` is not
  in ``dix-sept``; a ``.`` or ``,`` between digits joins a number.
- Correct when the extraction commits to the row's answer *and* the committed words are written
  as one accepted answer (normalised: NFKC, casefold, whitespace collapsed): prose around it is
  allowed (``Le jour sera mardi``), a second answer is not — ``mardi et jeudi``, ``mardi (ou
  jeudi)``, ``mardi [jeudi?]``, a list of every weekday — and neither is a negated one (``ce
  n'est pas mardi``). Another weekday in the row's language or in English names another
  answer; the same day in English (``mardi (Tuesday)``) does not.
- Accents: strict keeps them. "sabado" is not "sábado": in the suites' languages an accent can
  be the whole difference between two words (fr ``ou``/``où``, es ``si``/``sí``, pt ``e``/``é``),
  so strict asks for the spelling the question's language uses.

Flexible (issue 12): the flexible candidate (:mod:`stages.scoring.flexible`) with accents folded
on both sides (NFD, combining marks dropped): "sabado" counts for "sábado", a missing accent
being a keyboard or ASCII-output habit rather than a different answer. Several different boxed
answers are wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.scoring import flexible
from stages.scoring.commitment import commit, last_sentence
from stages.scoring.extract import extract_with_line
from stages.scoring.lexicon import row_language, word_classes
from stages.scoring.text_forms import analysis_text, fold_accents, gold_strings, normalize
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip
from stages.scoring.vocabulary import GOLD, answer_candidates, word_candidates

NAME = "contains"

__all__ = ["fold_accents", "found", "judge", "score"]


def judge(
    text: str,
    row: dict[str, Any],
    dataset_dir: Path | None,
    fold: bool,
    whole: bool = False,
) -> tuple[bool, str]:
    """``(correct, why)``: does ``text`` commit to one of the row's accepted answers?
    ``whole``: a reply without an answer line, read as the flexible reading reads one."""
    words = word_classes(row_language(row))
    plain = analysis_text(text, fold).casefold()
    cands = answer_candidates(plain, row, dataset_dir, fold)
    if whole and cands:
        span = last_sentence(plain, cands, words)
        if span is None:
            return False, "offers several answers, one a sentence"
        plain = plain[span[0] : span[1]]
        cands = answer_candidates(plain, row, dataset_dir, fold)
    found = commit(plain, cands, words)
    if found.candidate is None:
        return False, found.why
    written = normalize(plain[found.candidate.start : found.candidate.end])
    accepted = {normalize(g) for g in gold_strings(row["answer"])}
    if fold:
        accepted = {fold_accents(a) for a in accepted}
    if found.key == GOLD and written in accepted:
        return True, f"commits to accepted answer {clip(written)}"
    return False, f"commits to {clip(written)}, not an accepted answer"


def flexible_verdict(
    row: dict[str, Any], output: str, dataset_dir: Path | None = None
) -> FlexibleVerdict:
    """The flexible reading: flexible candidate, accents folded (module rules)."""
    candidate = flexible.candidate(output)
    if candidate.several:
        return FlexibleVerdict(False, candidate.text)
    whole = candidate.source == "whole text"
    correct, _ = judge(candidate.text, row, dataset_dir, fold=True, whole=whole)
    return FlexibleVerdict(correct, candidate.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by whether it commits to an accepted answer."""
    output = response.get("output") or ""
    extracted, _ = extract_with_line(output)
    loose = flexible_verdict(row, output, dataset_dir)
    if flexible.several_boxes(extracted):
        return binary(NAME, False, extracted, "offers several boxed answers", loose)
    correct, why = judge(extracted, row, dataset_dir, fold=False)
    return binary(NAME, correct, extracted, why, loose)


def found(gold: str, text: str) -> bool:
    """True when normalised ``gold`` occurs in normalised ``text`` as whole words."""
    return bool(gold) and bool(word_candidates(text, {gold: GOLD}, fold=False))
