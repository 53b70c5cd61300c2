"""The ``corrected`` block of ``metrics/<w>.judge.json``: the judge's figure on the items no human
labelled, corrected for the error the calibration measured (:mod:`stages.judge.correction`),
beside the uncorrected figure on the same items.

It exists only when the gate passed; withheld, it carries the gate's reason (the uncorrected
figure is withheld for the same reason). A calibrated judge whose error cannot be inverted (a
human grade no calibration item has, grades that do not tell the labels apart) or that has no
judge-only item gets a reason instead of a figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

METHOD = (
    "misclassification correction (Rogan-Gladen for two grades, the inverted error matrix for "
    "more); 95 % delta-method interval over the judge-only and the calibration items"
)


def _r(value: float) -> float:
    return round(value, 4)


def corrected_block(
    calibration: dict[str, Any],
    labels: list[str],
    judge_only: Sequence[str | None],
    target_width: float,
) -> dict[str, Any]:
    """The block for one track. ``judge_only``: the jury's grade of each current item without a
    human label (None: unparsed); ``target_width``: wanted interval width as a share of the
    grade range."""
    # numpy only where a figure is corrected: the CLI and the report import the texts below.
    from stages.judge.correction import NotCorrectable, correct

    values = [float(label) for label in labels]
    span = values[-1] - values[0]
    head: dict[str, Any] = {
        "method": METHOD if len(labels) > 2 else METHOD.replace(" for more", ""),
        "target_width": target_width,
        "scale": {"low": values[0], "high": values[-1]},
        "items": len(judge_only),
        "unparsed": sum(g is None for g in judge_only),
    }
    if calibration.get("status") != "calibrated":
        return {**head, "status": "withheld", "reason": calibration.get("reason")}
    if not judge_only:
        reason = "every item has a human final label: the human score needs no judge"
        return {**head, "status": "not corrected", "reason": reason}
    confusion = calibration["confusion"]
    table = [[confusion[h][j] for j in labels] for h in labels]
    observed = [sum(g == label for g in judge_only) for label in labels]
    try:
        result = correct(table, observed, values, target_width * span)
    except NotCorrectable as exc:
        return {**head, "status": "not corrected", "reason": str(exc)}
    have = result.calibration_items
    need = result.labels_for_width
    return {
        **head,
        "status": "corrected",
        "reason": None,
        "estimate": _r(result.estimate),
        "ci95": {"low": _r(result.low), "high": _r(result.high)},
        "clipped": result.clipped,
        "uncorrected": {
            "mean": _r(result.raw),
            "ci95": {"low": _r(result.raw_low), "high": _r(result.raw_high)},
        },
        "se": {"items": _r(result.se_items), "calibration": _r(result.se_calibration)},
        "calibration_items": have,
        "labels_for_target": need,
        "labels_more": None if need is None else max(0, need - have),
    }


def _n(value: float) -> str:
    return f"{value:.2f}"


def labels_text(block: dict[str, Any]) -> str:
    """How many human labels the target width needs, in words."""
    width = block["target_width"] * (block["scale"]["high"] - block["scale"]["low"])
    need = block.get("labels_for_target")
    if need is None:
        return (f"no number of labels narrows it to {width:.2f}: the {block['items']} judge-only "
                "item(s) alone are wider")  # fmt: skip
    more = f" ({block['labels_more']} more)" if block["labels_more"] else " (reached)"
    return f"{need} human labels{more} for a 95 % interval {width:.2f} wide"


def corrected_text(block: dict[str, Any] | None) -> str:
    """One line on the corrected figure: beside the uncorrected one, or why there is none."""
    if block is None:
        return "corrected figure: not computed (judge metrics written before it existed)"
    if block["status"] == "withheld":
        return f"corrected and uncorrected figures withheld by the gate: {block['reason']}"
    if block["status"] != "corrected":
        return f"not corrected: {block['reason']}"
    ci, raw = block["ci95"], block["uncorrected"]
    clipped = "; clipped to the grade range" if block["clipped"] else ""
    return (
        f"corrected {_n(block['estimate'])} [{_n(ci['low'])}, {_n(ci['high'])}] beside "
        f"uncorrected {_n(raw['mean'])} [{_n(raw['ci95']['low'])}, {_n(raw['ci95']['high'])}] "
        f"on {block['items'] - block['unparsed']} judge-only item(s), judge error from "
        f"{block['calibration_items']} calibration item(s){clipped}; " + labels_text(block)
    )
