"""``atlas gate POLICY.yaml A B``: decide a CI job from a comparison (issue 18).

Every rule is checked on the rows of :func:`stages.compare.compare_records`. The statistical
decisions of all rules — one per rule and workload — form one family: their p-values are
Holm-adjusted together at the policy's alpha, so the chance that the gate fails a job on a
regression that is not there (or passes a non-inferiority that does not hold) is at most alpha,
however many rules and workloads there are. Per decision:

* ``no_worse``: FAIL when B is worse (adjusted p < alpha and the 95 % interval below zero);
  INCONCLUSIVE when no verdict is possible or, with ``max_mde``, when the row could not have
  seen a loss that large (its MDE, at alpha over the number of decisions, exceeds it); else PASS.
* ``non_inferior`` with margin M: the score test (binary rows; t on the row's cluster-robust
  standard error and degrees of freedom for graded ones) of
  "difference = -M", two-sided: rejected with the estimate above -M is PASS (B is within M),
  below is FAIL, not rejected is INCONCLUSIVE.
* ``no_new_failures``: FAIL when some item failed at B but not at A (a count, no statistics).

A rule fails when one of its decisions fails, else is inconclusive when one is, else passes.
Exit code: 1 if a rule fails, else 3 if one is inconclusive, else 0; bad input is 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stages.compare import paired
from stages.compare.display import interval_text, mde_text, p_text, scale
from stages.compare.exhausted import LOWER_IS_BETTER
from stages.compare.multiplicity import holm
from stages.compare.policy import Policy, Rule
from stages.compare.row import Row
from stages.compare.run import Comparison
from stages.errors import AtlasError

PASS, FAIL, INCONCLUSIVE = "PASS", "FAIL", "INCONCLUSIVE"
EXIT = {PASS: 0, FAIL: 1, INCONCLUSIVE: 3}
PASSED = {"no_worse": "none worse", "non_inferior": "all within the margin",
          "no_new_failures": "no new failures"}  # fmt: skip


@dataclass
class Decision:
    """One rule applied to one workload."""

    rule: int
    workload: str
    row: Row | None
    p: float | None = None
    p_adjusted: float | None = None
    status: str = INCONCLUSIVE
    text: str = ""


@dataclass(frozen=True)
class RuleResult:
    rule: Rule
    status: str
    text: str


@dataclass(frozen=True)
class GateResult:
    results: list[RuleResult]
    decisions: int
    """Statistical decisions in the Holm family."""

    @property
    def exit_code(self) -> int:
        statuses = {r.status for r in self.results}
        return 1 if FAIL in statuses else 3 if INCONCLUSIVE in statuses else 0


def _points(row: Row, value: float) -> str:
    return f"{scale(row) * value:+.1f}"


def _describe(row: Row) -> str:
    delta = "—" if row.delta is None else _points(row, row.delta)
    return f"Δ {delta} (95% CI {interval_text(row)})"


def _shifted_p(row: Row, delta: float) -> float | None:
    """Two-sided p of "difference = delta" for a row (None where the row has no test)."""
    if row.p is None or row.delta is None:
        return None
    if row.measure == "accuracy":
        b, c = len(row.right_to_wrong), len(row.wrong_to_right)
        variance = (b + c - (c - b) ** 2 / row.n) / max(row.n - 1, 1)
        above, below = paired.shifted_test(
            b, c, row.n, row.clusters, row.se or 0.0, variance, delta, row.df
        )
    else:
        from scipy import stats as sps

        if not row.se:
            return None
        t = (row.delta - delta) / row.se
        df = row.df if row.df is not None else row.clusters - 1
        above, below = float(sps.t.sf(t, df)), float(sps.t.cdf(t, df))
    return min(1.0, 2.0 * min(above, below))


def _row_of(rows: list[Row], workload: str, measure: str) -> Row | None:
    primary = (r for r in rows if r.workload == workload and r.category is None)
    return next((r for r in primary if r.level is None and r.measure == measure), None)


def _new_failures(result: Comparison, workload: str) -> list[str]:
    paired_items = result.paired.get(workload)
    if paired_items is None:
        return []
    return [a.key for a, b in paired_items.pairs if a.failed is None and b.failed is not None]


def _judge(decision: Decision, rule: Rule, alpha: float) -> None:
    row, name = decision.row, decision.workload
    if row is None:
        decision.text = f"{name}: no {rule.measure} row"
        return
    rejected = decision.p_adjusted is not None and decision.p_adjusted < alpha
    p = f"p adj {p_text(decision.p_adjusted)}"
    if rule.check == "no_worse":
        lower = row.measure in LOWER_IS_BETTER  # exhausted: running out more often is the loss
        loss = row.ci95 is not None and (row.ci95[0] > 0 if lower else row.ci95[1] < 0)
        worse = rejected and row.delta is not None and loss
        blind = rule.max_mde is not None and (
            row.mde is None or row.mde_capped or scale(row) * row.mde > rule.max_mde
        )
        if worse:
            decision.status, decision.text = FAIL, f"{name} B worse: {_describe(row)}, {p}"
        elif decision.p is None:
            decision.text = f"{name}: no verdict possible ({row.note or 'no test'})"
        elif blind:
            decision.text = (
                f"{name}: could not see a {rule.max_mde:g}-point loss (MDE {mde_text(row)})"
            )
        else:
            decision.status, decision.text = PASS, f"{name} not worse: {_describe(row)}"
        return
    margin = f"margin -{rule.margin:g}"
    if decision.p is None:
        decision.text = f"{name}: no test ({row.note or 'no variation'})"
    elif rejected and row.delta is not None and scale(row) * row.delta > -(rule.margin or 0.0):
        decision.status, decision.text = PASS, f"{name} within the {margin}: {_describe(row)}, {p}"
    elif rejected:
        decision.status, decision.text = FAIL, f"{name} below the {margin}: {_describe(row)}, {p}"
    else:
        decision.text = f"{name} not shown within the {margin}: {_describe(row)}, {p}"


def evaluate(policy: Policy, result: Comparison) -> GateResult:
    """Apply ``policy`` to the comparison ``result`` (see the module docstring)."""
    from stages.compare.api import compare_records

    compared = sorted(result.paired)
    covered: list[list[str]] = []
    for rule in policy.rules:
        names = compared if rule.workloads == "all" else list(rule.workloads)
        missing = [n for n in names if n not in result.paired]
        if missing:
            raise AtlasError(f"policy: workload {missing[0]!r} is not compared at both A and B")
        covered.append(names)
    statistical = [len(n) for r, n in zip(policy.rules, covered, strict=True)
                   if r.check != "no_new_failures"]  # fmt: skip
    count = sum(statistical)
    rows = compare_records(result.records_a, result.records_b, holm=False,
                           alpha=policy.alpha / max(count, 1))  # fmt: skip
    decisions: list[Decision] = []
    for index, (rule, names) in enumerate(zip(policy.rules, covered, strict=True)):
        for name in names:
            row = _row_of(rows, name, rule.measure)
            decision = Decision(index, name, row)
            if rule.check == "no_new_failures":
                new = _new_failures(result, name)
                decision.status = FAIL if new else PASS
                shown = ", ".join(new[:5]) + (f" and {len(new) - 5} more" if len(new) > 5 else "")
                decision.text = f"{name}: {len(new)} new failures" + (f" ({shown})" if new else "")
            elif row is not None and rule.check == "no_worse":
                decision.p = row.p if row.p_adjusted is not None else None
            elif row is not None:
                decision.p = _shifted_p(row, -(rule.margin or 0.0) / scale(row))
            decisions.append(decision)
    tested = [d for d in decisions if d.p is not None]
    for decision, adjusted in zip(tested, holm([float(d.p or 0.0) for d in tested]), strict=True):
        decision.p_adjusted = adjusted
    for decision in decisions:
        rule = policy.rules[decision.rule]
        if rule.check != "no_new_failures":
            _judge(decision, rule, policy.alpha)
    return GateResult(_aggregate(policy, decisions), count)


def _aggregate(policy: Policy, decisions: list[Decision]) -> list[RuleResult]:
    out = []
    for index, rule in enumerate(policy.rules):
        mine = [d for d in decisions if d.rule == index]
        if not mine:
            out.append(RuleResult(rule, INCONCLUSIVE, "no workload to check"))
            continue
        status = next(s for s in (FAIL, INCONCLUSIVE, PASS) if any(d.status == s for d in mine))
        chosen = [d for d in mine if d.status == status]
        if status == PASS and len(mine) > 1:
            out.append(RuleResult(rule, status, f"{len(mine)} workloads, {PASSED[rule.check]}"))
            continue
        text = "; ".join(d.text for d in chosen[:3])
        if len(chosen) > 3:
            text += f"; and {len(chosen) - 3} more"
        others = len(mine) - len(chosen)
        if others and status != PASS:
            text += f" ({others} other workload{'s' if others > 1 else ''} fine)"
        out.append(RuleResult(rule, status, text))
    return out


def lines(result: GateResult, policy: Policy) -> list[str]:
    """One line per rule, then the outcome."""
    out = [f"{r.status:<12}  {r.rule.title} — {r.text}" for r in result.results]
    outcome = {0: "pass", 1: "fail", 3: "inconclusive"}[result.exit_code]
    out.append(
        f"gate: {outcome} (exit {result.exit_code}); alpha {policy.alpha:g} over "
        f"{result.decisions} statistical decisions (Holm)"
    )
    return out


def as_dict(result: GateResult, policy: Policy) -> dict[str, Any]:
    return {
        "exit_code": result.exit_code,
        "alpha": policy.alpha,
        "decisions": result.decisions,
        "rules": [
            {"rule": r.rule.title, "check": r.rule.check, "status": r.status, "detail": r.text}
            for r in result.results
        ],  # fmt: skip
    }
