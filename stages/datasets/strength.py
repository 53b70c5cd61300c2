"""Scorer strength, proved per row (issue 19): the row's own scorer must reject every wrong reply
and accept every right one, a model repeating the prompt must not score, and the flexible
reading must be right wherever the strict one is.

Replies tried on each row (:mod:`stages.datasets.near_misses` derives the generic ones):

* ``near miss`` — the generator's ``probes.near_misses``: wrong under strict *and* flexible;
* ``alternative`` — ``probes.alternatives``: right under strict;
* ``derived near miss`` — the check's own near misses: wrong under strict and flexible;
* ``gold`` — ``Answer: <gold>`` in its plain forms (the letter and the option text for mc,
  each accepted string otherwise): each right under strict (an option or accepted answer that
  ends in a period is unreachable when the scorer compares it untidied: extraction strips the
  reply's);
* ``echo`` — the prompt sent back once, twice, and with its answer-line template filled: wrong
  under strict; the plain echoes also under flexible. A filled echo that the flexible reading
  takes (it reads the last number of prose, which is then the filled value) is counted in
  ``copies`` — the gold is a number the prompt states — and reported, not failed;
* and for every reply above that strict accepts, flexible must accept it too;
* ``adversarial`` — :mod:`stages.datasets.adversarial`'s near misses built from the row's gold,
  choices and language (``W and G``, ``G (or W)``, ``it is not G``, ``A.B.C.D``, every weekday
  name…): wrong under strict *and* flexible (issue 30);
* ``careful`` — its careful replies (emphasis, ``(B)``, ``B) text``, working after the value,
  Unicode minus, thousands separators…): right under flexible, and under strict where a careful
  reader's verdict does not depend on the flexible reading's extras.

Scorers: near misses and alternatives run on every row that has them; derived replies on
``mc``, ``numeric``, ``exact`` and ``contains`` rows; echoes on every binary scorer except
``splice`` (any intact file is "clean" by design) and ``tool_call`` rows that expect no call
(any text reply is right by spec 001). A ``code_exec`` echo runs in the sandbox only when the
code it yields compiles; code that does not compile is wrong without running. ``code_exec``
mutants are :mod:`stages.datasets.mutation`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.datasets import adversarial, near_misses
from stages.datasets.open_candidates import family_answers
from stages.scoring import code_exec
from stages.scoring.registry import score_row
from stages.scoring.sandbox import SandboxError
from stages.scoring.verdict import Verdict, clip

DERIVED = ("mc", "numeric", "exact", "contains")
NO_ECHO = ("splice", "chrf", "review")
#: Failures kept per check (the counts stay exact).
SHOWN = 20


@dataclass
class Tally:
    """Replies of one kind: how many were tried, how many behaved, and what did not."""

    tried: int = 0
    held: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, ok: bool, message: str) -> None:
        """Count one reply; keep the message of a failure (the first :data:`SHOWN`)."""
        self.tried += 1
        self.held += ok
        if not ok and len(self.failures) < SHOWN:
            self.failures.append(message)

    def metrics(self) -> dict[str, Any]:
        """``{"tried", "held", "failures"}``."""
        return {"tried": self.tried, "held": self.held, "failures": list(self.failures)}


@dataclass
class Strength:
    """What the replies proved over one dataset."""

    probed_rows: int = 0
    near_misses: Tally = field(default_factory=Tally)
    alternatives: Tally = field(default_factory=Tally)
    derived: Tally = field(default_factory=Tally)
    gold: Tally = field(default_factory=Tally)
    echoes: Tally = field(default_factory=Tally)
    flexible: Tally = field(default_factory=Tally)
    adversarial: Tally = field(default_factory=Tally)
    careful: Tally = field(default_factory=Tally)
    copies: list[str] = field(default_factory=list)

    def tallies(self) -> dict[str, Tally]:
        """Every check by name, in report order."""
        return {
            "near_misses": self.near_misses, "alternatives": self.alternatives,
            "derived": self.derived, "gold": self.gold, "echoes": self.echoes,
            "flexible": self.flexible, "adversarial": self.adversarial, "careful": self.careful,
        }  # fmt: skip

    def problems(self) -> list[str]:
        """Every failure, prefixed by its check."""
        return [f"{name}: {m}" for name, t in self.tallies().items() for m in t.failures]


def _flexible(verdict: Verdict) -> bool | None:
    return verdict.correct if verdict.flexible is None else verdict.flexible.correct


def _code_echo(row: dict[str, Any], reply: str, path: Path) -> Verdict | None:
    code = code_exec.extract_code(reply, str(row["answer"]))
    try:
        compile(code, "<echo>", "exec")
    except Exception:  # SyntaxError, ValueError (NUL bytes), RecursionError: it cannot run
        return None
    try:
        return score_row(row, {"output": reply, "error": None}, path)
    except SandboxError:
        return None  # no sandbox: mutation testing reports the rows unproved


def _try(result: Strength, row: dict[str, Any], path: Path, kind: str, reply: str) -> None:
    if row["scorer"] == "code_exec":
        verdict = _code_echo(row, reply, path)
        if verdict is None:
            result.echoes.add(True, "")
            return
    else:
        verdict = score_row(row, {"output": reply, "error": None}, path)
    strict, loose = verdict.correct, _flexible(verdict)
    shown = f"{row['id']}: {kind} {clip(reply, 60)}: strict {strict}, flexible {loose}"
    if kind in ("alternative", "gold"):
        (result.alternatives if kind == "alternative" else result.gold).add(bool(strict), shown)
    elif kind.startswith("echo"):
        filled = kind.startswith("echo filled")
        result.echoes.add(not strict and (filled or not loose), shown)
        if filled and loose and not strict:
            result.copies.append(f"{row['id']}: {kind}")
    else:
        tally = result.near_misses if kind == "near miss" else result.derived
        tally.add(not strict and not loose, shown)
    if strict:
        result.flexible.add(bool(loose), shown)


def _echoable(row: dict[str, Any]) -> bool:
    if row["scorer"] in NO_ECHO:
        return False
    return not (row["scorer"] == "tool_call" and (row["answer"] or {}).get("tool_call") is None)


def strength(rows: list[dict[str, Any]], path: Path) -> Strength:
    """Try every reply of the module rules on every row of one dataset (``path`` holds its
    files, e.g. an instruction dataset's ``rules.py``)."""
    result = Strength()
    family = family_answers(rows)
    for row, others in zip(rows, family, strict=True):
        probes = row.get("probes") or {}
        result.probed_rows += bool(probes.get("near_misses") or probes.get("alternatives"))
        replies = [("near miss", r) for r in probes.get("near_misses") or []]
        replies += [("alternative", r) for r in probes.get("alternatives") or []]
        if row["scorer"] in DERIVED:
            wrong, right = near_misses.derived(row, others)
            replies += [("derived near miss", r) for r in wrong] + [("gold", r) for r in right]
        if _echoable(row):
            replies += near_misses.echoes(row)
        for kind, reply in replies:
            if row["scorer"] == "code_exec" and not kind.startswith("echo"):
                continue  # a code row's replies are its mutants (stages.datasets.mutation)
            _try(result, row, path, kind, reply)
        for made in adversarial.replies(row, others):
            _adversarial(result, row, path, made)
    return result


def _adversarial(result: Strength, row: dict[str, Any], path: Path, made: Any) -> None:
    verdict = score_row(row, {"output": made.text, "error": None}, path)
    strict, loose = verdict.correct, _flexible(verdict)
    ok = loose == made.right and (made.strict is None or strict == made.strict)
    shown = f"{row['id']}: {made.family} {clip(made.text, 60)}: strict {strict}, flexible {loose}"
    (result.careful if made.right else result.adversarial).add(ok, shown)
