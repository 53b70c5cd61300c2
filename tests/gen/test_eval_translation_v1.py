"""eval-translation-v1: hand-checked renderings, the agreement checks' teeth, and the rows.

Exact French and English sentences for chosen slots are written out by hand; the invariant
checks must reject sentences with a known agreement or elision error; every committed row is
re-proved by the generator.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "datasets" / "eval-translation-v1"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]


def _load(name: str, path: Path) -> ModuleType:
    sys.path.insert(0, str(REPO / "_gen"))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _load("eval_translation_v1", REPO / "_gen" / "eval-translation-v1.py")
L = GEN.L
LEX = GEN.LEX
CHECKS = _load("fr_en_checks", REPO / "_gen" / "families" / "translation" / "checks.py")
ARRIVED = {"template": "past_etre", "subject": "filles", "motion": "arriver", "place": "gare",
           "time": "hier"}  # fmt: skip
BOUGHT = {"template": "past_avoir", "subject": "je_m", "verb": "acheter", "object": "ordinateur",
          "number": "sg", "det": "indef", "adj": "vieux", "time": "semaine"}  # fmt: skip


def test_hand_checked_renderings() -> None:
    assert L.render("fr", ARRIVED) == ["Les filles sont arrivées à la gare hier."]
    assert L.render("en", ARRIVED) == ["The girls arrived at the station yesterday."]
    assert L.render("fr", BOUGHT) == [
        "J'ai acheté un vieil ordinateur la semaine dernière.",
        "J'ai acheté un vieil ordinateur la semaine passée.",
    ]
    assert L.render("en", BOUGHT) == ["I bought an old computer last week."]
    left = dict(ARRIVED, subject="homme", motion="partir", place="hopital")
    assert L.render("fr", left) == [
        "L'homme est parti de l'hôpital hier.",
        "L'homme a quitté l'hôpital hier.",
    ]
    small = dict(BOUGHT, subject="ils", object="voiture", number="pl", adj="petit")
    assert L.render("fr", small)[:2] == [
        "Ils ont acheté de petites voitures la semaine dernière.",
        "Ils ont acheté de petites voitures la semaine passée.",
    ]
    assert "Ils ont acheté des petites voitures la semaine dernière." in L.render("fr", small)
    no_water = {"template": "negation", "subject": "je_f", "verb": "boire", "food": "eau"}
    assert L.render("fr", no_water) == ["Je ne bois pas d'eau."]
    assert L.render("en", no_water) == ["I do not drink water.", "I don't drink water."]


def test_english_twins_accept_every_french_reading() -> None:
    they = dict(ARRIVED, subject="elles")
    source, refs = GEN.references(they, "en-fr")
    assert source == "They arrived at the station yesterday."
    assert refs == ["Elles sont arrivées à la gare hier.", "Ils sont arrivés à la gare hier."]
    happy = {"template": "state", "subject": "il", "mood": "content", "very": False, "time": None}
    assert GEN.references(happy, "en-fr") == (
        "He is happy.",
        ["Il est content.", "Il est heureux."],
    )


@pytest.mark.parametrize(
    ("sentence", "slots"),
    [
        ("Les filles sont arrivés à la gare hier.", ARRIVED),  # participle not agreed
        ("Les filles sont arrivées à le gare hier.", ARRIVED),  # article gender / contraction
        ("Les filles est arrivées à la gare hier.", ARRIVED),  # verb person
        ("Je ai acheté un vieil ordinateur la semaine dernière.", BOUGHT),  # elision
        ("J'ai acheté un vieux ordinateur la semaine dernière.", BOUGHT),  # vieil before vowel
        ("J'ai acheté une vieil ordinateur la semaine dernière.", BOUGHT),  # determiner gender
    ],
)
def test_french_checks_reject_errors(sentence: str, slots: dict) -> None:
    CHECKS.check_french(L.render("fr", slots)[0], slots)
    with pytest.raises(AssertionError):
        CHECKS.check_french(sentence, slots)


def test_english_checks_reject_errors() -> None:
    CHECKS.check_english("I bought an old computer last week.", BOUGHT)
    with pytest.raises(AssertionError):
        CHECKS.check_english("I bought a old computer last week.", BOUGHT)
    habit = dict(BOUGHT, template="habit", subject="fille", verb="lire", object="livre")
    habit |= {"det": "def", "adj": None, "place": "parc", "time": "jour"}
    assert L.render("en", habit) == ["The girl reads the book in the park every day."]
    with pytest.raises(AssertionError):
        CHECKS.check_english("The girl read the book in the park every day.", habit)


def test_mix_is_as_intended() -> None:
    card = json.loads((DATA / "dataset.json").read_text("utf-8"))
    assert card["rows"] == len(ROWS) == 126
    assert Counter(r["meta"]["direction"] for r in ROWS) == {"fr-en": 63, "en-fr": 63}
    assert Counter(r["category"] for r in ROWS) == {t: 18 for t in LEX.TEMPLATES}
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 36, "medium": 54, "hard": 36}
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        src = {"fr-en": "French", "en-fr": "English"}[row["meta"]["direction"]]
        assert row["prompt"].endswith(f"\n\n{src}: {row['meta']['source']}")
        assert row["scorer"] == "chrf" and row["answer"] and row["meta"]["note"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_generator_proof(row: dict) -> None:
    GEN.prove(row)
