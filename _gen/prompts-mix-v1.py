# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""prompts-mix-v1: serving prompts over several topics and languages, in every length bucket.

Long prompts are field notes assembled sentence by sentence from templates whose slots are drawn
from large ranges (names, places, measured values, days), so no two sentences in the dataset are
alike: prefix caching and tokenizer merges cannot flatter a prefill figure. ``prove`` recomputes
each row's token estimate and bucket; ``prove_all`` checks the intended bucket mix and that no
sentence appears twice in the whole dataset.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib

DATASET_ID = "prompts-mix-v1"
KIND = "prompts"
DESCRIPTION = "Mixed-topic, multilingual serving prompts covering every length bucket xs to xxl."
SEED = 1_000_202
CREATED = "2026-11-29"
DEFAULT_SCORER = None
#: (bucket, rows, lowest and highest target approx_tokens)
PLAN = (
    ("xs", 25, 12, 60),
    ("s", 25, 80, 220),
    ("m", 25, 300, 980),
    ("l", 20, 1100, 4000),
    ("xl", 15, 4200, 15000),
    ("xxl", 10, 16500, 22000),
)
COUNT = sum(rows for _, rows, _, _ in PLAN)
TOPICS = ("science", "history", "travel", "cooking", "finance", "sports", "technology")
LANGS = ("en", "fr", "es", "de")

NAMES = (
    "Ada",
    "Bilal",
    "Carmen",
    "Dmitri",
    "Esi",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jalil",
    "Kamala",
    "Lucien",
    "Mirela",
    "Nadim",
    "Olga",
    "Pablo",
    "Qiu",
    "Rania",
    "Sven",
    "Tala",
    "Ugo",
    "Vesna",
    "Wanjiru",
    "Xavier",
    "Yara",
    "Zeno",
)
PLACES = (
    "Arlen",
    "Brisk",
    "Corvo",
    "Dunmere",
    "Elsby",
    "Falkirra",
    "Gorse",
    "Hallow",
    "Ivel",
    "Jarrow",
    "Kestel",
    "Lunde",
    "Marrow",
    "Norrin",
    "Oddby",
    "Pellam",
    "Quarry",
    "Rennet",
    "Sallow",
    "Tarn",
    "Umber",
    "Varo",
    "Wexley",
    "Yarrow",
    "Zell",
)
NOUNS = {
    "en": {
        "science": "sample",
        "history": "letter",
        "travel": "ferry",
        "cooking": "loaf",
        "finance": "invoice",
        "sports": "relay",
        "technology": "server",
    },
    "fr": {
        "science": "relevé",
        "history": "registre",
        "travel": "bac",
        "cooking": "pain",
        "finance": "bordereau",
        "sports": "relais",
        "technology": "serveur",
    },
    "es": {
        "science": "muestra",
        "history": "carta",
        "travel": "travesía",
        "cooking": "hogaza",
        "finance": "factura",
        "sports": "carrera",
        "technology": "máquina",
    },
    "de": {
        "science": "Probe",
        "history": "Urkunde",
        "travel": "Fähre",
        "cooking": "Torte",
        "finance": "Rechnung",
        "sports": "Staffel",
        "technology": "Festplatte",
    },
}
SENTENCES = {
    "en": (
        "On day {d}, {n} logged {a} units for the {x} near {p}, {b} more than the week before.",
        "{n} noted that the {x} from {p} took {a} minutes, while the one from {q} took {b}.",
        "At {p}, the {x} numbered {a} in the morning and {b} by the evening of day {d}.",
        "A second reading by {n} put the {x} at {a}.{b} on day {d}, slightly off the {p} figure.",
        "{n} compared {p} and {q}: the {x} counts were {a} and {b} respectively on day {d}.",
    ),
    "fr": (
        "Le jour {d}, {n} a relevé {a} unités pour le {x} près de {p}, soit {b} de plus.",
        "{n} a noté que le {x} de {p} a pris {a} minutes, contre {b} pour celui de {q}.",
        "À {p}, le compteur du {x} indiquait {a} le matin et {b} le soir du jour {d}.",
        "Une seconde mesure de {n} donnait {a},{b} pour le {x} le jour {d}, près de {p}.",
        "{n} a comparé {p} et {q} : {a} et {b} pour le {x}, le jour {d}.",
    ),
    "es": (
        "El día {d}, {n} registró {a} unidades para la {x} cerca de {p}, {b} más que antes.",
        "{n} anotó que la {x} de {p} tardó {a} minutos y la de {q}, {b}.",
        "En {p}, el recuento de la {x} fue {a} por la mañana y {b} por la tarde del día {d}.",
        "Una segunda lectura de {n} dio {a},{b} para la {x} el día {d}, cerca de {p}.",
        "{n} comparó {p} y {q}: {a} y {b} para la {x} el día {d}.",
    ),
    "de": (
        "Am Tag {d} zählte {n} {a} Einheiten für die {x} bei {p}, {b} mehr als zuvor.",
        "{n} notierte, dass die {x} aus {p} {a} Minuten brauchte, die aus {q} aber {b}.",
        "In {p} lag der Zählwert der {x} morgens bei {a} und am Abend des Tages {d} bei {b}.",
        "Eine zweite Messung von {n} ergab {a},{b} für die {x} am Tag {d} bei {p}.",
        "{n} verglich {p} und {q}: {a} und {b} für die {x} am Tag {d}.",
    ),
}
TASKS = {
    "en": (
        "Summarise the notes below in three sentences.",
        "List the two largest values in the notes and who recorded them.",
        "Which place appears most often in these notes?",
    ),
    "fr": (
        "Résume les notes ci-dessous en trois phrases.",
        "Donne les deux plus grandes valeurs des notes et qui les a relevées.",
        "Quel lieu revient le plus souvent dans ces notes ?",
    ),
    "es": (
        "Resume las notas siguientes en tres frases.",
        "Indica los dos valores más altos de las notas y quién los registró.",
        "¿Qué lugar aparece más veces en estas notas?",
    ),
    "de": (
        "Fasse die folgenden Notizen in drei Sätzen zusammen.",
        "Nenne die zwei größten Werte der Notizen und wer sie notiert hat.",
        "Welcher Ort kommt in den Notizen am häufigsten vor?",
    ),
}
SHORT = {
    "en": "In one sentence, what might {n} check first about the {x} at {p} after {a} days?",
    "fr": "En une phrase, que devrait vérifier {n} en premier sur le {x} de {p} après {a} jours ?",
    "es": "En una frase, ¿qué debería revisar {n} primero de la {x} de {p} tras {a} días?",
    "de": "Was sollte {n} nach {a} Tagen zuerst an der {x} in {p} prüfen? Ein Satz genügt.",
}


