"""The adversarial replies (issue 30, :mod:`stages.datasets.adversarial`) over every row of every
default dataset, then property-based: hypothesis draws the wrong value, the shape, the language
and the decoration, so the cases are generated, not listed."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stages.datasets.adversarial import PHRASES, SCORERS, near_miss_shapes, replies
from stages.datasets.open_candidates import family_answers, number_text
from stages.scoring.numeric import accepts, gold_value
from stages.scoring.registry import score_row
from stages.scoring.text_forms import normalize
from stages.scoring.vocabulary import calendar_list, calendar_names

ROOT = Path(__file__).resolve().parents[2]


@cache
def default_rows() -> list[tuple[dict[str, Any], list[str], Path]]:
    """(row, its family's answers, dataset dir) of every answer-extracting row of every dataset
    a workload runs by default."""
    params = yaml.safe_load((ROOT / "params.yaml").read_text("utf-8"))
    ids = sorted({w["dataset"] for w in params["workloads"].values()})
    out = []
    for dataset_id in ids:
        path = ROOT / "datasets" / dataset_id
        rows = [json.loads(x) for x in (path / "rows.jsonl").read_text("utf-8").splitlines()]
        rows = [r for r in rows if r.get("scorer") in SCORERS]
        out += [(r, f, path) for r, f in zip(rows, family_answers(rows), strict=True)]
    return out


def readings(row: dict[str, Any], reply: str, path: Path) -> tuple[bool, bool]:
    found = score_row(row, {"output": reply, "error": None}, path)
    flexible = found.correct if found.flexible is None else found.flexible.correct
    return bool(found.correct), bool(flexible)


def test_every_default_row_rejects_its_near_misses_and_accepts_its_careful_replies() -> None:
    tried = {"near miss": 0, "careful": 0}
    wrong: list[str] = []
    for row, family, path in default_rows():
        for reply in replies(row, family):
            strict, flexible = readings(row, reply.text, path)
            tried[reply.family.split(":")[0]] += 1
            if flexible != reply.right or (reply.strict is not None and strict != reply.strict):
                wrong.append(f"{row['id']} {reply.family}: {reply.text!r} -> {strict}, {flexible}")
    assert wrong == []
    assert tried["near miss"] > 40_000 and tried["careful"] > 10_000


ROWS = st.sampled_from(range(10**6)).map(lambda i: default_rows()[i % len(default_rows())])
NUMERIC = [r for r in default_rows() if r[0]["scorer"] == "numeric"]
MC = [r for r in default_rows() if r[0]["scorer"] == "mc"]
CALENDAR = [r for r in default_rows() if r[0]["scorer"] == "contains"
            and normalize(str(r[0]["answer"][0])) in calendar_names()]  # fmt: skip
LINE = st.sampled_from(["Answer: {}", "Final answer: {}", "answer - {}", "Answer:  {} "])
SHAPES = st.sampled_from(range(len(near_miss_shapes("g", "w", PHRASES["en"]))))
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


@SETTINGS
@given(st.sampled_from(NUMERIC), st.fractions(max_denominator=12), st.booleans(), SHAPES, LINE)
def test_numeric_near_misses_are_wrong(
    item: Any, offset: Fraction, own_language: bool, shape: int, line: str
) -> None:
    """In English or in the row's own language: a reply in a third language is read with the
    other languages' unambiguous words only (:func:`stages.scoring.lexicon.word_classes`)."""
    row, _, path = item
    lang = (row.get("meta") or {}).get("lang", "en") if own_language else "en"
    gold = gold_value(row)
    wrong = Fraction(gold) + offset
    if accepts(row, wrong, gold)[0]:
        return  # within the row's tolerance: a right answer, not a near miss
    _, text = near_miss_shapes(number_text(gold), number_text(wrong), PHRASES[lang])[shape]
    assert readings(row, line.format(text), path) == (False, False)


@SETTINGS
@given(st.sampled_from(MC), st.data())
def test_several_labels_in_any_punctuation_are_wrong(item: Any, data: st.DataObject) -> None:
    row, _, path = item
    letters = [chr(65 + i) for i in range(len(row["choices"]))]
    chosen = data.draw(st.lists(st.sampled_from(letters), min_size=2, unique=True))
    joint = data.draw(st.sampled_from([".", ", ", " ", "/", " or ", " and ", "; ", " & ", ") "]))
    wrap = data.draw(st.sampled_from(["{}", "({})", "**{}**", "{}."]))
    reply = "Answer: " + joint.join(wrap.format(x) for x in chosen)
    assert readings(row, reply, path) == (False, False)


@SETTINGS
@given(st.sampled_from(CALENDAR), st.data())
def test_several_calendar_names_are_wrong(item: Any, data: st.DataObject) -> None:
    row, _, path = item
    kind = calendar_names()[normalize(row["answer"][0])][0]
    names = calendar_list(kind, data.draw(st.sampled_from(["en", row["meta"]["lang"]])))
    chosen = data.draw(st.lists(st.sampled_from(names), min_size=2, unique=True))
    chosen = [row["answer"][0], *chosen]
    data.draw(st.randoms()).shuffle(chosen)
    joint = data.draw(st.sampled_from([" ", "\n", ", ", " / ", " et ", " ou ", " y ", " - "]))
    # a list a line each has no answer line: the reply is the list (an answer line is one line)
    prefix = "" if joint == "\n" else data.draw(st.sampled_from(["Answer: ", "", "The day is "]))
    distinct = {calendar_names()[normalize(n)] for n in chosen}
    if len(distinct) > 1:
        assert readings(row, prefix + joint.join(chosen), path) == (False, False)


WORKING = st.sampled_from([
    "({a} + {b})", "(= {a} + {b})", "(counting from {a})", "(from {a} and {b})",
    "(not {w})", "[{a} + {b}]", ", since {a} + {b}", ", because {a} + {b} makes it",
])  # fmt: skip
UNITS = st.sampled_from(["", " units", " km", " m/s^2", " €", " kg"])


@SETTINGS
@given(st.sampled_from(NUMERIC), st.fractions(max_denominator=8), WORKING, UNITS, LINE)
def test_working_and_units_after_the_value_are_right(
    item: Any, split: Fraction, working: str, unit: str, line: str
) -> None:
    row, _, path = item
    gold = Fraction(gold_value(row))
    wrong = gold + 1 if not accepts(row, gold + 1, gold)[0] else gold * 2 + 3
    a, b = split, gold - split
    tail = working.format(a=number_text(a), b=number_text(b), w=number_text(wrong))
    reply = line.format(f"{number_text(gold)}{unit} {tail}")
    assert readings(row, reply, path)[1] is True
