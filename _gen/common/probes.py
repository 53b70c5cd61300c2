"""Probes a generator writes beside a row's gold (issue 19; the schema is ``Probes`` in
``stages/datasets/rows.py``), so the check can prove per row that the row's own scorer rejects
plausible wrong replies and accepts the other correct spellings.

Every probe is a whole reply as a model would send it, ending in the answer line the prompt
asks for (``Answer: 31``), or a bare letter for an mc row:

* ``near_misses``: wrong replies of the gold's form. mc rows: every other letter and every other
  option's text; open rows: what the generator knows a careless solver writes (off-by-one
  values, other numbers of the family and their spellings, a trap value), given by the family.
* ``alternatives``: other correct replies: the other accepted spellings of an exact or contains
  answer, the label forms of an mc letter, a numeric answer rounded as the prompt asks.
* ``option_ok``: for mc rows, the generator's own rule applied to each option. The rule is the
  row's proof: option i is right when the proof passes with i put in as the gold letter, so
  the verdicts never read the gold, and exactly one must pass (the schema checks it is the gold).

Near misses are checked here against the row's tolerance (a numeric near miss must lie outside
it) and against the alternatives (a reply cannot be both); the scorer itself is the check's job
(``stages`` is not importable from ``_gen``). Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

LETTERS = "ABCDEFGHIJ"
Row = dict[str, Any]
#: a number as a prompt states it: sign, digits with comma groups, decimals, or a fraction
_STATED = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:/\d+)?")


def reply(text: object) -> str:
    """A reply that ends in the answer line every eval prompt asks for."""
    return f"Answer: {text}"


def attach(
    row: Row,
    near_misses: Iterable[str],
    alternatives: Iterable[str] = (),
    option_ok: list[bool] | None = None,
) -> Row:
    """``row`` with its ``probes`` (replies de-duplicated, first spelling first)."""
    near = list(dict.fromkeys(near_misses))
    alt = list(dict.fromkeys(alternatives))
    assert near, f"{row['id']}: a row needs at least one near miss"
    clash = set(near) & set(alt)
    assert not clash, f"{row['id']}: replies both wrong and right: {sorted(clash)}"
    probes: dict[str, Any] = {"near_misses": near}
    if alt:
        probes["alternatives"] = alt
    if option_ok is not None:
        probes["option_ok"] = option_ok
    return {**row, "probes": probes}


def judged(row: Row, prove: Callable[[Row], None]) -> list[bool]:
    """The proof's verdict on each option, run with that option's letter as the gold (the
    row's own ``answer``, if it has one, is never read)."""
    verdicts = []
    for i in range(len(row["choices"])):
        try:
            prove({**row, "answer": LETTERS[i]})
        except AssertionError:
            verdicts.append(False)
        else:
            verdicts.append(True)
    return verdicts


def option_verdicts(row: Row, prove: Callable[[Row], None]) -> list[bool]:
    """``judged``, asserted to mark exactly one option right: the gold."""
    verdicts = judged(row, prove)
    right = [LETTERS[i] for i, ok in enumerate(verdicts) if ok]
    assert right == [row["answer"]], f"{row['id']}: the rule accepts {right}, gold {row['answer']}"
    return verdicts


def mc(row: Row, prove: Callable[[Row], None]) -> Row:
    """An mc row with its probes: the other letters and option texts are near misses; the gold
    letter in brackets, bare, or followed by its text, and the gold text alone, alternatives."""
    choices, gold = row["choices"], row["answer"]
    k = LETTERS.index(gold)
    others = [i for i in range(len(choices)) if i != k]
    near = [reply(LETTERS[i]) for i in others] + [reply(choices[i]) for i in others]
    alternatives = [gold, reply(f"({gold})"), reply(f"{gold}. {choices[k]}"), reply(choices[k])]
    return attach(row, near, alternatives, option_verdicts(row, prove))


def _tolerance(row: Row, gold: Fraction) -> Fraction:
    tolerance = row["meta"].get("tolerance")
    if tolerance is None:  # the numeric scorer's default: 1e-6 relative, absolute near zero
        return max(Fraction(1), abs(gold)) / 1_000_000
    return Fraction(str(tolerance))


def numeric(
    row: Row, wrong: Iterable[Fraction | int | str], alternatives: Iterable[str] = ()
) -> Row:
    """A numeric row with its probes: ``wrong`` values (each outside the row's tolerance) as
    replies; the gold as the answer line and alone, plus the family's ``alternatives``."""
    gold = Fraction(str(row["answer"]))
    tolerance = _tolerance(row, gold)
    near = []
    for value in wrong:
        value = Fraction(str(value)) if isinstance(value, str) else Fraction(value)
        if abs(value - gold) > tolerance:
            near.append(reply(number_text(value)))
    right = [reply(row["answer"]), str(row["answer"]), *alternatives]
    return attach(row, near, right)


def exact_integer(item: dict[str, Any]) -> dict[str, Any]:
    """A numeric item whose answer is an integer, scored exactly (``meta.tolerance`` 0) unless it
    states a tolerance: the scorer's default of 1e-6 relative accepts 1296401 for 1296400."""
    integer = str(item.get("answer", "")).lstrip("-").isdigit()
    if item["scorer"] == "numeric" and "tolerance" not in item["meta"] and integer:
        item["meta"] = {**item["meta"], "tolerance": 0}
    return item


def stated_numbers(text: str) -> list[Fraction]:
    """Every number ``text`` states, as exact values."""
    values = []
    for match in _STATED.findall(text):
        num, _, den = match.replace(",", "").partition("/")
        if den != "0":
            values.append(Fraction(num) / Fraction(den or 1))
    return values


def states_gold(text: str, answer: Any, meta: dict[str, Any]) -> bool:
    """Whether ``text`` (a numeric item's prompt) states a number the row would accept: then the
    prompt sent back with its answer line filled by that number would score (the echo audit)."""
    gold = Fraction(str(answer))
    tolerance = _tolerance({"meta": meta}, gold)
    return any(abs(value - gold) <= tolerance for value in stated_numbers(text))


def number_text(value: Fraction | int) -> str:
    """An exact value as a reply writes it: an integer, a short decimal, or ``p/q``."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    scaled = value * 10**6
    if scaled.denominator == 1:  # a terminating decimal of at most six places
        sign, digits = ("-" if value < 0 else ""), str(abs(scaled.numerator)).rjust(7, "0")
        return f"{sign}{digits[:-6]}.{digits[-6:]}".rstrip("0").rstrip(".")
    return f"{value.numerator}/{value.denominator}"


def off_by_one(value: int) -> list[int]:
    """The two integers a counting slip gives."""
    return [value - 1, value + 1]


def accepted(row: Row) -> list[str]:
    """The accepted answers of an exact or contains row, as strings."""
    answer = row["answer"]
    return [str(a) for a in answer] if isinstance(answer, list) else [str(answer)]


def open_answer(row: Row, wrong: Iterable[str]) -> Row:
    """An exact or contains row with its probes: ``wrong`` answers as replies (any that the row
    accepts dropped), every accepted spelling as an alternative."""
    golds = accepted(row)
    folded = {g.casefold() for g in golds}
    near = [reply(w) for w in wrong if w.casefold() not in folded]
    return attach(row, near, [reply(g) for g in golds])
