"""Blind annotation audit statistics (spec 002, "Why the sample looks the way it does").

The sample is stratified and deliberately over-draws small strata, so the raw rate over the sample
is not the corpus rate: each stratum's rate is weighted by the stratum's share of the corpus
(the standard stratified estimator, with finite-population correction and a normal 95 % interval).
Per-stratum and per-score rates carry Wilson 95 % intervals, which stay inside [0, 1] for small n.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from stages.errors import AtlasError

Z95 = 1.959963984540054


def draw_sample(
    ids_by_stratum: Mapping[str, Sequence[str]], take: Mapping[str, int], seed: int
) -> dict[str, list[str]]:
    """``take[s]`` ids from each stratum ``s``, each stratum with its own seeded generator so that
    changing one stratum's take leaves the others' draws alone."""
    unknown = sorted(set(take) - set(ids_by_stratum))
    untaken = sorted(set(ids_by_stratum) - set(take))
    if unknown or untaken:
        raise AtlasError(
            f"audit take: strata {unknown} are not in the corpus and corpus strata "
            f"{untaken} have no take (give 0 to leave one out knowingly)"
        )
    sample: dict[str, list[str]] = {}
    for stratum in sorted(take):
        ids = sorted(ids_by_stratum[stratum])
        if not 0 <= take[stratum] <= len(ids):
            raise AtlasError(f"audit take: {stratum}: cannot draw {take[stratum]} of {len(ids)}")
        rng = random.Random(f"{seed}\x1faudit\x1f{stratum}")
        sample[stratum] = sorted(rng.sample(ids, take[stratum]))
    return sample


def wilson(events: int, n: int) -> tuple[float, float] | None:
    """Wilson score 95 % interval of a proportion; None when n is 0."""
    if n == 0:
        return None
    p, z2 = events / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Rate:
    """Events among judged items (items with a final label), with the labels seen."""

    judged: int
    events: int
    unresolved: int
    labels: dict[str, int] = field(default_factory=dict)

    @property
    def value(self) -> float | None:
        return self.events / self.judged if self.judged else None

    def as_dict(self) -> dict[str, object]:
        ci = wilson(self.events, self.judged)
        return {
            "judged": self.judged,
            "events": self.events,
            "unresolved": self.unresolved,
            "rate": self.value,
            "ci95": {"low": ci[0], "high": ci[1]} if ci else None,
            "labels": dict(sorted(self.labels.items())),
        }


def rate_of(finals: Sequence[str | None], event: str) -> Rate:
    """How often ``event`` is the final label; None finals (no majority) are unresolved."""
    labels = Counter(label for label in finals if label is not None)
    judged = sum(labels.values())
    return Rate(judged, labels[event], len(finals) - judged, dict(labels))


@dataclass(frozen=True)
class Reweighted:
    """Corpus-level rate: strata rates weighted by the strata's corpus shares."""

    rate: float | None
    ci95: tuple[float, float] | None
    coverage: float
    reason: str | None

    def as_dict(self) -> dict[str, object]:
        ci = {"low": self.ci95[0], "high": self.ci95[1]} if self.ci95 else None
        return {"rate": self.rate, "ci95": ci, "coverage": self.coverage, "reason": self.reason}


def reweight(rates: Mapping[str, Rate], population: Mapping[str, int]) -> Reweighted:
    """Σ W_h p_h over the strata that have judged items (W_h = N_h / N among them);
    variance Σ W_h² (1 − n_h/N_h) p_h (1 − p_h) / (n_h − 1). ``coverage`` is the corpus share of
    those strata: below 1 the estimate speaks only for that part of the corpus."""
    total = sum(population.values())
    covered = {s: r for s, r in rates.items() if r.judged > 0 and population.get(s, 0) > 0}
    if total == 0 or not covered:
        return Reweighted(None, None, 0.0, "no stratum has a judged item")
    share = sum(population[s] for s in covered)
    rate, variance, reason = 0.0, 0.0, None
    for stratum, r in covered.items():
        weight, n, big_n = population[stratum] / share, r.judged, population[stratum]
        p = r.events / n
        rate += weight * p
        if n == 1 and n < big_n:
            reason = f"stratum {stratum!r} has one judged item, so its variance is unknown"
        elif n > 1:
            variance += weight**2 * (1 - n / big_n) * p * (1 - p) / (n - 1)
    if reason:
        return Reweighted(rate, None, share / total, reason)
    half = Z95 * math.sqrt(variance)
    return Reweighted(rate, (max(0.0, rate - half), min(1.0, rate + half)), share / total, None)


def threshold_table(
    scored: Sequence[tuple[float, str | None]], band: tuple[float, float], event: str
) -> dict[str, object]:
    """Per score inside the band, the event rate; and for each cut c in the band, the event rate
    among band items that the cut would keep (score ≥ c) and reject (score < c)."""
    low, high = band
    inside = sorted(((s, label) for s, label in scored if low <= s <= high), key=lambda t: t[0])
    scores = sorted({s for s, _ in inside})
    per_score = {
        _key(s): rate_of([label for t, label in inside if t == s], event).as_dict() for s in scores
    }
    cuts = {}
    for cut in scores:
        kept = rate_of([label for s, label in inside if s >= cut], event)
        rejected = rate_of([label for s, label in inside if s < cut], event)
        cuts[_key(cut)] = {"kept": kept.as_dict(), "rejected": rejected.as_dict()}
    return {
        "band": {"low": low, "high": high},
        "event": event,
        "per_score": per_score,
        "cuts": cuts,
    }


def _key(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else str(score)
