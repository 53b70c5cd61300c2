"""The learned answer-free baseline (issue 19): can a learner that never solves a row pick its
answer anyway? The dataset-artifact test of hypothesis-only NLI baselines (Poliak et al. 2018;
Gururangan et al. 2018) and of AFLite (Le Bras et al. 2020).

Per answer format (the row's scorer: ``mc``, ``exact``, ``numeric``, ``contains``), on that
format's rows only:

* every row offers *candidates* — an mc row its options (answer-free features in
  :mod:`stages.datasets.option_features`), an open row what its prompt states and what the rest
  of its family answers (:mod:`stages.datasets.open_candidates`). A candidate is right when the
  row's own scorer accepts it. Three more features are learned from the other rows of the same
  task family (``category``): ``text_prior``, ``word_prior`` and ``word_prior_max`` — how often
  the candidate's text, or its words, were right where offered — which catch a family whose gold
  has a look of its own (the late-stage action, "Either", a type named twice).
* two learners (:mod:`stages.datasets.learner`), each :data:`FOLDS`-fold cross-validated:
  scikit-learn logistic regression over every feature, and the single best *cue* (one feature,
  one direction) chosen on the training folds — the reader who spots one tell. Each row's guess is
  its best-scoring candidate (a tie of k holding the gold scores 1/k). The format's accuracy is
  the better learner's; ``learner`` says which.
* folds are drawn *within* each family (row ``i`` of a family, in file order, is in fold
  ``i mod FOLDS``), so each family is learned from its own other rows, as by a reader who has
  seen a few of them. A fold holding a family out entirely could only find shortcuts that look
  alike in every family, and each of the issue's findings belongs to one family.
* chance of a row: 1/k for mc; for an open row, 1 over the number of distinct answers of its
  family (the answer space of a guesser who knows the family: 1/6 for "which place", 1/n for n
  rows whose answers all differ). Accuracy and chance are means over the rows; the interval is
  Wilson's 95 % score interval. An open family of two rows or more with one answer for all has
  chance 1 and fails on its own: its answer never depends on the question.

Verdict: a format *fails* when its learned baseline beats chance by more than
:data:`MAX_MARGIN` over its rows, or over the rows of one of its families (:data:`MIN_FAMILY`
rows or more), and the excess is significant: the Wilson interval's lower end is above chance
once the interval is widened for the m comparisons the format makes (two learners, over all
rows and over each such family: confidence 1 − 0.05/m, Bonferroni). A margin the rows cannot
tell from luck is reported, not failed: at 36 mc rows a shortcut-free format exceeds +5 points
by luck about one time in three. Tables print the plain 95 % interval. A format with
fewer than :data:`MIN_ROWS` rows is reported without a verdict. ``explain`` names the features
that alone pick the answer most often (over every row, priors out of fold), so the author sees
why.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from stages.datasets import learner, open_candidates, option_features
from stages.datasets.audit_text import STOP_WORDS, normalise
from stages.datasets.learner import Unit
from stages.datasets.option_features import tokens
from stages.scoring.exact import gold_strings, normalize
from stages.scoring.registry import score_row

FORMATS = ("mc", "exact", "numeric", "contains")
FOLDS = 5
MIN_ROWS = 12
MIN_FAMILY = 8
MAX_MARGIN = 0.05
Z_95 = 1.959963984540054
_EXPLAIN = 3


def wilson(p: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed over ``n`` rows."""
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Share:
    """Accuracy against chance over some rows, with its interval."""

    rows: int
    chance: float
    accuracy: float
    ci: tuple[float, float]
    """Wilson's 95 % interval (what the tables print)."""
    low: float
    """The lower end of the interval widened for the format's comparisons (the verdict's)."""

    @property
    def margin(self) -> float:
        """Accuracy minus chance."""
        return self.accuracy - self.chance

    @property
    def beats(self) -> bool:
        """More than :data:`MAX_MARGIN` over chance, and the widened interval clear of it."""
        return self.margin > MAX_MARGIN and self.low > self.chance


@dataclass
class Learned:
    """The learned baseline of one answer format of one dataset."""

    format: str
    overall: Share
    learner: str
    families: dict[str, Share] = field(default_factory=dict)
    explain: list[tuple[str, float]] = field(default_factory=list)
    constant: list[str] = field(default_factory=list)
    """Open-answer families of two rows or more whose rows all have the same answer."""
    family_explain: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    """For each family that beats chance, the features that alone do best on its rows."""

    @property
    def fails(self) -> bool:
        """The format, or one of its families, beats chance, or a family's answer never varies
        (module rules)."""
        if self.constant:
            return True
        if self.overall.rows < MIN_ROWS:
            return False
        return self.overall.beats or any(s.beats for s in self.families.values())

    def describe(self) -> str:
        """One line: accuracy, chance, margin, interval, learner and why."""
        o = self.overall
        text = (
            f"{self.format}: learned baseline {o.accuracy:.3f} vs chance {o.chance:.3f} "
            f"({100 * o.margin:+.1f} pt, 95 % CI {o.ci[0]:.2f}-{o.ci[1]:.2f}, {o.rows} rows, "
            f"{self.learner})"
        )
        beaten = [f"{k} {s.accuracy:.2f} vs {s.chance:.2f} (CI {s.ci[0]:.2f}-{s.ci[1]:.2f}"
                  + "".join(f"; {n} {a:.2f}" for n, a in self.family_explain.get(k, [])) + ")"
                  for k, s in sorted(self.families.items()) if s.beats]  # fmt: skip
        if beaten:
            text += "; families over chance: " + ", ".join(beaten)
        if self.constant:
            text += "; families whose answer never varies: " + ", ".join(self.constant)
        if self.explain:
            text += "; top features alone: " + ", ".join(f"{n} {a:.2f}" for n, a in self.explain)
        return text


