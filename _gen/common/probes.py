"""The ``probes`` of an eval row (issue 19): answers the generator knows beside the gold.

The check proves each row's own scorer with them (``stages/datasets/rows.py``, ``Probes``):

* ``near_misses``: wrong replies of the gold's form, which strict and flexible must reject. For an
  mc row, every other letter and every other option's text; for an open row, what the family's
  own slips give (an off-by-one count, the broadcast address for the network address, another
  runner, a route one road longer, ...), handed in by the family;
* ``alternatives``: other correct replies, which strict must accept: the gold option's text and
  its letter in brackets for mc, the other accepted spellings of an open row;
* ``option_ok``: for mc rows, the family's own proof applied to each option as if it were the
  gold (``verdicts``), so the proof, not the gold letter, says which options are right.

Replies are written as a model answers (``Answer: <text>``); a bare reply is the text alone.
``echo_safe`` is the generator-side half of the echo baseline: a numeric row whose prompt ends
on its own gold number would be scored right when the prompt is sent back, so such a row is
drawn again (the check replays the echo with the real scorers); ``states_gold`` is the stricter
guard of a generator that draws a numeric item again when its prompt states the gold anywhere
(the filled-template echo). A numeric near miss must lie outside the row's tolerance
(``meta.tolerance``, else the scorer's default), and no reply may be both wrong and right.
Standard library only (``stages`` is not importable from ``_gen``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from types import ModuleType
from typing import Any

from common import suite

LETTERS = "ABCDEFGHIJ"
Row = dict[str, Any]
#: The exceptions a family proof raises when a hypothetical gold does not fit (an assertion, or a
#: lookup of the option in the family's own tables that fails).
_MISFIT = (AssertionError, ValueError, KeyError, IndexError)
#: A number as a prompt states it: not glued to a letter, digit or dot before it; sign, digits
#: with comma groups, decimals, or a fraction.
_NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:/\d+)?")


def reply(text: object) -> str:
    """A model's reply whose answer line holds ``text``."""
    return f"Answer: {text}"


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def accepted(row: Row) -> list[str]:
    """The row's accepted answers as strings (one for numeric rows)."""
    answer = row["answer"]
    return [str(a) for a in answer] if isinstance(answer, list) else [str(answer)]


def verdicts(row: Row, prove: Callable[[Row], None]) -> list[bool]:
    """``prove`` applied to every option of an mc row as if it were the gold."""
    out = []
    for i in range(len(row["choices"])):
        try:
            prove({**row, "answer": LETTERS[i]})
        except _MISFIT:
            out.append(False)
        else:
            out.append(True)
    return out


def _unique(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(texts))


def mc(row: Row, prove: Callable[[Row], None]) -> dict[str, Any]:
    """Probes of an mc row: the other letters and texts wrong, the gold's text right; ``prove``
    must accept exactly one option, the gold."""
    gold = LETTERS.index(row["answer"])
    choices = row["choices"]
    others = [i for i in range(len(choices)) if i != gold]
    option_ok = verdicts(row, prove)
    right = [LETTERS[i] for i, ok in enumerate(option_ok) if ok]
    assert right == [row["answer"]], f"{row['id']}: the rule accepts {right}, gold {row['answer']}"
    return {
        "near_misses": [reply(LETTERS[i]) for i in others] + [reply(choices[i]) for i in others],
        "alternatives": [reply(f"({row['answer']})"), reply(choices[gold]), row["answer"]],
        "option_ok": option_ok,
    }


def _value(text: str) -> Fraction | None:
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        return None


def _tolerance(row: Row, gold: Fraction) -> Fraction:
    tolerance = row["meta"].get("tolerance")
    if tolerance is None:  # the numeric scorer's default: 1e-6 relative, absolute near zero
        return max(Fraction(1), abs(gold)) / 1_000_000
    return Fraction(str(tolerance))


def _numeric_misses(row: Row, gold: Fraction, wrong: Iterable[Any]) -> list[str]:
    """The ``wrong`` values outside the row's tolerance, written as a reply writes them (a
    string as given, a number by ``number_text``)."""
    tolerance, misses = _tolerance(row, gold), []
    for w in wrong:
        value = _value(str(w))
        if value is not None and abs(value - gold) > tolerance:
            misses.append(w if isinstance(w, str) else number_text(w))
    return misses