def _slots(rng: random.Random, lang: str, topic: str) -> dict[str, Any]:
    p, q = rng.sample(PLACES, 2)
    return {
        "n": rng.choice(NAMES),
        "p": p,
        "q": q,
        "x": NOUNS[lang][topic],
        "a": rng.randint(10, 99_999),
        "b": rng.randint(10, 9_999),
        "d": rng.randint(1, 999),
    }


def _plan(idx: int) -> tuple[str, int, int]:
    start = 0
    for bucket, rows, low, high in PLAN:
        if idx < start + rows:
            return bucket, low, high
        start += rows
    raise IndexError(idx)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    bucket, low, high = _plan(idx)
    lang, topic = LANGS[idx % len(LANGS)], TOPICS[(idx // len(LANGS)) % len(TOPICS)]
    target_chars = rng.randint(low, high) * 4
    if bucket == "xs":
        text = SHORT[lang].format(**_slots(rng, lang, topic))
    else:
        task = rng.choice(TASKS[lang])
        lines = [f"[{topic} #{idx + 1}] {task}", ""]
        size = len(lines[0]) + 1
        while size < target_chars:
            sentence = rng.choice(SENTENCES[lang]).format(**_slots(rng, lang, topic))
            lines.append(sentence)
            size += len(sentence) + 1
        text = "\n".join(lines)
    messages = [{"role": "user", "content": text}]
    return lib.prompt_row(f"mix-{idx + 1:04d}", topic, lang, messages)


def prove(row: dict[str, Any]) -> None:
    idx = int(row["id"].split("-")[1]) - 1
    tokens = lib.approx_tokens(m["content"] for m in row["messages"])
    assert tokens == row["approx_tokens"] and lib.bucket_for(tokens) == row["bucket"], row["id"]
    assert row["bucket"] == _plan(idx)[0], f"{row['id']} landed in {row['bucket']}"


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["messages"][0]["content"], "prompt text")
    seen: dict[str, str] = {}
    for row in rows:
        for sentence in re.split(r"\n", row["messages"][0]["content"]):
            if len(sentence) > 40:
                assert sentence not in seen, f"{row['id']} repeats a sentence of {seen[sentence]}"
                seen[sentence] = row["id"]
    assert {r["bucket"] for r in rows} == {b for b, _, _, _ in PLAN}
    assert len({r["lang"] for r in rows}) == len(LANGS) and len({r["topic"] for r in rows}) == len(
        TOPICS
    )


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