def _content(text: str) -> frozenset[str]:
    words = tokens(text)
    return frozenset(w for w in words if w not in STOP_WORDS) or frozenset(words)


def _open_label(row: dict[str, Any], candidate: open_candidates.Candidate, golds: set[str]) -> bool:
    if row["scorer"] == "numeric":
        plausible = candidate.key.startswith("n:")
    elif row["scorer"] == "exact":
        plausible = normalize(candidate.text) in golds
    else:
        plausible = any(g and g in normalize(candidate.text) for g in golds)
    if not plausible:
        return False
    reply = {"output": f"Answer: {candidate.text}", "error": None}
    return bool(score_row(row, reply, Path(".")).correct)


def units(rows: list[dict[str, Any]]) -> list[Unit]:
    """The learners' view of rows that share one format (module rules)."""
    seen: Counter[str] = Counter()
    answers: dict[str, set[str]] = {}
    for row in rows:
        answers.setdefault(row["category"], set()).add(normalise(gold_strings(row["answer"])[0]))
    family = open_candidates.family_answers(rows)
    out = []
    for i, row in enumerate(rows):
        fold = seen[row["category"]] % FOLDS
        seen[row["category"]] += 1
        if row["scorer"] == "mc":
            static = np.array(option_features.option_features(row), dtype=float)
            texts = [normalise(c) for c in row["choices"]]
            words = [_content(c) for c in row["choices"]]
            labels = np.array([j == ord(row["answer"]) - 65 for j in range(len(texts))])
            chance = 1 / len(texts)
        else:
            found = open_candidates.candidates(row, family[i])
            golds = {normalize(g) for g in gold_strings(row["answer"])}
            width = len(open_candidates.NAMES)
            static = np.array([c.features for c in found], dtype=float).reshape(-1, width)
            texts = [c.key for c in found]
            words = [_content(c.text) for c in found]
            labels = np.array([_open_label(row, c, golds) for c in found], dtype=bool)
            chance = 1 / len(answers[row["category"]])
        out.append(Unit(row["category"], fold, static, texts, words, labels, chance))
    return out


def _share(hits: list[float], chances: list[float], z: float) -> Share:
    accuracy = sum(hits) / len(hits)
    ci = wilson(accuracy, len(hits))
    return Share(len(hits), sum(chances) / len(chances), accuracy, ci, wilson(accuracy, len(hits), z)[0])


def learn(rows: list[dict[str, Any]]) -> Learned:
    """The learned baseline of rows that share one answer format (module rules)."""
    fmt = rows[0]["scorer"]
    all_units = units(rows)
    chances = [u.chance for u in all_units]
    results = learner.cross_validate(all_units)
    name = max(sorted(results), key=lambda k: sum(results[k]))
    hits = results[name]
    families: dict[str, list[int]] = {}
    for i, unit in enumerate(all_units):
        families.setdefault(unit.category, []).append(i)
    big = {k: v for k, v in families.items() if len(v) >= MIN_FAMILY}
    comparisons = len(results) * (1 + len(big))
    z = NormalDist().inv_cdf(1 - 0.025 / comparisons)
    shares = {k: _share([hits[i] for i in v], [chances[i] for i in v], z) for k, v in big.items()}
    names = (option_features.NAMES if fmt == "mc" else open_candidates.NAMES) + learner.PRIORS
    explain = learner.explain(all_units, names, _EXPLAIN) if len(rows) >= MIN_ROWS else []
    family_explain = {k: learner.explain([all_units[i] for i in families[k]], names, 2)
                      for k, share in shares.items() if share.beats}  # fmt: skip
    constant = sorted(k for k, v in families.items() if len(v) > 1 and all_units[v[0]].chance == 1)
    if fmt == "mc":
        constant = []
    overall = _share(hits, chances, z)
    return Learned(fmt, overall, name, shares, explain, constant, family_explain)


def learn_formats(rows: list[dict[str, Any]]) -> dict[str, Learned]:
    """The learned baseline of every format in :data:`FORMATS` that the rows hold."""
    out = {}
    for fmt in FORMATS:
        mine = [r for r in rows if r["scorer"] == fmt]
        if mine:
            out[fmt] = learn(mine)
    return out
