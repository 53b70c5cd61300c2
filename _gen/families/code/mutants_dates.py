"""eval-code-v3: the calendar and clock families of eval-code-v2 (``dates``) with their mutants
and the hidden inputs that kill them (see ``mutation``).

weekday is code2-0016's defect: the statement uses the Gregorian calendar for all years, but every
-v2 date was after 1582, so a solution that switches to the Julian calendar before the
Gregorian reform passed. Here hidden dates fall before 1582 and between 1582 and 1752 (when
Britain switched).
"""

from __future__ import annotations

import datetime as dt
import random

from families.code import dates
from families.code.base import src
from families.code.mutation import Strong, edit, param, strengthen

LEAP = " and (year % 100 != 0 or year % 400 == 0)"


def iso_day(rng: random.Random, low: int, high: int) -> str:
    start = dt.date(low, 1, 1)
    return (
        start + dt.timedelta(days=rng.randrange((dt.date(high, 1, 1) - start).days))
    ).isoformat()


def day_count(rng: random.Random, v: int) -> Strong:
    t = dates.day_count(rng, v)
    left = t.entry == "days_left"
    result = "sum(lengths) - number" if left else "number"
    return strengthen(
        t,
        [("2000-03-01",), ("2000-02-10",), ("2100-03-01",), (iso_day(rng, 1600, 2400),)],
        [
            ("every fourth year is a leap year", t.wrong),
            ("no leap years", edit(t.reference, ("29 if leap else 28", "28"))),
            ("forgets the 400-year rule", edit(t.reference, (LEAP, " and year % 100 != 0"))),
            (
                "counts the date itself" if left else "counts from 0",
                edit(
                    t.reference,
                    (f"return {result}", f"return {result} + 1" if left else "return number - 1"),
                ),
            ),
        ],
    )


def clock_gap(rng: random.Random, v: int) -> Strong:
    t = dates.clock_gap(rng, v)
    as_numbers = """
        def clock_gap(start: str, end: str) -> int:
            a, b = int(start.replace(":", "")), int(end.replace(":", ""))
            return (b - a) % 2400
    """
    late = f"{rng.randint(13, 23):02d}:{rng.randint(0, 59):02d}"
    early = f"{rng.randint(0, 11):02d}:{rng.randint(0, 59):02d}"
    return strengthen(
        t,
        [("22:30", "01:15"), (late, early)],
        [
            ("the difference without going forward", t.wrong),
            (
                "a full day when the times are equal",
                edit(t.reference, (") % (24 * 60)", ") % (24 * 60) or 24 * 60")),
            ),
            ("reads 'HH:MM' as the number HHMM", src(as_numbers)),
            ("does not wrap past midnight", edit(t.reference, (") % (24 * 60)", ")"))),
        ],
    )


def weekday(rng: random.Random, v: int) -> Strong:
    t = dates.weekday(rng, v)
    names = param(t.reference, r"return (\[.*\])\[h\]")
    short = "'Sat'" in names
    other_form = (
        repr([n[:3] for n in dates.WEEKDAYS[5:] + dates.WEEKDAYS[:5]])
        if not short
        else repr(list(dates.WEEKDAYS[5:] + dates.WEEKDAYS[:5]))
    )
    julian_before = """
        def weekday(date: str) -> str:
            year, month, day = (int(part) for part in date.split("-"))
            julian = (year, month, day) < @SWITCH
            if month < 3:
                month += 12
                year -= 1
            k, j = year % 100, year // 100
            if julian:
                h = (day + 13 * (month + 1) // 5 + k + k // 4 + 5 + 6 * j) % 7
            else:
                h = (day + 13 * (month + 1) // 5 + k + k // 4 + j // 4 + 5 * j) % 7
            return @NAMES[h]
    """
    return strengthen(
        t,
        [
            ("1492-10-12",),
            ("1700-03-01",),
            (iso_day(rng, 1000, 1580),),
            (iso_day(rng, 1583, 1750),),
        ],
        [
            ("no month shift for January and February", t.wrong),
            (
                "Julian calendar before the 1582 reform",
                src(julian_before, SWITCH=(1582, 10, 15), NAMES=names),
            ),
            (
                "Julian calendar before Britain's 1752 switch",
                src(julian_before, SWITCH=(1752, 9, 14), NAMES=names),
            ),
            ("a day off", edit(t.reference, ("][h]", "][(h + 1) % 7]"))),
            (
                "full names" if short else "three-letter names",
                edit(t.reference, (names, other_form)),
            ),
        ],
    )


def business_days(rng: random.Random, v: int) -> Strong:
    t = dates.business_days(rng, v)
    advance, count = (
        "        day += datetime.timedelta(days=1)\n",
        "        if day.weekday() < 5:\n",
    )
    step, counts_start = advance + count, count + "            n -= 1\n" + advance
    step += "            n -= 1\n"
    roll = "    while day.weekday() >= 5:\n        day += datetime.timedelta(days=1)\n"
    return strengthen(
        t,
        [("2024-03-10", 0), ("2024-03-07", 3), (iso_day(rng, 1990, 2060), rng.randint(5, 40))],
        [
            ("adds two days per five", t.wrong),
            ("counts date itself", edit(t.reference, (step, counts_start))),
            (
                "Monday to Thursday only (isoweekday)",
                edit(t.reference, ("day.weekday() < 5", "day.isoweekday() < 5")),
            ),
            (
                "a weekend date moves to Monday first",
                edit(t.reference, ("    while n > 0:", roll + "    while n > 0:")),
            ),
            (
                "Saturday is a business day",
                edit(t.reference, ("day.weekday() < 5", "day.weekday() < 6")),
            ),
        ],
    )


def thirteenths(rng: random.Random, v: int) -> Strong:
    t = dates.thirteenths(rng, v)
    first = rng.randint(1601, 2300)
    return strengthen(
        t,
        [(1899, 1901), (first, first + rng.randint(1, 30))],
        [
            ("leaves out last_year", t.wrong),
            (
                "leaves out first_year",
                edit(t.reference, ("year >= first_year", "year > first_year")),
            ),
            ("every fourth year is a leap year", edit(t.reference, (LEAP, ""))),
            ("a day off", edit(t.reference, ("(days + 12) % 7", "(days + 13) % 7"))),
        ],
    )


def palindrome_time(rng: random.Random, v: int) -> Strong:
    t = dates.palindrome_time(rng, v)
    seconds = "86400" in t.reference
    hours = "{total // 3600:02d}" if seconds else "{total // 60:02d}"
    clock = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}" + (":00" if seconds else "")
    return strengthen(
        t,
        [("01:00:00" if seconds else "01:00",), (clock,)],
        [
            ("t itself when it is a palindrome", t.wrong),
            (
                "does not wrap past midnight",
                edit(t.reference, ("% 86400", "") if seconds else ("% 1440", "")),
            ),
            ("no leading zero on the hour", edit(t.reference, (hours, hours.replace(":02d", "")))),
        ],
    )


FAMILIES = [
    day_count,
    clock_gap,
    weekday,
    business_days,
    thirteenths,
    palindrome_time,
]
