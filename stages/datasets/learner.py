"""The two cross-validated learners of the learned answer-free baseline
(:mod:`stages.datasets.learned`, which states the rules; this module is their mechanics).

A row becomes a :class:`Unit`: its candidates (mc options, or an open row's candidates), one
feature vector per candidate and which candidates are right. Three features are *family priors*
counted on other rows of the same category (:class:`Priors`), always outside the row's own fold
and, while a fold is being tested, outside that fold too. Features are centred within each row
(only differences between a row's candidates can pick one). Both learners score every candidate
and take the best one; a tie of k that holds the gold scores 1/k.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

PRIORS = ("text_prior", "word_prior", "word_prior_max")
#: Inverse L2 strength of the logistic regression (strong: a few dozen rows, ~25 features).
C = 0.1
#: Wrong candidates of one row the regression trains on at most (an open row offers hundreds).
NEGATIVES = 40
_SMOOTH = 2.0


@dataclass
class Unit:
    """One row as the learners see it."""

    category: str
    fold: int
    static: np.ndarray
    """Answer-free features, one row per candidate."""
    texts: list[str]
    """Each candidate's identity (what the text prior counts)."""
    words: list[frozenset[str]]
    """Each candidate's content words (what the word priors count)."""
    labels: np.ndarray
    """Which candidates the row's scorer accepts."""
    chance: float


@dataclass
class _Tally:
    """Counts of one family's rows in one fold."""

    seen: tuple[Counter[str], Counter[str]] = field(default_factory=lambda: (Counter(), Counter()))
    """How often each text, and each word, was offered (index 0: texts, 1: words)."""
    right: tuple[Counter[str], Counter[str]] = field(default_factory=lambda: (Counter(), Counter()))
    """How often each was right."""
    candidates: int = 0
    rights: int = 0


class Priors:
    """How often each candidate text and word was offered and right, per family and fold."""

    def __init__(self, units: list[Unit]) -> None:
        self.by: dict[tuple[str, int], _Tally] = {}
        self.folds: dict[str, set[int]] = {}
        self.cache: dict[tuple[str, frozenset[int]], tuple[dict[str, float], ...]] = {}
        for unit in units:
            tally = self.by.setdefault((unit.category, unit.fold), _Tally())
            self.folds.setdefault(unit.category, set()).add(unit.fold)
            for text, words, label in zip(unit.texts, unit.words, unit.labels, strict=True):
                tally.seen[0][text] += 1
                tally.right[0][text] += int(label)
                for w in words:
                    tally.seen[1][w] += 1
                    tally.right[1][w] += int(label)
                tally.candidates += 1
                tally.rights += int(label)

    def _rates(self, category: str, excluded: frozenset[int]) -> tuple[dict[str, float], ...]:
        key = (category, excluded)
        if key not in self.cache:
            parts = [self.by[(category, f)] for f in sorted(self.folds[category] - excluded)]
            base = (sum(p.rights for p in parts) + 1) / (sum(p.candidates for p in parts) + 2)
            tables = []
            for index in (0, 1):
                seen: Counter[str] = Counter()
                right: Counter[str] = Counter()
                for part in parts:
                    seen.update(part.seen[index])
                    right.update(part.right[index])
                tables.append({k: math.log((right[k] + _SMOOTH * base) / (n + _SMOOTH) / base)
                               for k, n in seen.items()})  # fmt: skip
            self.cache[key] = (tables[0], tables[1])
        return self.cache[key]

    def of(self, unit: Unit, excluded: set[int]) -> np.ndarray:
        """The unit's priors from its family's rows outside the ``excluded`` folds: smoothed log
        ratios of "right where offered" to the family's base rate (0 for an unseen text)."""
        texts, words = self._rates(unit.category, frozenset(excluded))
        rows = []
        for text, mine in zip(unit.texts, unit.words, strict=True):
            by_word = [words.get(w, 0.0) for w in mine] or [0.0]
            rows.append([texts.get(text, 0.0), sum(by_word) / len(by_word), max(by_word)])
        return np.array(rows, dtype=float).reshape(-1, len(PRIORS))

    def matrix(self, unit: Unit, excluded: set[int]) -> np.ndarray:
        """Static features and priors side by side, centred within the row."""
        if not len(unit.texts):
            return np.zeros((0, unit.static.shape[1] + len(PRIORS)))
        x = np.hstack([unit.static, self.of(unit, excluded)])
        return x - x.mean(axis=0)


