"""Calendar and clock task families for eval-code-v2, in the "formats" category with
``checksums`` (task shape in ``base``; ``inputs[1]`` is the prompt's worked example,
the rest are hidden tests). Oracles use ``datetime`` or brute force where references count by
hand.
"""

from __future__ import annotations

import datetime as dt
import random

from families.code.base import Task, mutate, src, task

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _date(rng: random.Random, low: int = 1800, high: int = 2199) -> str:
    day = dt.date(low, 1, 1) + dt.timedelta(days=rng.randrange((high - low) * 365))
    return day.isoformat()


def day_count(rng: random.Random, v: int) -> Task:
    left = rng.random() < 0.5
    body = """
        def @NAME(date: str) -> int:
            year, month, day = (int(part) for part in date.split("-"))
            leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
            lengths = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            number = sum(lengths[: month - 1]) + day
            return @RESULT
    """
    subs = {
        "NAME": "days_left" if left else "day_of_year",
        "RESULT": "sum(lengths) - number" if left else "number",
    }

    def oracle(date: str) -> int:
        d = dt.date.fromisoformat(date)
        if left:
            return (dt.date(d.year, 12, 31) - d).days
        return (d - dt.date(d.year, 1, 1)).days + 1

    inputs = [("2001-01-01",), (_date(rng),), ("1900-03-01",), (_date(rng),), ("2000-12-31",)]
    inputs += [("1900-02-10",)]
    what = (
        "how many days of its year come after it (0 for December 31)"
        if left
        else "its day number within its year (1 for January 1)"
    )
    return task(
        "formats",
        "easy",
        f"def {subs['NAME']}(date: str) -> int",
        "date is a date of the Gregorian calendar written 'YYYY-MM-DD'. Return "
        f"{what}. Leap years are the years divisible by 4, except those divisible by 100 "
        "but not by 400.",
        src(body, **subs),
        mutate(src(body, **subs), " and (year % 100 != 0 or year % 400 == 0)", ""),
        inputs,
        oracle,
    )


def clock_gap(rng: random.Random, v: int) -> Task:
    body = """
        def clock_gap(start: str, end: str) -> int:
            h1, m1 = (int(x) for x in start.split(":"))
            h2, m2 = (int(x) for x in end.split(":"))
            return ((h2 * 60 + m2) - (h1 * 60 + m1)) % (24 * 60)
    """

    def oracle(start: str, end: str) -> int:
        day = dt.datetime(2000, 1, 1)
        a = day.replace(hour=int(start[:2]), minute=int(start[3:]))
        b = day.replace(hour=int(end[:2]), minute=int(end[3:]))
        if b < a:
            b += dt.timedelta(days=1)
        return (b - a).seconds // 60

    def clock() -> str:
        return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"

    inputs = [("08:00", "08:00"), (clock(), clock()), ("23:50", "00:10"), (clock(), clock())]
    inputs += [("00:00", "23:59")]
    return task(
        "formats",
        "easy",
        "def clock_gap(start: str, end: str) -> int",
        "start and end are times of day on a 24-hour clock written 'HH:MM'. Return how many "
        "minutes pass from start until the clock next shows end, going forward (past midnight "
        "if needed); 0 when they are equal.",
        src(body),
        mutate(src(body), ") % (24 * 60)", ")").replace("return (", "return abs("),
        inputs,
        oracle,
    )


def weekday(rng: random.Random, v: int) -> Task:
    short = rng.random() < 0.5
    body = """
        def weekday(date: str) -> str:
            year, month, day = (int(part) for part in date.split("-"))
            if month < 3:
                month += 12
                year -= 1
            k, j = year % 100, year // 100
            h = (day + 13 * (month + 1) // 5 + k + k // 4 + j // 4 + 5 * j) % 7
            return @NAMES[h]
    """
    names = [WEEKDAYS[(i + 5) % 7] for i in range(7)]  # Zeller: 0 is Saturday
    names = [n[:3] for n in names] if short else names

    def oracle(date: str) -> str:
        name = WEEKDAYS[dt.date.fromisoformat(date).weekday()]
        return name[:3] if short else name

    inputs = [("2000-01-01",), (_date(rng),), ("2024-02-29",), (_date(rng),), ("1900-03-01",)]
    inputs += [(_date(rng, 1600, 1700),)]
    form = (
        "its three-letter English abbreviation, such as 'Mon'"
        if short
        else "its English name, such as 'Monday'"
    )
    return task(
        "formats",
        "medium",
        "def weekday(date: str) -> str",
        "date is a date of the Gregorian calendar (used for all years, also before it was "
        f"adopted) written 'YYYY-MM-DD'. Return its day of the week as {form}.",
        src(body, NAMES=names),
        mutate(
            src(body, NAMES=names),
            "    if month < 3:\n        month += 12\n        year -= 1\n",
            "",
        ),
        inputs,
        oracle,
    )


