"""eval-multilingual-v3's vocabulary task: the target-language name of the weekday or month a
given number of places before or after an English one (issue 19), with its proof.

eval-multilingual-v2 asked for the translation of an English weekday or month among four names
of the target language, and month names are cognates in all six languages: the option spelled
most like the English word was the gold in 15 of 18 rows. Here the asked name is a neighbour of
the English one ("the month just before «April»"), and the options are the four names at the
offsets of the row's level (easy: weekdays at -2, -1, +1 and +2; medium: months at the same
offsets; hard: months at -3, -1, +1 and +3), the English word's own translation never among
them. Which offset is asked is planned over the dataset, each equally often within one, so the
option spelled most like the English word is the gold about one time in four, and every option
set is the same window whichever name is asked.
"""

from __future__ import annotations

import random
from typing import Any

from common import mc_plan as plan

from families.multilingual.lexicon import DAYS, EN_DAYS, EN_MONTHS, MONTHS, end

OFFSETS = ((-2, -1, 1, 2), (-2, -1, 1, 2), (-3, -1, 1, 3))
#: (weekday question, month question); {rel} says which neighbour, {en} is the English name
QUESTION = {
    "fr": (
        "Parmi ces mots, lequel est le nom français du jour qui vient {rel} celui que l'anglais "
        "appelle « {en} » ?",
        "Parmi ces mots, lequel est le nom français du mois qui vient {rel} celui que l'anglais "
        "appelle « {en} » ?",
    ),
    "es": (
        "¿Cuál de estas palabras es el nombre en español del día que viene {rel} del que en "
        "inglés se llama «{en}»?",
        "¿Cuál de estas palabras es el nombre en español del mes que viene {rel} del que en "
        "inglés se llama «{en}»?",
    ),
    "de": (
        "Welches dieser Wörter ist der deutsche Name des Wochentags, der {rel} dem Tag kommt, "
        "den man auf Englisch „{en}“ nennt?",
        "Welches dieser Wörter ist der deutsche Name des Monats, der {rel} dem Monat kommt, den "
        "man auf Englisch „{en}“ nennt?",
    ),
    "pt": (
        "Qual destas palavras é o nome em português do dia que vem {rel} daquele que em inglês "
        "se chama «{en}»?",
        "Qual destas palavras é o nome em português do mês que vem {rel} daquele que em inglês "
        "se chama «{en}»?",
    ),
    "it": (
        "Quale di queste parole è il nome italiano del giorno che viene {rel} quello che in "
        "inglese si chiama «{en}»?",
        "Quale di queste parole è il nome italiano del mese che viene {rel} quello che in "
        "inglese si chiama «{en}»?",
    ),
    "sw": (
        "Ni neno lipi kati ya haya ni jina la Kiswahili la siku inayokuja {rel} siku ambayo kwa "
        'Kiingereza inaitwa "{en}"?',
        "Ni neno lipi kati ya haya ni jina la Kiswahili la mwezi unaokuja {rel} mwezi ambao kwa "
        'Kiingereza unaitwa "{en}"?',
    ),
}
#: lang -> (weekday phrases, month phrases), each keyed by offset
RELATION: dict[str, tuple[dict[int, str], dict[int, str]]] = {
    "fr": (
        {-1: "juste avant", 1: "juste après", -2: "deux jours avant", 2: "deux jours après"},
        {-1: "juste avant", 1: "juste après", -2: "deux mois avant", 2: "deux mois après"}
        | {-3: "trois mois avant", 3: "trois mois après"},
    ),
    "es": (
        {-1: "justo antes", 1: "justo después", -2: "dos días antes", 2: "dos días después"},
        {-1: "justo antes", 1: "justo después", -2: "dos meses antes", 2: "dos meses después"}
        | {-3: "tres meses antes", 3: "tres meses después"},
    ),
    "de": (
        {-1: "direkt vor", 1: "direkt nach", -2: "zwei Tage vor", 2: "zwei Tage nach"},
        {-1: "direkt vor", 1: "direkt nach", -2: "zwei Monate vor", 2: "zwei Monate nach"}
        | {-3: "drei Monate vor", 3: "drei Monate nach"},
    ),
    "pt": (
        {-1: "logo antes", 1: "logo depois", -2: "dois dias antes", 2: "dois dias depois"},
        {-1: "logo antes", 1: "logo depois", -2: "dois meses antes", 2: "dois meses depois"}
        | {-3: "três meses antes", 3: "três meses depois"},
    ),
    "it": (
        {-1: "subito prima di", 1: "subito dopo", -2: "due giorni prima di", 2: "due giorni dopo"},
        {-1: "subito prima di", 1: "subito dopo", -2: "due mesi prima di", 2: "due mesi dopo"}
        | {-3: "tre mesi prima di", 3: "tre mesi dopo"},
    ),
    "sw": (
        {-1: "siku moja kabla ya", 1: "siku moja baada ya"}
        | {-2: "siku mbili kabla ya", 2: "siku mbili baada ya"},
        {-1: "mwezi mmoja kabla ya", 1: "mwezi mmoja baada ya"}
        | {-2: "miezi miwili kabla ya", 2: "miezi miwili baada ya"}
        | {-3: "miezi mitatu kabla ya", 3: "miezi mitatu baada ya"},
    ),
}


