"""The multilingual tasks eval-multilingual-v1 and -v2 share, each with its proof: write a number
in words (``contains``), shift a weekday or a month (``contains``), word problems and spoken
arithmetic (``numeric``). Builders take ``(rng, lang, level)``; proofs take ``(row, lang)`` and
re-derive the answer from the prompt (digits read back, number words parsed through the reverse
index, weekdays and months walked through real ``datetime`` dates). Moved here from the v1
generator, unchanged.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from families.multilingual.lexicon import (
    ARITHMETIC,
    DAYS,
    EN_DAYS,
    EN_MONTHS,
    ITEMS,
    MONTH_Q,
    MONTHS,
    NAMES,
    PROBLEMS,
    WEEKDAY_Q,
    WRITE_NUMBER,
    end,
)
from families.multilingual.numbers import NUMBER_WORDS, REVERSE

DIFFICULTIES = ("easy", "medium", "hard")


NUMBER_RANGES = ((0, 30), (31, 99), (100, 999))


def number_words(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    n = rng.randint(*NUMBER_RANGES[level])
    text = WRITE_NUMBER[lang].format(n=n) + end(lang, 1)
    return {"prompt": text, "answer": NUMBER_WORDS[lang](n), "meta": {"value": n}}


def weekdays(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    today = rng.randrange(7)
    n = (rng.randint(1, 6), rng.randint(8, 60), rng.randint(10, 400))[level]
    past = level == 2
    shift = -n if past else n
    future_q, past_q, reply = WEEKDAY_Q[lang]
    text = (past_q if past else future_q).format(d=DAYS[lang][today][0], n=n)
    target = (today + shift) % 7
    return {
        "prompt": f"{text} {reply}" + end(lang, 2),
        "answer": DAYS[lang][target],
        "meta": {"today": EN_DAYS[today], "shift": shift},
    }


def months(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    start = rng.randrange(12)
    n = (rng.randint(2, 4), rng.randint(5, 11), rng.randint(13, 40))[level]
    shift = -n if level == 2 else n
    after_q, before_q, reply = MONTH_Q[lang]
    text = (before_q if level == 2 else after_q).format(m=MONTHS[lang][start][0], n=n)
    return {
        "prompt": f"{text} {reply}" + end(lang, 2),
        "answer": MONTHS[lang][(start + shift) % 12],
        "meta": {"start": EN_MONTHS[start], "shift": shift},
    }


def word_problems(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    if level == 0:
        a, b, c = rng.randint(3, 40), rng.randint(2, 30), 0
        value = a + b
    elif level == 1:
        a, b = rng.randint(10, 60), rng.randint(5, 40)
        c = rng.randint(2, a + b - 1)
        value = a + b - c
    else:
        a, b = rng.randint(3, 12), rng.randint(6, 24)
        c = rng.randint(2, a * b - 1)
        value = a * b - c
    text = PROBLEMS[lang][level].format(
        p=rng.choice(NAMES[lang]), x=rng.choice(ITEMS[lang]), a=a, b=b, c=c
    )
    return {"prompt": text + end(lang, 0), "answer": str(value), "meta": {"level": level}}


def word_arithmetic(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    if level == 0:
        a, b = rng.randint(2, 30), rng.randint(2, 30)
        value = a + b
    elif level == 1:
        a = rng.randint(30, 99)
        b = rng.randint(2, a - 1)
        value = a - b
    else:
        a, b = rng.randint(12, 99), rng.randint(3, 9)
        value = a * b
    template, ops = ARITHMETIC[lang]
    words = NUMBER_WORDS[lang]
    text = template.format(a=words(a)[0], b=words(b)[0], op=ops[level])
    return {"prompt": text + end(lang, 0), "answer": str(value), "meta": {"operands": [a, b]}}


def ints(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"\d+", text)]


def chosen(row: dict[str, Any]) -> str:
    return row["choices"][ord(row["answer"]) - ord("A")]


def prove_number_words(row: dict[str, Any], lang: str) -> None:
    n = ints(row["prompt"].split("\n")[0])[0]
    assert {REVERSE[lang][w.casefold()] for w in row["answer"]} == {n}, row["id"]


def prove_weekdays(row: dict[str, Any], lang: str) -> None:
    monday = dt.date(2001, 1, 1)  # a Monday, per datetime
    assert monday.weekday() == 0
    m = row["meta"]
    today = monday + dt.timedelta(days=EN_DAYS.index(m["today"]))
    target = today + dt.timedelta(days=m["shift"])
    assert row["answer"] == DAYS[lang][target.weekday()], row["id"]
    assert DAYS[lang][today.weekday()][0] in row["prompt"] and str(abs(m["shift"])) in row["prompt"]


def prove_months(row: dict[str, Any], lang: str) -> None:
    m = row["meta"]
    day = dt.date(2001, EN_MONTHS.index(m["start"]) + 1, 15)
    step = 1 if m["shift"] > 0 else -1
    for _ in range(abs(m["shift"])):  # walk month by month through real dates
        day = (day + dt.timedelta(days=31 * step)).replace(day=15)
    assert row["answer"] == MONTHS[lang][day.month - 1], row["id"]


def prove_problem(row: dict[str, Any], lang: str) -> None:
    x = ints(row["prompt"].split("\n")[0])
    level = DIFFICULTIES.index(row["difficulty"])
    assert len(x) == (2, 3, 3)[level], row["id"]
    want = x[0] + x[1] if level == 0 else x[0] + x[1] - x[2] if level == 1 else x[0] * x[1] - x[2]
    assert int(row["answer"]) == want > 0, row["id"]


def prove_arithmetic(row: dict[str, Any], lang: str) -> None:
    quoted = re.findall(r"[«„\"] ?([^»“\"]+?) ?[»“\"]", row["prompt"])
    a, b = (REVERSE[lang][q.casefold()] for q in quoted)
    op = ARITHMETIC[lang][1].index(row["prompt"].split(quoted[0])[1].split()[1])
    assert int(row["answer"]) == (a + b, a - b, a * b)[op], row["id"]
