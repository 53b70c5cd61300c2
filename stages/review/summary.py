"""``metrics/review.<study>.json``: per-track (or per-stratum) results and reviewer agreement.

Dicts only (DVC drops lists from metrics). A statistic that is undefined is written as
``{"value": null, "reason": ...}``, so ``dvc metrics diff`` shows it as missing, not as zero.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from stages.review.agreement import Rating, compute
from stages.review.audit import rate_of, reweight, threshold_table
from stages.review.items import load_corpus
from stages.review.resolved import StudyOutcome
from stages.review.rubrics import Rubric


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def agreement_block(ratings: list[Rating], labels: list[str], ordinal: bool) -> dict[str, Any]:
    """Every statistic that fits the field: Cohen for two raters, Fleiss and Krippendorff always,
    the distance-aware ones for ordinal fields (over the full label set)."""
    methods: list[str] = []
    if len({r.rater for r in ratings}) == 2:
        methods += ["cohen"] + (["cohen-quadratic"] if ordinal else [])
    methods += ["fleiss", "krippendorff-nominal"] + (["krippendorff-ordinal"] if ordinal else [])
    block = {}
    for method in methods:
        a = compute(method, ratings, labels)
        block[method.replace("-", "_")] = {
            "value": _r(a.value),
            "reason": a.reason,
            "items": a.items,
            "observed": _r(a.observed),
        }
    return block


def field_stats(
    out: StudyOutcome, blinds: list[str], pass_no: int, rubric: Rubric
) -> dict[str, Any]:
    """Per rubric field: final-label counts and shares, the mean of an ordinal score, agreement."""
    resolved = out.passes[pass_no]
    stats: dict[str, Any] = {"items": len(blinds)}
    wanted = set(blinds)
    for name, spec in rubric.fields.items():
        outcomes = [resolved[b][name] for b in blinds if name in resolved.get(b, {})]
        if not outcomes:
            continue
        finals = [o.final for o in outcomes if o.final is not None]
        counts = Counter(finals)
        block: dict[str, Any] = {
            "items": len(outcomes),
            "unresolved": len(outcomes) - len(finals),
            "resolved_by": dict(sorted(Counter(o.how for o in outcomes).items())),
            "labels": {label: counts[label] for label in spec.labels},
            "shares": {
                label: _r(counts[label] / len(finals)) if finals else None for label in spec.labels
            },
        }
        if spec.ordinal:
            block["mean"] = _r(sum(float(x) for x in finals) / len(finals)) if finals else None
            block["scale_max"] = max(float(x) for x in spec.labels)
        column = out.field_name(blinds[0], pass_no, name)
        ratings = [r for r in out.ratings[pass_no] if r.field == column and r.item in wanted]
        block["agreement"] = agreement_block(ratings, list(spec.labels), spec.ordinal)
        stats[name] = block
    return stats


def _responses(out: StudyOutcome) -> dict[str, Any]:
    tracks: dict[str, Any] = {}
    for name, track in out.study.tracks.items():
        blinds = sorted(b for b, i in out.key.items.items() if i.track == name)
        if not blinds:
            continue
        rubric = out.study.rubric(track.rubric)
        stats = field_stats(out, blinds, 1, rubric)
        groups = sorted({g for b in blinds if (g := out.key.items[b].group) is not None})
        if groups:
            stats["groups"] = {
                g: field_stats(out, [b for b in blinds if out.key.items[b].group == g], 1, rubric)
                for g in groups
            }
        tracks[name] = stats
    return {"tracks": tracks}


def _audit(out: StudyOutcome) -> dict[str, Any]:
    audit = out.study.audit
    assert audit is not None
    result: dict[str, Any] = {"passes": {}}
    for pass_no in out.passes:
        blinds = sorted(b for b, i in out.key.items.items() if pass_no in i.passes)
        rubric = out.study.rubric_for("audit", pass_no)
        result["passes"][str(pass_no)] = field_stats(out, blinds, pass_no, rubric)
    event_pass = next(
        (p for p in out.passes if audit.outcome.field in out.study.rubric_for("audit", p).fields),
        None,
    )
    if event_pass is None:
        result["outcome"] = {"reason": f"field {audit.outcome.field!r} has no verdicts yet"}
        return result
    population = audit.population or dict(
        Counter(
            row[audit.stratum_field]
            for row in load_corpus(Path(audit.corpus), audit.stratum_field).values()
        )
    )
    finals: dict[str, list[str | None]] = {s: [] for s in audit.take}
    scored: list[tuple[float, str | None]] = []
    for blind, fields in out.passes[event_pass].items():
        item = out.key.items[blind]
        final = fields[audit.outcome.field].final if audit.outcome.field in fields else None
        finals[str(item.stratum)].append(final)
        if item.score is not None:
            scored.append((item.score, final))
    rates = {s: rate_of(f, audit.outcome.label) for s, f in finals.items()}
    per_stratum = {
        s: {**r.as_dict(), "population": population.get(s, 0), "drawn": audit.take[s]}
        for s, r in rates.items()
    }
    raw = rate_of([x for f in finals.values() for x in f], audit.outcome.label)
    result["outcome"] = {
        "field": audit.outcome.field,
        "label": audit.outcome.label,
        "per_stratum": per_stratum,
        "reweighted": reweight(rates, population).as_dict(),
        "sample_rate_not_corpus_rate": raw.as_dict(),
    }
    if audit.band is not None:
        result["threshold"] = threshold_table(scored, audit.band, audit.outcome.label)
    return result


def summarise(out: StudyOutcome) -> dict[str, Any]:
    """The study's metrics document."""
    head = {
        "study": out.key.study,
        "demo": out.key.demo or out.demo_verdicts,
        "reviewers": len(out.study.reviewers),
        "items": len(out.key.items),
        "unresolved": out.unresolved(),
    }
    body = _audit(out) if out.study.audit else _responses(out)
    return {**head, **body}
