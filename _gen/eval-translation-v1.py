# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-translation-v1: French↔English sentence translation, scored ``chrf`` (secondary
metric; spec 000: human rubric review is primary, references carry accepted variants).

Each row draws meaning slots (subject with gender and number, verb, object, adjective, place, time)
and renders both languages from them with ``families.translation.sentences`` — so every pair is a
true translation. ``answer`` lists the accepted references, primary first; for en-fr it also holds
the French of every slot set English cannot tell apart (they = ils/elles, happy = content/ heureux,
...). ``prove`` re-renders both sides and checks agreement invariants with regexes written
independently of the renderer (elision, contractions, verb person, past-participle and adjective
agreement in French; a/an, third-person -s and do-support in English).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.translation import lexicon as LEX
from families.translation import sentences as L
from families.translation.checks import check_english, check_french

DATASET_ID = "eval-translation-v1"
KIND = "eval"
DESCRIPTION = "French-English translation both ways from shared meaning slots, with variants."
SEED = 1_000_701
COUNT = 126
CREATED = "2026-11-29"
DEFAULT_SCORER = "chrf"
DIRECTIONS = ("fr-en", "en-fr")
LANG_NAMES = {"fr": "French", "en": "English"}
DIFFICULTY = {
    "state": "easy",
    "liking": "easy",
    "habit": "medium",
    "negation": "medium",
    "future": "medium",
    "past_avoir": "hard",
    "past_etre": "hard",
}


def draw_slots(rng: random.Random, template: str) -> dict[str, Any]:
    """Meaning slots for ``template``, drawn from the lexicon (keys only)."""
    slots: dict[str, Any] = {"template": template, "subject": rng.choice(sorted(LEX.SUBJECTS))}
    if template == "state":
        mood = rng.choice(sorted(LEX.MOODS))
        very = mood != "pret" and rng.random() < 0.4
        time = rng.choice([None, *sorted(LEX.STATE_TIMES)])
        return slots | {"mood": mood, "very": very, "time": time}
    if template == "liking":
        return slots | {
            "verb": "aimer",
            "food": rng.choice(sorted(LEX.FOODS)),
            "much": rng.random() < 0.4,
        }
    if template == "negation":
        food = rng.choice(sorted(k for k, f in LEX.FOODS.items() if f[4]))
        return slots | {"verb": rng.choice(LEX.FOODS[food][4].split()), "food": food}
    if template == "past_etre":
        motion = rng.choice(sorted(LEX.MOTIONS))
        return slots | {
            "motion": motion,
            "place": rng.choice(LEX.places_for(motion)),
            "time": rng.choice(sorted(LEX.PAST_TIMES)),
        }
    if template == "habit":
        verb = rng.choice(sorted(LEX.HABITS))
        objects, places = (text.split() for text in LEX.HABITS[verb])
        slots |= {"verb": verb, "object": rng.choice(objects)}
    else:
        verb = rng.choice(sorted(LEX.VERBS))
        slots |= {"verb": verb, "object": rng.choice(LEX.VERBS[verb][5].split())}
    slots |= {
        "number": rng.choice(("sg", "pl")),
        "det": rng.choice(("indef", "def", "poss")),
        "adj": rng.choice([None, *LEX.adjectives_for(slots["object"])]),
    }
    if verb == "ecrire":  # one writes a new text, not "the old poem"
        slots |= {"det": "indef", "adj": rng.choice((None, "long", "beau"))}
    if template == "habit":
        slots["place"] = rng.choice(places)
    times = {"habit": LEX.HABIT_TIMES, "future": LEX.FUTURE_TIMES, "past_avoir": LEX.PAST_TIMES}
    return slots | {"time": rng.choice(sorted(times[template]))}


def references(slots: dict[str, Any], direction: str) -> tuple[str, list[str]]:
    """(source sentence, accepted references with the primary first)."""
    if direction == "fr-en":
        return L.render("fr", slots)[0], L.render("en", slots)
    french = [v for twin in L.english_twins(slots) for v in L.render("fr", twin)]
    return L.render("en", slots)[0], list(dict.fromkeys(french))


def _note(slots: dict[str, Any], french: str, refs: list[str], direction: str) -> str:
    """A short reviewer note: which agreement or article rule the item exercises."""
    notes = []
    _, fr_subject, person, gender = LEX.SUBJECTS[slots["subject"]]
    number = "plural" if person >= 2 else "singular"
    if slots["template"] in ("past_etre", "state"):
        notes.append(
            f"agreement with the {'feminine' if gender == 'f' else 'masculine'} "
            f"{number} subject '{fr_subject}'"
        )
    if slots.get("adj"):
        noun = LEX.NOUNS[slots["object"]]
        notes.append(
            f"adjective agrees with '{noun[3] if slots['number'] == 'pl' else noun[2]}' "
            f"({'feminine' if noun[4] == 'f' else 'masculine'} {slots['number']})"
        )
    if slots["template"] == "negation":
        notes.append("'pas de' replaces the article after a negation")
    if slots["template"] == "liking":
        notes.append("French uses the definite article for a general liking")
    if slots["template"] == "future":
        notes.append("near future (aller + infinitive) and simple future both accepted")
    elided = [w for w in french.rstrip(".").split() if w[:2].lower() in ("l'", "d'", "j'", "n'")]
    contracted = [w for w in french.split() if w in ("au", "aux", "du")]
    if elided or contracted:
        notes.append("elision/contraction: " + ", ".join(elided + contracted))
    if direction == "en-fr" and len(L.english_twins(slots)) > 1:
        notes.append(
            "the English leaves open a choice French must make (gender of the subject, "
            "content/heureux, nouveau/neuf); every reading is accepted"
        )
    return "; ".join([*notes, f"{len(refs)} accepted reference(s)"])


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    direction = DIRECTIONS[idx % 2]
    template = LEX.TEMPLATES[(idx // 2) % len(LEX.TEMPLATES)]
    slots = draw_slots(rng, template)
    source, refs = references(slots, direction)
    src, tgt = direction.split("-")
    return {
        "id": f"tr-{idx + 1:04d}",
        "category": template,
        "difficulty": DIFFICULTY[template],
        "prompt": f"Translate the following {LANG_NAMES[src]} sentence into {LANG_NAMES[tgt]}. "
        f"Reply with the translation only.\n\n{LANG_NAMES[src]}: {source}",
        "answer": refs,
        "scorer": DEFAULT_SCORER,
        "meta": {
            "direction": direction,
            "source": source,
            "slots": slots,
            "note": _note(slots, L.render("fr", slots)[0], refs, direction),
        },
    }


def prove(row: dict[str, Any]) -> None:
    """Both sides re-rendered from the slots; every sentence passes the agreement checks."""
    row = json.loads(lib.canonical_line(row))  # prove what is written: key-sorted slots
    meta = row["meta"]
    slots, direction = meta["slots"], meta["direction"]
    assert references(slots, direction) == (meta["source"], row["answer"]), row["id"]
    assert row["prompt"].endswith(f": {meta['source']}"), row["id"]
    assert len(set(row["answer"])) == len(row["answer"]), row["id"]
    french_sides = L.english_twins(slots) if direction == "en-fr" else [slots]
    for twin in french_sides:
        for sentence in L.render("fr", twin):
            check_french(sentence, twin)
    for sentence in L.render("en", slots):
        check_english(sentence, slots)
    assert LEX.plausible(slots), row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    cells = {(r["category"], r["meta"]["direction"]) for r in rows}
    assert cells == {(t, d) for t in LEX.TEMPLATES for d in DIRECTIONS}, cells


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