def business_days(rng: random.Random, v: int) -> Task:
    body = """
        import datetime

        def add_business_days(date: str, n: int) -> str:
            day = datetime.date.fromisoformat(date)
            while n > 0:
                day += datetime.timedelta(days=1)
                if day.weekday() < 5:
                    n -= 1
            return day.isoformat()
    """
    wrong = """
        import datetime

        def add_business_days(date: str, n: int) -> str:
            day = datetime.date.fromisoformat(date)
            return (day + datetime.timedelta(days=n + 2 * (n // 5))).isoformat()
    """

    def oracle(date: str, n: int) -> str:
        ordinal = dt.date.fromisoformat(date).toordinal()
        while n:
            ordinal += 1
            n -= ordinal % 7 not in (0, 6)  # ordinal 1 (0001-01-01) is a Monday
        return dt.date.fromordinal(ordinal).isoformat()

    inputs = [("2024-03-06", 0), (_date(rng, 1990, 2060), rng.randint(1, 30)), ("2024-03-08", 1)]
    inputs += [(_date(rng, 1990, 2060), rng.randint(30, 90)), ("2024-03-09", 5)]
    return task(
        "formats",
        "medium",
        "def add_business_days(date: str, n: int) -> str",
        "date is a day written 'YYYY-MM-DD' and n >= 0. Business days are Monday to Friday. "
        "Return the date reached by moving forward day by day from date until n business days "
        "have been passed (counting only days after date), in the same form; n = 0 returns "
        "date itself, even on a weekend.",
        src(body),
        src(wrong),
        inputs,
        oracle,
    )


def thirteenths(rng: random.Random, v: int) -> Task:
    target = rng.randrange(7)
    body = """
        def count_13ths(first_year: int, last_year: int) -> int:
            count = 0
            days = 0  # days from 1 January 1601 (a Monday) to the 13th being checked
            for year in range(1601, last_year + 1):
                leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
                lengths = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
                for length in lengths:
                    if year >= first_year and (days + 12) % 7 == @T:
                        count += 1
                    days += length
            return count
    """

    def oracle(first_year: int, last_year: int) -> int:
        return sum(
            dt.date(y, m, 13).weekday() == target
            for y in range(first_year, last_year + 1)
            for m in range(1, 13)
        )

    one = rng.randint(1700, 2300)
    while oracle(one, one) == 0:
        one += 1
    a = rng.randint(1650, 2300)
    inputs = [
        (2001, 2000),
        (a, a + rng.randint(3, 40)),
        (one, one),
        (1601, 1601 + rng.randint(0, 5)),
    ]
    inputs += [(rng.randint(1900, 2000), rng.randint(2001, 2100))]
    return task(
        "formats",
        "hard",
        "def count_13ths(first_year: int, last_year: int) -> int",
        f"Return how many months of the years first_year to last_year (both included; "
        f"1601 <= first_year) have their 13th day on a {WEEKDAYS[target]}, in the Gregorian "
        "calendar. Return 0 when first_year > last_year.",
        src(body, T=target),
        mutate(src(body, T=target), "range(1601, last_year + 1)", "range(1601, last_year)"),
        inputs,
        oracle,
    )


def palindrome_time(rng: random.Random, v: int) -> Task:
    seconds = rng.random() < 0.5
    body = """
        def next_palindrome_time(t: str) -> str:
            parts = [int(x) for x in t.split(":")]
            step = 0
            while True:
                step += 1
                @LOOP
                if text.replace(":", "") == text.replace(":", "")[::-1]:
                    return text
    """
    loop_s = (
        "total = (parts[0] * 3600 + parts[1] * 60 + parts[2] + step) % 86400\n"
        '        text = f"{total // 3600:02d}:{total // 60 % 60:02d}:{total % 60:02d}"'
    )
    loop_m = (
        "total = (parts[0] * 60 + parts[1] + step) % 1440\n"
        '        text = f"{total // 60:02d}:{total % 60:02d}"'
    )
    loop = loop_s if seconds else loop_m

    def oracle(t: str) -> str:
        fmt = "%H:%M:%S" if seconds else "%H:%M"
        now = dt.datetime.strptime(t, fmt)
        unit = dt.timedelta(seconds=1) if seconds else dt.timedelta(minutes=1)
        for _ in range(86400):
            now += unit
            digits = now.strftime(fmt).replace(":", "")
            if digits == digits[::-1]:
                return now.strftime(fmt)
        raise AssertionError(t)

    def clock() -> str:
        stamp = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
        return stamp + (f":{rng.randint(0, 59):02d}" if seconds else "")

    fixed = "12:55:21" if seconds else "12:21"
    late = "23:59:59" if seconds else "23:59"
    inputs = [(late,), (clock(),), (fixed,), (clock(),), (clock(),)]
    form = "'HH:MM:SS'" if seconds else "'HH:MM'"
    return task(
        "formats",
        "hard",
        "def next_palindrome_time(t: str) -> str",
        f"t is a time of day on a 24-hour clock written {form} with leading zeros. Return, in "
        "the same form, the first time strictly after t (wrapping past midnight to 00:00 if "
        "needed) whose digits, read without the colons, are the same forwards and backwards.",
        src(body, LOOP=loop),
        mutate(src(body, LOOP=loop), "step = 0\n", "step = -1\n"),
        inputs,
        oracle,
    )


FAMILIES = [
    day_count,
    clock_gap,
    weekday,
    business_days,
    thirteenths,
    palindrome_time,
]
