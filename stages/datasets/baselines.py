"""Answer-free baselines of the shortcut audit: each scores one row without reading its answer.

Rows the audit covers ("audited rows") are those with an ``mc``, ``exact``, ``numeric`` or
``contains`` scorer; other scorers (code, tools, instructions, DROP, chrF, splice, review) have no
finite or guessable answer space and get no baseline.

Scoring rules, the same for every baseline:

* A baseline returns the *expected* correctness of a row, in [0, 1]. When it is torn between
  k candidates (a tie), it picks one uniformly at random, so a tie that holds the gold scores 1/k.
* Chance of a row: 1/len(choices) for mc; 0 for exact, numeric and contains rows (their answer
  space is open). A dataset's chance is the mean over its audited rows, so a mixed dataset's chance
  is the mc share weighted by each mc row's own 1/k.
* Option baselines (constant letter, longest, shortest, overlap with the other options, overlap
  with the prompt) read only options; on an open row they score that row's chance (0), so their
  excess over chance comes from the mc rows alone. A constant letter a row lacks (D on a 3-option
  row) is wrong there.
* ``most_frequent_gold`` is leave-one-out within the row's category, so a row never sees its own
  answer: on an open row it answers the most frequent normalised gold of the *other* open rows of
  the same category and scorer (numbers compared with the row's tolerance); on an mc row it picks
  the option whose text is the most frequent gold text of the other mc rows of the category, or
  guesses uniformly when no option has that text. A category of one row scores 0 (open) or chance.
* ``verbatim`` copies what the prompt gives away. mc: the options that a sentence of the stem
  states as the answer (``audit_text.states``: it names the option, holds every content word of
  the question and at most two other words); failing that, the options the stem (prompt without
  the option list) names at all; failing that, all options. Open rows: correct when a sentence
  other than the question states an accepted answer (an upper bound: the copier must still find
  that sentence, but the audit counts it as found).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from stages.datasets.audit_text import has_phrase, labels, normalise, stated, stem, words

OPEN_SCORERS = ("exact", "numeric", "contains")
AUDITED_SCORERS = ("mc", *OPEN_SCORERS)
Baseline = Callable[[dict[str, Any]], float]


def chance(row: dict[str, Any]) -> float:
    """Expected accuracy of a uniform guess: 1/k for mc, 0 for an open answer."""
    return 1 / len(row["choices"]) if row["scorer"] == "mc" else 0.0


def pick(row: dict[str, Any], candidates: Sequence[int]) -> float:
    """Expected correctness of a uniform pick among option indices ``candidates``."""
    if not candidates:
        return chance(row)
    gold = labels(row).index(row["answer"])
    return sum(1 for i in candidates if i == gold) / len(candidates)


def argmax(scores: Sequence[float]) -> list[int]:
    """Every index holding the maximum score (ties kept)."""
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]


def option_baseline(score: Callable[[dict[str, Any], int], float]) -> Baseline:
    """A baseline that picks the highest-scoring option on mc rows and scores chance elsewhere."""

    def run(row: dict[str, Any]) -> float:
        if row["scorer"] != "mc":
            return chance(row)
        return pick(row, argmax([score(row, i) for i in range(len(row["choices"]))]))

    return run


def constant_letter(letter: str) -> Baseline:
    """Always answer ``letter`` on mc rows."""

    def run(row: dict[str, Any]) -> float:
        if row["scorer"] != "mc":
            return chance(row)
        return 1.0 if row["answer"] == letter else 0.0

    return run


def _overlap_others(row: dict[str, Any], i: int) -> float:
    mine = words(row["choices"][i])
    return sum(len(mine & words(c)) for j, c in enumerate(row["choices"]) if j != i)


def _overlap_prompt(row: dict[str, Any], i: int) -> float:
    return len(words(row["choices"][i]) & words(stem(row)))


def verbatim(row: dict[str, Any]) -> float:
    """Copy what the prompt gives away (rules in the module docstring)."""
    if row["scorer"] == "mc":
        return pick(row, named_options(row))
    return 1.0 if gold_stated(row) else 0.0


def named_options(row: dict[str, Any]) -> list[int]:
    """Options a sentence of the stem states, else the options the stem names at all."""
    text = stem(row)
    choices = row["choices"]
    flags = stated(text, choices)
    return [i for i, f in enumerate(flags) if f] or [
        i for i, c in enumerate(choices) if has_phrase(text, c)
    ]


def gold_stated(row: dict[str, Any]) -> bool:
    """Open row: does a sentence other than the question state an accepted answer?"""
    return any(stated(stem(row), gold_strings(row)))


def gold_strings(row: dict[str, Any]) -> list[str]:
    """Accepted answers of an open row as strings (a number also in its integer spelling)."""
    answer = row["answer"]
    values = answer if isinstance(answer, list) else [answer]
    out: list[str] = []
    for value in values:
        out.append(str(value))
        if isinstance(value, float) and value.is_integer():
            out.append(str(int(value)))
    return out


def canonical_gold(row: dict[str, Any]) -> str:
    """The value ``most_frequent_gold`` counts: the first accepted answer, normalised."""
    if row["scorer"] == "mc":
        return normalise(row["choices"][labels(row).index(row["answer"])])
    return normalise(gold_strings(row)[0])


def accepts(row: dict[str, Any], value: str) -> bool:
    """Would this open row accept ``value`` (another row's canonical gold) as its answer?"""
    if row["scorer"] == "numeric":
        try:
            got, want = float(value), float(row["answer"])
        except (TypeError, ValueError):
            return False
        tolerance = row.get("meta", {}).get("tolerance")
        limit = float(tolerance) if tolerance is not None else 1e-6 * abs(want)
        return math.isfinite(got) and abs(got - want) <= limit
    return value in {normalise(g) for g in gold_strings(row)}


def most_frequent_gold(rows: Sequence[dict[str, Any]]) -> list[float]:
    """Leave-one-out most frequent gold per category (rules in the module docstring)."""
    groups: dict[tuple[str, str], Counter[str]] = {}
    for row in rows:
        kind = "mc" if row["scorer"] == "mc" else row["scorer"]
        groups.setdefault((row["category"], kind), Counter())[canonical_gold(row)] += 1
    out: list[float] = []
    for row in rows:
        kind = "mc" if row["scorer"] == "mc" else row["scorer"]
        counts = groups[(row["category"], kind)].copy()
        counts[canonical_gold(row)] -= 1
        top = max(counts.values(), default=0)
        modes = [value for value, n in counts.items() if n == top and n > 0]
        if row["scorer"] == "mc":
            texts = [normalise(c) for c in row["choices"]]
            out.append(pick(row, [i for i, t in enumerate(texts) if t in modes]))
        else:
            out.append(sum(accepts(row, v) for v in modes) / len(modes) if modes else 0.0)
    return out


def panel(rows: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Every baseline's expected correctness on each audited row, keyed by baseline name."""
    letters = sorted({label for row in rows if row["scorer"] == "mc" for label in labels(row)})
    per_row: dict[str, Baseline] = {f"letter_{x}": constant_letter(x) for x in letters}
    per_row["longest"] = option_baseline(lambda r, i: len(normalise(r["choices"][i])))
    per_row["shortest"] = option_baseline(lambda r, i: -len(normalise(r["choices"][i])))
    per_row["overlap_options"] = option_baseline(_overlap_others)
    per_row["overlap_prompt"] = option_baseline(_overlap_prompt)
    per_row["verbatim"] = verbatim
    scores = {name: [fn(row) for row in rows] for name, fn in per_row.items()}
    scores["most_frequent_gold"] = most_frequent_gold(rows)
    return scores