def expected(scores: np.ndarray, labels: np.ndarray) -> float:
    """Expected correctness of taking the best-scoring candidate, ties split evenly."""
    if not len(scores):
        return 0.0
    tied = np.abs(scores - scores.max()) <= 1e-9 * max(1.0, float(np.abs(scores).max()))
    return float(labels[tied].mean())


def _kept(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Every right candidate and at most :data:`NEGATIVES` wrong ones, drawn at random."""
    wrong = np.flatnonzero(~labels)
    if len(wrong) > NEGATIVES:
        wrong = np.sort(rng.choice(wrong, NEGATIVES, replace=False))
    return np.sort(np.concatenate([np.flatnonzero(labels), wrong]))


def fit(matrices: list[np.ndarray], units: list[Unit]) -> Any:
    """Logistic regression of "right" on the candidates' features (None when nothing to learn)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    useful = [(x, u) for x, u in zip(matrices, units, strict=True) if u.labels.any() and len(x) > 1]
    if not useful or all(u.labels.all() for _, u in useful):
        return None
    rng = np.random.default_rng(0)
    kept = [_kept(u.labels, rng) for _, u in useful]
    x = np.vstack([m[k] for (m, _), k in zip(useful, kept, strict=True)])
    y = np.concatenate([u.labels[k] for (_, u), k in zip(useful, kept, strict=True)])
    model = make_pipeline(StandardScaler(), LogisticRegression(C=C, solver="newton-cholesky"))
    return model.fit(x, y)


def _scores(model: Any, x: np.ndarray) -> np.ndarray:
    if model is None or not len(x):
        return np.zeros(len(x))
    return np.asarray(model.decision_function(x))


def cue_hits(matrix: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """For every feature and both directions (``+`` then ``-``), the expected correctness of
    picking this row's candidate with the highest value: shape (2, features)."""
    out = np.zeros((2, matrix.shape[1]))
    if not len(matrix):
        return out
    for k, signed in enumerate((matrix, -matrix)):
        best = signed.max(axis=0)
        tied = signed >= best - 1e-9 * np.maximum(1.0, np.abs(signed).max(axis=0))
        out[k] = (tied & labels[:, None]).sum(axis=0) / tied.sum(axis=0)
    return out


def cue_table(matrices: list[np.ndarray], units: list[Unit]) -> np.ndarray:
    """Mean :func:`cue_hits` over rows: shape (2, features)."""
    return sum((cue_hits(m, u.labels) for m, u in zip(matrices, units, strict=True)),
               np.zeros((2, matrices[0].shape[1]))) / len(units)  # fmt: skip


def best_cue(matrices: list[np.ndarray], units: list[Unit]) -> tuple[int, float]:
    """The (feature, direction) that alone picks the right candidate most often (the first
    feature wins a tie, ``+`` before ``-``)."""
    table = cue_table(matrices, units)
    flat = int(np.argmax(table.T.reshape(-1)))
    return flat // 2, 1.0 if flat % 2 == 0 else -1.0


def cross_validate(units: list[Unit]) -> dict[str, list[float]]:
    """Each unit's expected correctness under both learners, ``logistic`` and ``cue``, each
    trained on the other folds only."""
    priors = Priors(units)
    out = {"logistic": [0.0] * len(units), "cue": [0.0] * len(units)}
    for fold in sorted({u.fold for u in units}):
        test = [i for i, u in enumerate(units) if u.fold == fold]
        train = [u for u in units if u.fold != fold]
        if not train:
            continue
        matrices = [priors.matrix(u, {u.fold, fold}) for u in train]
        model = fit(matrices, train)
        j, sign = best_cue(matrices, train)
        for i in test:
            x = priors.matrix(units[i], {fold})
            out["logistic"][i] = expected(_scores(model, x), units[i].labels)
            out["cue"][i] = expected(sign * x[:, j], units[i].labels) if len(x) else 0.0
    return out


def explain(units: list[Unit], names: tuple[str, ...], count: int) -> list[tuple[str, float]]:
    """The ``count`` features that alone pick the right candidate most often over every row
    (their best direction; priors out of fold), as ``(name with its direction, accuracy)``."""
    priors = Priors(units)
    table = cue_table([priors.matrix(u, {u.fold}) for u in units], units)
    scored = [(f"{name} {'high' if table[0, j] >= table[1, j] else 'low'}",
               float(table[:, j].max())) for j, name in enumerate(names)]  # fmt: skip
    scored.sort(key=lambda item: -item[1])
    return scored[:count]
