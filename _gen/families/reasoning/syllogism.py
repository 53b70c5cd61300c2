"""Syllogism family of eval-reasoning-v3: what follows from premises about made-up words.

Premises chain three or four made-up terms with the four classic forms (All / No / Some / Some
... not). A statement "must be true" when it holds in every Venn model of the premises (every
choice of which regions of the diagram are inhabited), and is a wrong option only when it fails
in some model where every term is inhabited, so statements that hinge on whether a term is empty
are never offered; wrong options take the right one's form (so its length says nothing). The
right statement never follows from a single premise (no restated premise or mere conversion:
issue 13's "a clue states the answer"), and "must be false" options are contradicted by the
premises together, not by one of them.

Forms: which must be true, which must be false (mc), and which statements of a list of six must
be true (exact: their numbers). The proof evaluates every statement again over every model, with
regions enumerated as tuples of memberships instead of bit masks.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

CATEGORY = "syllogism"
FORMS = ("mc", "exact", "mc", "exact", "mc", "exact", "mc", "exact")
WORDS = (
    "blickets",
    "daxes",
    "wugs",
    "feps",
    "zorbs",
    "glims",
    "toves",
    "snarks",
    "quoggles",
    "vorples",
    "tazzles",
    "krells",
    "plonks",
    "yerbs",
    "drabs",
    "mimbles",
)
TEXT = {
    "A": "All {x} are {y}.",
    "E": "No {x} are {y}.",
    "I": "Some {x} are {y}.",
    "O": "Some {x} are not {y}.",
}
Statement = tuple[str, int, int]
Item = dict[str, Any]


@functools.cache
def region_mask(k: int, inside: tuple[int, ...], outside: tuple[int, ...] = ()) -> int:
    """Bits of the regions (region r: bit t set = in term t) in ``inside`` and not ``outside``."""
    return sum(
        1 << (r - 1)
        for r in range(1, 1 << k)
        if all(r >> t & 1 for t in inside) and not any(r >> t & 1 for t in outside)
    )


def test_of(stmt: Statement, k: int) -> tuple[int, bool]:
    """``(mask, when_empty)``: the statement is true in a model exactly when the model's
    inhabited regions within ``mask`` are none (``when_empty``) or some (not ``when_empty``)."""
    form, x, y = stmt
    if form in "AO":
        return region_mask(k, (x,), (y,)), form == "A"
    return region_mask(k, (x, y)), form == "E"


def true_in(stmt: Statement, model: int, k: int) -> bool:
    mask, when_empty = test_of(stmt, k)
    return (model & mask == 0) == when_empty


def models_of(premises: list[Statement], k: int) -> list[int]:
    """Every Venn model (bit r - 1 set: region r inhabited) in which all ``premises`` hold."""
    tests = [test_of(p, k) for p in premises]
    return [
        m
        for m in range(1 << ((1 << k) - 1))
        if all((m & mask == 0) == empty for mask, empty in tests)
    ]


@functools.cache
def decided_by(premise: Statement, k: int) -> frozenset[Statement]:
    """Statements whose truth ``premise`` fixes on its own (true or false in all its models)."""
    models = models_of([premise], k)
    cands = [(f, x, y) for f in "AEIO" for x in range(k) for y in range(k) if x != y]
    return frozenset(c for c in cands if len(values_in(c, models, k)) == 1)


def values_in(stmt: Statement, models: list[int], k: int) -> set[bool]:
    mask, when_empty = test_of(stmt, k)
    return {(m & mask == 0) == when_empty for m in models}


def classify(stmt: Statement, models: list[int], full: list[int], k: int) -> str:
    """``entailed`` (true in every model), ``refuted`` (false in every model), ``open`` (false in
    some model with every term inhabited and true in another), else ``vague`` (it hinges on an
    empty term)."""
    values = values_in(stmt, models, k)
    if len(values) == 1:
        return "entailed" if values == {True} else "refuted"
    return "open" if values_in(stmt, full, k) == {True, False} else "vague"


def build(rng: random.Random, level: int, form: int) -> Item:
    k = 3 if level < 2 else 4
    cands = [(f, x, y) for f in "AEIO" for x in range(k) for y in range(k) if x != y]
    while True:
        terms = rng.sample(WORDS, k)
        chain = rng.sample(range(k), k)
        premises = [
            (rng.choice("AEIO"), *rng.sample([chain[i], chain[i + 1]], 2)) for i in range(k - 1)
        ]
        models = models_of(premises, k)
        full = [m for m in models if all(m & region_mask(k, (t,)) for t in range(k))]
        if not full:
            continue
        kind = {c: classify(c, models, full, k) for c in cands}
        single = set().union(*(decided_by(p, k) for p in premises))
        fresh = {
            v: [c for c in cands if kind[c] == v and c not in single]
            for v in ("entailed", "refuted")
        }
        wrong = [c for c in cands if kind[c] == "open"]
        item = _item(rng, form, fresh, wrong, terms, premises)
        if item is not None:
            return item


def _item(
    rng: random.Random, form: int, fresh: dict, wrong: list, terms: list[str], premises: list
) -> Item | None:
    say = lambda s: TEXT[s[0]].format(x=terms[s[1]], y=terms[s[2]])  # noqa: E731
    intro = (
        "Assume these statements are all true (the words are made up, so use only the "
        "statements, and do not assume that any group has members):\n"
        + "\n".join(f"{i + 1}. {say(p)}" for i, p in enumerate(premises))
    )
    meta: dict[str, Any] = {"kind": "syllogism", "terms": terms, "premises": premises}
    if FORMS[form] == "exact":
        count = rng.randint(2, 3)  # 35 possible answers: a guessed mode rarely hits
        if len(fresh["entailed"]) < count or len(wrong) < 6 - count:
            return None
        listed = rng.sample(
            [*rng.sample(fresh["entailed"], count), *rng.sample(wrong, 6 - count)], 6
        )
        meta["listed"] = listed
        numbers = [str(i + 1) for i, s in enumerate(listed) if s in fresh["entailed"]]
        q = (
            f"{intro}\n\nWhich of the following statements must then also be true?\n"
            + "\n".join(f"({i + 1}) {say(s)}" for i, s in enumerate(listed))
            + "\n\nGive the numbers of all that must be true, in increasing order, separated by "
            "commas."
        )
        joins = (", ", ",", " ", " and ")
        return {
            "question": q,
            "scorer": "exact",
            "answer": [j.join(numbers) for j in joins],
            "meta": meta,
        }
    want = "entailed" if form in (0, 4) else "refuted"
    if not fresh[want] or len(wrong) < 3:
        return None
    right = rng.choice(fresh[want])
    alike = [s for s in wrong if s[0] == right[0]]  # the same form: lengths alike
    if len(alike) < 3:
        return None
    others = rng.sample(alike, 3)
    if len({say(s) for s in (right, *others)}) < 4:
        return None
    meta["want"] = want
    ask = "must then also be true" if want == "entailed" else "must then be false"
    return {
        "question": f"{intro}\n\nWhich of the following {ask}?",
        "scorer": "mc",
        "correct": say(right),
        "distractors": [say(s) for s in others],
        "meta": meta,
    }


# ---- proof: inhabited regions as membership tuples ---------------------------------------------
@functools.cache
def _models(k: int) -> list[frozenset[tuple[bool, ...]]]:
    regions = [r for r in itertools.product((False, True), repeat=k) if any(r)]
    return [
        frozenset(r for r, keep in zip(regions, bits, strict=True) if keep)
        for bits in itertools.product((False, True), repeat=len(regions))
    ]


def _holds(stmt: list[Any], model: frozenset[tuple[bool, ...]]) -> bool:
    form, x, y = stmt
    both = any(r[x] and r[y] for r in model)
    x_not_y = any(r[x] and not r[y] for r in model)
    return {"A": not x_not_y, "E": not both, "I": both, "O": x_not_y}[form]


def _parse(text: str, terms: list[str]) -> list[Any]:
    words = text.rstrip(".").split()
    form = {"All": "A", "No": "E"}.get(words[0], "O" if "not" in words else "I")
    return [form, terms.index(words[1]), terms.index(words[-1])]


def prove(row: dict[str, Any]) -> None:
    m, k = row["meta"], len(row["meta"]["terms"])
    models = [s for s in _models(k) if all(_holds(p, s) for p in m["premises"])]
    inhabited = [s for s in models if all(any(r[t] for r in s) for t in range(k))]

    def must(stmt: list[Any], value: bool) -> bool:
        return all(_holds(stmt, s) == value for s in models)

    def alone(stmt: list[Any], value: bool) -> bool:
        return any(
            all(_holds(stmt, s) == value for s in _models(k) if _holds(p, s)) for p in m["premises"]
        )

    if row["scorer"] == "exact":
        listed = m["listed"]
        numbers = [str(i + 1) for i, s in enumerate(listed) if must(s, True)]
        assert row["answer"][0] == ", ".join(numbers), row["id"]
        for s in listed:  # entailed by the premises together, or false in an inhabited model
            if must(s, True):
                assert not alone(s, True), (row["id"], s)
            else:
                assert {_holds(s, x) for x in inhabited} == {True, False}, (row["id"], s)
        return
    value = m["want"] == "entailed"
    stmts = [_parse(c, m["terms"]) for c in row["choices"]]
    fits = [c for c, s in zip(row["choices"], stmts, strict=True) if must(s, value)]
    assert fits == [row["choices"]["ABCD".index(row["answer"])]], (row["id"], fits)
    assert not alone(_parse(fits[0], m["terms"]), value), row["id"]
    for c, s in zip(row["choices"], stmts, strict=True):  # wrong options fail in an inhabited model
        assert c in fits or {_holds(s, x) for x in inhabited} == {True, False}, (row["id"], c)
