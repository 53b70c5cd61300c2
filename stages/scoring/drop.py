"""``drop`` scorer: EM and F1 exactly as the official DROP evaluation script computes them
(allenai ``drop_eval.py``, also shipped by allennlp-models and simple-evals; spec 003 "DROP",
spec 001 "Answer extraction and scorers"). Reimplemented here, rule for rule:

- Tokenise a span on single spaces and hyphens (``re.split(" |-")``). Per token: lower-case;
  remove ASCII punctuation unless the token parses with Python ``float()``; if the result parses
  with ``float()``, replace it by ``str(float(...))`` ("19" and "19.0" -> "19.0", "1,000" ->
  "1000" -> "1000.0"); blank out the articles a/an/the (``\\b(a|an|the)\\b``); collapse
  whitespace. Empty tokens are dropped and the rest joined by one space: the normalised span.
  Its bag is the *set* of its whitespace-separated tokens.
- EM = 1 when the sets of normalised predicted and gold spans are equal and the span counts are
  equal, else 0.
- F1 of a (gold span, predicted span) pair is the bag-of-words F1 — except that it is 0 when
  the gold bag holds numbers and none of them is in the predicted bag (the number rule). A
  empty predicted bag has precision 1, an empty gold bag recall 1.
- Spans are aligned one-to-one by optimal assignment (scipy ``linear_sum_assignment`` on the
  pair-F1 matrix); F1 = mean over max(#gold, #predicted) slots of the aligned pair F1s (so
  unmatched spans on either side count as 0), rounded to 2 decimals (numpy rounding).
- Over all accepted answers of the row, EM and F1 are each the maximum; an accepted answer whose
  first span is blank is skipped, as the official evaluate_json does.

Project conventions (docs/datasets.md#rows): ``answer`` is a list of accepted answers, each a
list of spans or a plain string (one span); numbers are read through ``str()``. The prediction is
the extracted answer (four extraction steps) split into spans on ``|``; blank spans (a trailing
``|``) are dropped, and an all-blank prediction is the single empty span. ``score`` = EM,
``correct`` = EM == 1, extras ``em`` and ``f1`` (0–1 scale).

Flexible (issue 12): the same EM on the flexible candidate (:mod:`stages.scoring.flexible`:
markdown emphasis, ``\\boxed{}``, LaTeX removed); several different boxed answers are wrong.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any

from stages.scoring import flexible
from stages.scoring.extract import extract_answer
from stages.scoring.verdict import FlexibleVerdict, Verdict, clip

NAME = "drop"

_TOKEN_SPLIT = re.compile(" |-")
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_PUNCTUATION = frozenset(string.punctuation)

Bag = frozenset[str]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=65536)
def _normalize_token(token: str) -> str:
    token = token.lower()
    if not _is_number(token):
        token = "".join(ch for ch in token if ch not in _PUNCTUATION)
    if _is_number(token):
        token = str(float(token))
    return " ".join(_ARTICLES.sub(" ", token).split())


def normalize_answer(text: str) -> str:
    """The official ``_normalize_answer``: lower, punctuation, numbers, articles, whitespace."""
    parts = [_normalize_token(token) for token in _TOKEN_SPLIT.split(text)]
    return " ".join(part for part in parts if part.strip()).strip()


def answer_to_bags(spans: list[str]) -> tuple[list[str], list[Bag]]:
    """Normalised spans and their token sets (the official ``_answer_to_bags``)."""
    normalized = [normalize_answer(span) for span in spans]
    return normalized, [frozenset(span.split()) for span in normalized]


def compute_f1(predicted: Bag, gold: Bag) -> float:
    """Bag-of-words F1 of one predicted span against one gold span."""
    intersection = len(gold & predicted)
    precision = intersection / len(predicted) if predicted else 1.0
    recall = intersection / len(gold) if gold else 1.0
    if precision == 0.0 and recall == 0.0:
        return 0.0
    return (2 * precision * recall) / (precision + recall)


def numbers_match(gold: Bag, predicted: Bag) -> bool:
    """The number rule: no gold number, or at least one gold number also predicted."""
    gold_numbers = {word for word in gold if _is_number(word)}
    return not gold_numbers or bool(gold_numbers & {w for w in predicted if _is_number(w)})


def _pair_f1(gold: Bag, predicted: Bag) -> float:
    return compute_f1(predicted, gold) if numbers_match(gold, predicted) else 0.0


def _numpy_mean(values: list[float]) -> float:
    """``np.mean`` bit for bit: below 8 elements numpy sums left to right from 0.0."""
    if len(values) < 8:
        total = 0.0
        for value in values:
            total += value
        return total / len(values)
    import numpy as np

    return float(np.mean(np.array(values)))


def align_f1(predicted: list[Bag], gold: list[Bag]) -> float:
    """Mean F1 over the optimal one-to-one alignment, rounded like the official script.

    ``round(x * 100) / 100`` is exactly what numpy's ``round(np.float64(x), 2)`` computes
    (scale, round half to even, unscale).
    """
    if len(predicted) == 1 and len(gold) == 1:
        return round(_pair_f1(gold[0], predicted[0]) * 100) / 100
    scores = [[_pair_f1(g, p) for p in predicted] for g in gold]
    best = [0.0] * max(len(gold), len(predicted))
    for row, col in _assignment(scores):
        best[row] = max(best[row], scores[row][col])
    return round(_numpy_mean(best) * 100) / 100


def _assignment(scores: list[list[float]]) -> list[tuple[int, int]]:
    """scipy's optimal assignment maximising the total F1 (its own tie-breaking included)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(-np.array(scores, dtype=float))
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


def get_metrics(predicted: list[str], gold: list[str]) -> tuple[float, float]:
    """(EM, F1) of predicted spans against one accepted answer's gold spans."""
    pred_spans, pred_bags = answer_to_bags(predicted)
    gold_spans, gold_bags = answer_to_bags(gold)
    same = set(pred_spans) == set(gold_spans) and len(pred_spans) == len(gold_spans)
    return (1.0 if same else 0.0), align_f1(pred_bags, gold_bags)


def accepted_answers(answer: Any) -> list[list[str]]:
    """The row's accepted answers, each as a list of span strings."""
    options = answer if isinstance(answer, list) else [answer]
    return [[str(s) for s in o] if isinstance(o, list) else [str(o)] for o in options]


def prediction_spans(extracted: str) -> list[str]:
    """The extracted answer split on ``|``, blank spans dropped (at least one span)."""
    if "|" not in extracted:
        return [extracted]
    return [span for span in extracted.split("|") if span.strip()] or [""]


def best_metrics(predicted: list[str], answer: Any) -> tuple[float, float]:
    """Max EM and max F1 over all accepted answers (blank-first-span answers skipped)."""
    em = f1 = 0.0
    for gold in accepted_answers(answer):
        if gold and gold[0].strip():
            gold_em, gold_f1 = get_metrics(predicted, gold)
            em, f1 = max(em, gold_em), max(f1, gold_f1)
    return em, f1


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge the extracted prediction against every accepted DROP answer."""
    output = response.get("output") or ""
    extracted = extract_answer(output)
    em, f1 = best_metrics(prediction_spans(extracted), row["answer"])
    why = f"EM {em:g}, F1 {f1:.2f} for {clip(extracted)}"
    found = flexible.candidate(output)
    loose_em = (
        0.0 if found.several else best_metrics(prediction_spans(found.text), row["answer"])[0]
    )
    loose = FlexibleVerdict(loose_em == 1.0, found.text)
    return Verdict(NAME, em == 1.0, em, extracted, why, {"em": em, "f1": f1}, loose)