def open_row(row: Row, wrong: Iterable[Any], spellings: Iterable[str] = ()) -> dict[str, Any]:
    """Probes of an exact or numeric row: ``wrong`` answers (those the row accepts are dropped: a
    slip that happens to give the right answer, or a value inside the tolerance, is not a near
    miss); as alternatives the gold alone as the whole reply, the accepted spellings beyond the
    first, and ``spellings``."""
    golds = accepted(row)
    if row["scorer"] == "numeric":
        gold = _value(golds[0])
        assert gold is not None, f"{row['id']}: numeric answer {golds[0]!r}"
        misses = _numeric_misses(row, gold, wrong)
        alternatives = [golds[0]]  # the bare number
    else:
        taken = {_norm(g) for g in golds}
        misses = [str(w) for w in wrong if str(w).strip() and _norm(str(w)) not in taken]
        alternatives = [golds[0], *(reply(g) for g in golds[1:])]  # the bare answer, the others
    alternatives += [reply(s) for s in spellings]
    return {
        "near_misses": [reply(m) for m in _unique(misses)],
        "alternatives": _unique(alternatives),
    }


def off_by_one(value: int | str, low: int | None = 0) -> list[int]:
    """The counts next to ``value`` (never below ``low``; ``None``: any integer)."""
    n = int(value)
    return [v for v in (n - 1, n + 1) if low is None or v >= low]


def stated_numbers(text: str) -> list[Fraction]:
    """Every number ``text`` states, as exact values, in order."""
    values = []
    for match in _NUMBER.findall(text):
        num, _, den = match.replace(",", "").partition("/")
        if den != "0":
            values.append(Fraction(num) / Fraction(den or 1))
    return values


def echo_safe(row: Row) -> bool:
    """False for a numeric row whose prompt's last number is its gold (an echo would score)."""
    if row["scorer"] != "numeric":
        return True
    numbers = stated_numbers(row["prompt"])
    return not numbers or numbers[-1] != _value(str(row["answer"]))


def states_gold(text: str, answer: Any, meta: dict[str, Any]) -> bool:
    """Whether ``text`` (a numeric item's prompt) states any number the row would accept: then the
    prompt sent back with its answer line filled by that number would score (the echo audit)."""
    gold = Fraction(str(answer))
    tolerance = _tolerance({"meta": meta}, gold)
    return any(abs(value - gold) <= tolerance for value in stated_numbers(text))


def exact_integer(item: dict[str, Any]) -> dict[str, Any]:
    """A numeric item whose answer is an integer, scored exactly (``meta.tolerance`` 0) unless it
    states a tolerance: the scorer's default of 1e-6 relative accepts 1296401 for 1296400."""
    integer = str(item.get("answer", "")).lstrip("-").isdigit()
    if item["scorer"] == "numeric" and "tolerance" not in item["meta"] and integer:
        item["meta"] = {**item["meta"], "tolerance": 0}
    return item


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


def attach(row: Row, probes: dict[str, Any]) -> Row:
    """``row`` with its probes (empty lists dropped, as the schema's defaults read); a row needs
    a near miss, and no reply may be both wrong and right."""
    kept = {k: v for k, v in probes.items() if v not in ([], None)}
    assert kept.get("near_misses"), f"{row['id']}: a row needs at least one near miss"
    clash = set(kept["near_misses"]) & set(kept.get("alternatives", []))
    assert not clash, f"{row['id']}: replies both wrong and right: {sorted(clash)}"
    return {**row, "probes": kept}


Slips = Callable[[Row], tuple[list[Any], list[str]]]


def with_probes(row: Row, prove: Callable[[Row], None], slips: Slips) -> Row:
    """``row`` with its probes: ``mc`` from its options and ``prove``, else ``open_row`` from
    ``slips(row)``: the family's wrong answers and extra accepted spellings (mc rows need none:
    their options are the slips)."""
    if row["scorer"] == "mc":
        return attach(row, mc(row, prove))
    wrong, spellings = slips(row)
    return attach(row, open_row(row, wrong, spellings))


def suite_row(
    rng: Any,
    row_id: str,
    families: tuple[ModuleType, ...],
    idx: int,
    letters: dict[int, str],
    slips: dict[str, Slips],
) -> Row:
    """Row ``idx`` of a -v3-style suite (``common.suite``), drawn again from the same ``rng``
    until it is echo-safe, with its probes (``slips`` by category)."""
    family = suite.cell(idx, families)[0]
    row = suite.build_row(rng, row_id, families, idx, letters)
    while not echo_safe(row):
        row = suite.build_row(rng, row_id, families, idx, letters)
    return with_probes(row, family.prove, slips[family.CATEGORY])