def offset_plan(rng: random.Random, rows: list[tuple[int, int]]) -> dict[int, int]:
    """The offset each vocabulary row asks, given as ``(level, row index)`` pairs: dealt from
    shuffled blocks of the level's four offsets in row order, so every offset is asked equally
    often within one at every level. ``rng`` is the plan's own stream."""
    asked: dict[int, int] = {}
    blocks: dict[int, list[int]] = {}
    for level, idx in sorted(rows, key=lambda pair: pair[1]):
        if not blocks.get(level):
            blocks[level] = list(OFFSETS[level])
            rng.shuffle(blocks[level])
        asked[idx] = blocks[level].pop()
    return asked


def _names(lang: str, level: int) -> tuple[list[str], tuple[str, ...]]:
    table, english = (DAYS, EN_DAYS) if level == 0 else (MONTHS, EN_MONTHS)
    return [variants[0] for variants in table[lang]], english


def neighbour(rng: random.Random, lang: str, level: int, slot: int, offset: int) -> dict[str, Any]:
    """The row: the name ``offset`` places from a drawn English one, gold at ``slot``."""
    names, english = _names(lang, level)
    k = rng.randrange(len(names))
    window = [names[(k + d) % len(names)] for d in OFFSETS[level]]
    gold = names[(k + offset) % len(names)]
    options = plan.place(rng, gold, [w for w in window if w != gold], slot)
    rel = RELATION[lang][level > 0][offset]
    question = QUESTION[lang][level > 0].format(rel=rel, en=english[k])
    listing = "\n".join(f"{plan.LETTERS[i]}. {text}" for i, text in enumerate(options))
    return {
        "prompt": f"{question}\n\n{listing}" + end(lang, 3),
        "choices": options,
        "answer": plan.LETTERS[slot],
        "meta": {"english": english[k], "offset": offset},
    }


def prove_neighbour(row: dict[str, Any], lang: str) -> None:
    """The options are the level's window around the English name; the gold is the name at the
    asked offset, found by walking the names; the English word's translation is not offered."""
    level = ("easy", "medium", "hard").index(row["difficulty"])
    names, english = _names(lang, level)
    k, offset = english.index(row["meta"]["english"]), row["meta"]["offset"]
    assert offset in OFFSETS[level], row["id"]
    walked = k
    for _ in range(abs(offset)):
        walked = (walked + (1 if offset > 0 else -1)) % len(names)
    window = {names[(k + d) % len(names)] for d in OFFSETS[level]}
    assert set(row["choices"]) == window and len(window) == 4, row["id"]
    assert names[k] not in row["choices"], row["id"]
    assert row["choices"][plan.LETTERS.index(row["answer"])] == names[walked], row["id"]
    assert RELATION[lang][level > 0][offset] in row["prompt"], row["id"]
