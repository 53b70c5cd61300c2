"""eval-multilingual-v4's open word tasks: v3's items (``tasks``: write a number in words, shift a
weekday or a month), each accepting every spelling of ``spellings_v4``, with their proofs.

The builders call v3's with the same random stream, so an item is v3's item; only the accepted
answers grow. The proofs re-derive the answer as v3's do (the number read from the prompt, the
weekday and month walked through real ``datetime`` dates) and check the accepted list is
exactly the spellings of that number or name, each of which reads back to it.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from families.multilingual import spellings_v4, tasks
from families.multilingual.lexicon import EN_DAYS, EN_MONTHS


def number_words(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    item = tasks.number_words(rng, lang, level)
    return {**item, "answer": spellings_v4.number_words(lang, item["meta"]["value"])}


def weekdays(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    item = tasks.weekdays(rng, lang, level)
    target = (EN_DAYS.index(item["meta"]["today"]) + item["meta"]["shift"]) % 7
    return {**item, "answer": spellings_v4.DAYS[lang][target]}


def months(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    item = tasks.months(rng, lang, level)
    target = (EN_MONTHS.index(item["meta"]["start"]) + item["meta"]["shift"]) % 12
    return {**item, "answer": spellings_v4.MONTHS[lang][target]}


def prove_number_words(row: dict[str, Any], lang: str) -> None:
    n = tasks.ints(row["prompt"].split("\n")[0])[0]
    assert row["answer"] == spellings_v4.number_words(lang, n), row["id"]
    assert {spellings_v4.REVERSE[lang][w.casefold()] for w in row["answer"]} == {n}, row["id"]


def prove_weekdays(row: dict[str, Any], lang: str) -> None:
    monday = dt.date(2001, 1, 1)  # a Monday, per datetime
    assert monday.weekday() == 0
    m = row["meta"]
    today = monday + dt.timedelta(days=EN_DAYS.index(m["today"]))
    target = (today + dt.timedelta(days=m["shift"])).weekday()
    assert row["answer"] == spellings_v4.DAYS[lang][target], row["id"]
    assert {spellings_v4.DAY_INDEX[lang][w.casefold()] for w in row["answer"]} == {target}
    assert spellings_v4.DAYS[lang][today.weekday()][0] in row["prompt"], row["id"]
    assert str(abs(m["shift"])) in row["prompt"], row["id"]


def prove_months(row: dict[str, Any], lang: str) -> None:
    m = row["meta"]
    day = dt.date(2001, EN_MONTHS.index(m["start"]) + 1, 15)
    step = 1 if m["shift"] > 0 else -1
    for _ in range(abs(m["shift"])):  # walk month by month through real dates
        day = (day + dt.timedelta(days=31 * step)).replace(day=15)
    assert row["answer"] == spellings_v4.MONTHS[lang][day.month - 1], row["id"]
    assert {spellings_v4.MONTH_INDEX[lang][w.casefold()] for w in row["answer"]} == {day.month - 1}
