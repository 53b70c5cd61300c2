"""``metrics/<workload>.json``: accuracy, Wilson interval, breakdowns (spec 001, "Answer extraction
and scorers": one item is right or wrong, accuracy = correct / total, failed requests count as
incorrect and are listed).

Every value is a dict keyed by name, never a list: ``dvc metrics diff`` silently drops lists.
Rules this module applies:

* ``n``/``correct``/``accuracy`` count scored *records*: a row sent with repeats contributes one
  record per repeat, so accuracy is over all repeats of all rows.
* A failed request is incorrect and is also listed in ``failures`` ({record key: error kind}).
* Non-binary scorers (``chrf``, ``review``) never enter accuracy; chrF++ is reported in a block
  labelled ``secondary``.
* ``accuracy_flexible``/``correct_flexible`` sit beside ``accuracy``/``correct`` at the top and
  in every breakdown cell (issue 12): the same records under the flexible extraction
  (:mod:`stages.scoring.flexible`); a scorer without a flexible reading counts its strict verdict.
* Long generations (splice records) get an ``integrity`` block: ``intact`` (the spec's share,
  = accuracy) and ``intact_complete`` (intact *and* complete; :mod:`stages.scoring.splice`).
* ``wilson_95`` is Wilson's interval on the effective sample size (issue 18): the plain Wilson
  interval for independent rows, wider where rows share a cluster or are repeated
  (:mod:`stages.scoring.interval`); ``pass_k`` gives pass@k and pass^k when every row was
  sampled more than once (:mod:`stages.scoring.passk`).
* Floats are rounded to 6 decimals so diffs show real changes only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

#: Two-sided 95 % normal quantile used by the Wilson score interval.
Z_95 = 1.959963984540054
#: Scorers whose verdict is a grade, not right/wrong; kept out of accuracy.
NON_BINARY_SCORERS = frozenset({"chrf", "review"})
#: Row facts (top-level or in ``meta``) that get a breakdown when rows carry them.
BREAKDOWN_KEYS = ("category", "difficulty", "bucket", "lang", "subject", "direction", "scorer")
DIGITS = 6


@dataclass(frozen=True)
class ScoredRecord:
    """One scored journal record (one line of ``scored.jsonl``)."""

    id: str
    repeat: int
    scorer: str | None
    correct: bool | None
    score: float | None
    extracted: str | None
    why: str
    extras: dict[str, Any]
    failed: str | None
    """Error kind of a failed request (``no_response`` when nothing was journaled), else None."""
    correct_flexible: bool | None = None
    """The verdict under the flexible extraction; the strict one where the scorer has none."""
    extracted_flexible: str | None = None
    """The flexible reading's candidate (None where the scorer has no flexible reading)."""
    facets: dict[str, str] = field(default_factory=dict)
    """Breakdown values the row carries (category, difficulty, bucket, ...)."""
    haystack: dict[str, str] | None = None
    """Grid cell of a long-context row: ``{"target_tokens": "8192", "depth": "50%"}``."""
    gold: Any = None
    prompt_excerpt: str = ""
    ttft_s: float | None = None
    latency_s: float | None = None
    exhausted: str | None = None
    """Why the answer ran out while thinking (:mod:`stages.scoring.exhausted`), else None; an
    exhausted record is never correct and is counted apart in ``metrics/<w>.json``."""

    @property
    def key(self) -> str:
        """Name of the record in ``failures``: the row id, plus ``#repeat`` after the first."""
        return record_key(self.id, self.repeat)

    @property
    def binary(self) -> bool:
        """True when the record counts towards accuracy."""
        return self.scorer is not None and self.scorer not in NON_BINARY_SCORERS


def _depth_key(depth: float) -> str:
    return f"{depth * 100:g}%"


def _excerpt(text: str, width: int = 240) -> str:
    """Head and tail of a long prompt: the task of a long prompt is usually at its end."""
    text = " ".join(text.split())
    half = width // 2
    return text if len(text) <= width else f"{text[:half]} … {text[-half:]}"


def _prompt_text(row: dict[str, Any]) -> str:
    if isinstance(row.get("prompt"), str):
        return str(row["prompt"])
    users = [m.get("content", "") for m in row.get("messages") or [] if m.get("role") == "user"]
    return str(users[-1]) if users else str(row.get("question", ""))


