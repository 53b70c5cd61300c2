"""The Gregorian calendar for eval-knowledge-v2 and -v3: fixed historic dates, the v2 question
forms (days between dates, weekdays, leap years, the date n days later) computed with
``datetime``, and proofs by era arithmetic and Zeller's congruence instead. Moved here from the
v2 generator, unchanged.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from families.multilingual.lexicon import EN_DAYS as WEEKDAYS
from families.multilingual.lexicon import EN_MONTHS as MONTHS

Item = dict[str, Any]

EVENTS = (
    ("1776-07-04", "the adoption of the United States Declaration of Independence"),
    ("1789-07-14", "the storming of the Bastille"),
    ("1804-12-02", "the coronation of Napoleon"),
    ("1815-06-18", "the Battle of Waterloo"),
    ("1863-01-10", "the opening of the first London Underground line"),
    ("1869-11-17", "the opening of the Suez Canal"),
    ("1871-01-18", "the proclamation of the German Empire"),
    ("1886-10-28", "the dedication of the Statue of Liberty"),
    ("1903-12-17", "the Wright brothers' first powered flight"),
    ("1912-04-15", "the sinking of the Titanic"),
    ("1914-06-28", "the assassination of Archduke Franz Ferdinand"),
    ("1918-11-11", "the armistice that ended the fighting of the First World War"),
    ("1945-05-08", "Victory in Europe Day"),
    ("1953-05-29", "the first ascent of Mount Everest"),
    ("1957-10-04", "the launch of Sputnik 1"),
    ("1961-04-12", "Yuri Gagarin's spaceflight"),
    ("1963-08-28", "the March on Washington"),
    ("1969-07-20", "the Apollo 11 Moon landing"),
    ("1989-11-09", "the fall of the Berlin Wall"),
    ("1990-10-03", "German reunification"),
    ("1994-05-06", "the official opening of the Channel Tunnel"),
)


def long_date(day: dt.date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def calendar(rng: random.Random, level: int, variant: int) -> Item:
    when, what = rng.choice(EVENTS)
    day = dt.date.fromisoformat(when)
    event = f"{what} ({long_date(day)})"
    if variant == 0:
        if level < 2:
            other = day + dt.timedelta(days=rng.randint(40, 300 if level == 0 else 3000))
            question = (
                f"How many days passed from {event} to {long_date(other)}? Count {long_date(day)} "
                f"as day 0."
            )
        else:
            when2, what2 = rng.choice([e for e in EVENTS if e[0] > when])
            other = dt.date.fromisoformat(when2)
            question = (
                f"How many days passed from {event} to {what2} ({long_date(other)})? Count "
                f"the first date as day 0."
            )
        meta: dict[str, Any] = {
            "kind": "days_between",
            "dates": [day.isoformat(), other.isoformat()],
        }
        return {
            "question": question + " All dates are in the Gregorian calendar.",
            "scorer": "numeric",
            "answer": str((other - day).days),
            "meta": meta,
        }
    if variant == 1:
        if level == 0:
            target, ask = day, f"On which day of the week did {event} take place?"
        elif level == 1:
            n = rng.randint(100, 5000)
            target = day + dt.timedelta(days=n)
            ask = f"Which day of the week was it {n} days after {event}?"
        else:
            k = rng.choice((100, 150, 200, 250))
            target = day.replace(year=day.year + k)
            ask = f"On which day of the week does the {k}th anniversary of {event} fall?"
        meta = {"kind": "weekday", "date": target.isoformat()}
        return {
            "question": ask + " All dates are in the Gregorian calendar.",
            "scorer": "exact",
            "answer": WEEKDAYS[target.weekday()],
            "meta": meta,
        }
    if level == 0:
        leap = rng.choice([y for y in range(1600, 2401, 4) if y % 100 or y % 400 == 0])
        centuries = [y for y in range(1700, 2500, 100) if y % 400]
        near = [leap + d for d in (-2, -1, 1, 2, 3) if 1600 <= leap + d <= 2400]
        wrong = rng.sample(centuries, 2) + [rng.choice(near)]
        meta = {"kind": "leap_year"}
        return {
            "question": "In the Gregorian calendar, which of these years is a leap year?",
            "scorer": "mc",
            "correct": str(leap),
            "distractors": [str(y) for y in wrong],
            "meta": meta,
        }
    n = rng.randint(500, 3000) if level == 1 else rng.randint(20_000, 60_000)
    target = day + dt.timedelta(days=n)
    naive = day.toordinal() + n  # distractors: a leap day too many or too few, 365-day years
    years, rest = divmod(n, 365)
    flat = dt.date(day.year + years, day.month, min(day.day, 28)) + dt.timedelta(days=rest)
    slips = {long_date(dt.date.fromordinal(naive + d)) for d in (-1, 1)} | {long_date(flat)}
    slips.discard(long_date(target))
    if len(slips) < 3:
        slips.add(long_date(target + dt.timedelta(days=2)))
    meta = {"kind": "date_after", "date": day.isoformat(), "days": n}
    question = (
        f"Which date is exactly {n} days after {event}? All dates are in the Gregorian calendar."
    )
    return {
        "question": question,
        "scorer": "mc",
        "correct": long_date(target),
        "distractors": sorted(slips)[:3],
        "meta": meta,
    }


# ---- proofs -----------------------------------------------------------------------------------
def days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (era arithmetic, no datetime)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146_097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719_468


def _zeller(y: int, m: int, d: int) -> str:
    if m < 3:
        m, y = m + 12, y - 1
    h = (d + 13 * (m + 1) // 5 + y % 100 + y % 100 // 4 + y // 400 - 2 * (y // 100)) % 7
    return ("Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday")[h]


def _iso(text: str) -> tuple[int, int, int]:
    y, m, d = (int(x) for x in text.split("-"))
    return y, m, d


def _days(row: dict[str, Any]) -> str:
    (a, b) = (days_from_civil(*_iso(d)) for d in row["meta"]["dates"])
    return str(b - a)


def _weekday(row: dict[str, Any]) -> str:
    return _zeller(*_iso(row["meta"]["date"]))


def _leap(row: dict[str, Any]) -> str:
    (right,) = [
        c for c in row["choices"] if int(c) % 4 == 0 and (int(c) % 100 or int(c) % 400 == 0)
    ]
    return right


def civil_of(text: str) -> int:
    """Days since 1970-01-01 of a date written as ``long_date`` writes it."""
    day, month, year = text.split()
    return days_from_civil(int(year), MONTHS.index(month) + 1, int(day))


def _date_after(row: dict[str, Any]) -> str:
    target = days_from_civil(*_iso(row["meta"]["date"])) + row["meta"]["days"]
    (right,) = [c for c in row["choices"] if civil_of(c) == target]
    return right


EXPECTED = {
    "days_between": _days,
    "weekday": _weekday,
    "leap_year": _leap,
    "date_after": _date_after,
}