def row_facts(row: dict[str, Any]) -> dict[str, Any]:
    """What a scored record keeps of its row: facets, grid cell, gold and a prompt excerpt.

    Facets are taken from the row's top level first, then from ``meta``; only scalar values.
    The grid cell comes from ``meta.haystack`` (eval-longctx) or the row itself (haystack
    recipes); a row with several needles goes into the depth column ``multi``.
    """
    meta: dict[str, Any] = row["meta"] if isinstance(row.get("meta"), dict) else {}
    facets: dict[str, str] = {}
    for key in BREAKDOWN_KEYS:
        value = row[key] if key in row else meta.get(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            facets[key] = str(value)
    recipe: dict[str, Any] = meta["haystack"] if isinstance(meta.get("haystack"), dict) else row
    haystack = None
    needles = recipe.get("needles")
    if isinstance(needles, list):  # eval-longctx-v2's distractor lines are not what is asked
        needles = [n for n in needles if not isinstance(n, dict) or n.get("role") != "distractor"]
    if isinstance(recipe.get("target_tokens"), int) and isinstance(needles, list) and needles:
        depth = _depth_key(float(needles[0]["depth"])) if len(needles) == 1 else "multi"
        haystack = {"target_tokens": str(recipe["target_tokens"]), "depth": depth}
    return {
        "facets": facets,
        "haystack": haystack,
        "gold": row.get("answer"),
        "prompt_excerpt": _excerpt(_prompt_text(row)),
    }


def record_key(row_id: str, repeat: int) -> str:
    return row_id if repeat == 0 else f"{row_id}#{repeat}"


def _round(value: float) -> float:
    return round(value, DIGITS)


def wilson_interval(correct: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for ``correct`` successes out of ``n`` (n > 0), clamped to [0, 1]."""
    if n <= 0 or not 0 <= correct <= n:
        raise ValueError(f"no interval for {correct}/{n}")
    p = correct / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # The closed form is exactly 0 (or 1) at the extremes; avoid float residue there.
    low = 0.0 if correct == 0 else max(0.0, centre - half)
    high = 1.0 if correct == n else min(1.0, centre + half)
    return low, high


def accuracy_cell(records: Iterable[ScoredRecord]) -> dict[str, Any]:
    """``{n, correct, accuracy, correct_flexible, accuracy_flexible}`` over binary records."""
    binary = [r for r in records if r.binary]
    n = len(binary)
    correct = sum(r.correct is True for r in binary)
    flexible = sum(r.correct_flexible is True for r in binary)
    return {
        "n": n,
        "correct": correct,
        "accuracy": _round(correct / n) if n else None,
        "correct_flexible": flexible,
        "accuracy_flexible": _round(flexible / n) if n else None,
    }


def _grouped(records: list[ScoredRecord], key: str) -> dict[str, list[ScoredRecord]]:
    groups: dict[str, list[ScoredRecord]] = {}
    for record in records:
        value = record.facets.get(key)
        if value is not None:
            groups.setdefault(value, []).append(record)
    return dict(sorted(groups.items()))


def breakdowns(records: list[ScoredRecord]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{facet: {value: {n, correct, accuracy}}}`` for every facet some binary record carries."""
    binary = [r for r in records if r.binary]
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for key in BREAKDOWN_KEYS:
        groups = _grouped(binary, key)
        if groups:
            out[key] = {value: accuracy_cell(group) for value, group in groups.items()}
    return out


def count_breakdowns(records: list[ScoredRecord]) -> dict[str, dict[str, dict[str, int]]]:
    """``{facet: {value: {n, failed}}}``: the unscored (prompts) variant of :func:`breakdowns`."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for key in BREAKDOWN_KEYS:
        groups = _grouped(records, key)
        if groups:
            out[key] = {
                value: {"n": len(group), "failed": sum(r.failed is not None for r in group)}
                for value, group in groups.items()
            }
    return out


def haystack_grid(records: list[ScoredRecord]) -> dict[str, dict[str, float]]:
    """``{target_tokens: {depth: accuracy}}`` over binary records that carry a grid cell."""
    cells: dict[tuple[str, str], list[bool]] = {}
    for record in records:
        if record.binary and record.haystack is not None:
            cell = (record.haystack["target_tokens"], record.haystack["depth"])
            cells.setdefault(cell, []).append(record.correct is True)
    grid: dict[str, dict[str, float]] = {}
    for (tokens, depth), outcomes in sorted(cells.items()):
        grid.setdefault(tokens, {})[depth] = _round(sum(outcomes) / len(outcomes))
    return grid


def failures(records: Iterable[ScoredRecord]) -> dict[str, str]:
    """``{record key: error kind}`` for every failed request."""
    return {r.key: r.failed for r in records if r.failed is not None}


def drop_block(records: list[ScoredRecord]) -> dict[str, Any] | None:
    """Mean DROP EM and F1 (0–1) over drop records; a failed request has EM = F1 = 0."""
    drop = [r for r in records if r.scorer == "drop"]
    if not drop:
        return None
    em = [float(r.extras.get("em", 0.0)) for r in drop]
    f1 = [float(r.extras.get("f1", 0.0)) for r in drop]
    return {"n": len(drop), "em": _round(sum(em) / len(em)), "f1": _round(sum(f1) / len(f1))}


def chrf_block(records: list[ScoredRecord]) -> dict[str, Any] | None:
    """Secondary chrF++: corpus score, mean sentence score and sacrebleu signature.

    The corpus score comes from the chrf scorer's own :func:`corpus_chrf` over the same
    references it scores sentences against; a failed request contributes an empty hypothesis.
    """
    chrf = [r for r in records if r.scorer == "chrf"]
    if not chrf:
        return None
    from stages.scoring.chrf import corpus_chrf, references

    corpus, signature = corpus_chrf([(r.extracted or "", references(r.gold)) for r in chrf])
    sentences = [float(r.score or 0.0) for r in chrf]
    return {
        "label": "secondary: chrF++ is a diagnostic, not part of accuracy",
        "n": len(chrf),
        "chrf_corpus": _round(corpus),
        "chrf_sentence_mean": _round(sum(sentences) / len(sentences)),
        "signature": signature,
    }


def share(count: int, n: int) -> dict[str, Any]:
    """``{n, count, share}`` (share None when n is 0)."""
    return {"n": n, "count": count, "share": _round(count / n) if n else None}


def integrity_block(records: list[ScoredRecord]) -> dict[str, Any] | None:
    """Long generations: the spec's intact share and the intact-and-complete share.

    ``intact`` counts records judged clean (the splice verdict, = accuracy); ``intact_complete``
    those that are also complete (finish reason ``stop`` and the requested size reached; the
    rule is the splice scorer's). A failed request is neither.
    """
    splice = [r for r in records if r.scorer == "splice"]
    if not splice:
        return None
    intact = [r for r in splice if r.correct is True]
    whole = [r for r in intact if r.extras.get("complete") is True]
    return {
        "intact": share(len(intact), len(splice)),
        "intact_complete": share(len(whole), len(splice)),
        "rule": "complete = finish_reason stop and at least the lower bound of meta.line_range "
        "lines",
    }


def accuracy_interval_block(
    records: list[ScoredRecord], clusters: dict[str, str] | None = None
) -> dict[str, float]:
    """``wilson_95``: Wilson's interval on the effective sample size over the binary records,
    clustered by ``clusters`` (row id -> cluster; the repeats of a row always share one), the
    plain Wilson interval for independent records (:mod:`stages.scoring.interval`)."""
    from stages.scoring.interval import share_estimate

    binary = [r for r in records if r.binary]
    keys = [(clusters or {}).get(r.id, r.id) for r in binary]
    estimate = share_estimate([1.0 if r.correct is True else 0.0 for r in binary], keys)
    return {"low": _round(estimate.low), "high": _round(estimate.high)}


def pass_k_block(records: list[ScoredRecord], clusters: dict[str, str] | None = None) -> Any:
    """pass@k and pass^k over rows sampled more than once (:mod:`stages.scoring.passk`)."""
    from stages.scoring.passk import passk_block

    binary = [r for r in records if r.binary]
    return passk_block((r.id, (clusters or {}).get(r.id, r.id), r.correct is True) for r in binary)


def eval_metrics(
    records: list[ScoredRecord], clusters: dict[str, str] | None = None
) -> dict[str, Any]:
    """Metrics of a scored (eval or haystack) workload, without its signature; ``clusters``
    (row id -> cluster key) makes the interval cluster-aware."""
    overall = accuracy_cell(records)
    out: dict[str, Any] = {
        "n": overall["n"],
        "correct": overall["correct"],
        "correct_flexible": overall["correct_flexible"],
        "failed": sum(r.failed is not None for r in records),
        "failures": failures(records),
        "breakdowns": breakdowns(records),
    }
    if overall["n"]:
        out["accuracy"] = overall["accuracy"]
        out["accuracy_flexible"] = overall["accuracy_flexible"]
        out["wilson_95"] = accuracy_interval_block(records, clusters)
        sampled = pass_k_block(records, clusters)
        if sampled is not None:
            out["pass_k"] = sampled
    grid = haystack_grid(records)
    if grid:
        out["haystack_grid"] = grid
    drop = drop_block(records)
    if drop is not None:
        out["drop"] = drop
    secondary = chrf_block(records)
    if secondary is not None:
        out["secondary"] = secondary
    integrity = integrity_block(records)
    if integrity is not None:
        out["integrity"] = integrity
    return out


def prompts_metrics(records: list[ScoredRecord]) -> dict[str, Any]:
    """Metrics of a serving (prompts) workload: counts and failures, no accuracy."""
    return {
        "n": len(records),
        "failed": sum(r.failed is not None for r in records),
        "failures": failures(records),
        "breakdowns": count_breakdowns(records),
    }
