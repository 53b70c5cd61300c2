"""eval-code-v4: seeded inputs of the calendar, clock and encoding families (see ``inputs``)."""

from __future__ import annotations

import datetime as dt
import random

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs, text

#: Every month's last day in a leap year and a common one, and the century years either side of
#: the leap-year rule.
MONTH_ENDS = [
    (dt.date(y + m // 12, m % 12 + 1, 1) - dt.timedelta(days=1)).isoformat()
    for y in (2023, 2024)
    for m in range(1, 13)
]
CENTURIES = ["1600-02-29", "1700-02-28", "1700-03-01", "1900-02-28", "1900-03-01", "2000-02-29"]
CENTURIES += ["2000-03-01", "2100-02-28", "2100-03-01", "2400-02-29", "2400-12-31", "1601-01-01"]


def _day(rng: random.Random, low: int, high: int) -> str:
    first = dt.date(low, 1, 1).toordinal()
    return dt.date.fromordinal(rng.randint(first, dt.date(high, 12, 31).toordinal())).isoformat()


def _dates(low: int, high: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (_day(rng, low, high),)

    return Inputs([(d,) for d in MONTH_ENDS + CENTURIES], draw)


def day_count(task: Task, v: int) -> Inputs:
    inputs = _dates(1583, 2500)
    return Inputs([*inputs.edges, ("2023-01-01",), ("2024-01-01",)], inputs.draw)


def weekday(task: Task, v: int) -> Inputs:
    inputs = _dates(1, 2999)
    days = [(d,) for d in ("0001-01-01", "0400-02-29", "1582-10-04", "1582-10-15", "9999-12-31")]
    week = [(f"2024-01-{d:02d}",) for d in range(1, 8)] + [
        (f"2023-02-{d:02d}",) for d in range(1, 8)
    ]
    return Inputs([*inputs.edges, *days, *week], inputs.draw)


def thirteenths(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:  # the reference counts from 1601: keep years early
        first = rng.randint(1601, 1700)
        return (first, first + rng.randint(-2, 30))

    edges: list[Args] = [(1601, 1601), (1601, 1602), (2000, 1999), (1999, 2000), (1700, 1700)]
    edges += [(2000, 2000), (1900, 1900), (1800, 1800), (1601, 1700), (2100, 2101)]
    edges += [(y, y) for y in range(1605, 1612)]  # each weekday as 1 January's
    return Inputs(edges, draw)


def clock_gap(task: Task, v: int) -> Inputs:
    def clock(rng: random.Random) -> str:
        return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"

    def draw(rng: random.Random) -> Args:
        return (clock(rng), clock(rng))

    edges: list[Args] = [
        ("00:00", "00:00"),
        ("00:00", "23:59"),
        ("23:59", "00:00"),
        ("12:00", "11:59"),
    ]
    edges += [("11:59", "12:00"), ("23:00", "01:00"), ("01:00", "23:00"), ("09:30", "09:29")]
    edges += [("00:01", "00:00"), ("12:34", "12:34"), ("06:45", "18:45"), ("18:45", "06:45")]
    return Inputs(edges, draw)


def business_days(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (_day(rng, 1990, 2060), rng.randint(0, 40))

    monday = dt.date(2024, 3, 4)
    edges: list[Args] = [
        ((monday + dt.timedelta(days=d)).isoformat(), n) for d in range(7) for n in (0, 1, 5, 6)
    ]
    edges += [("2024-02-28", 2), ("2023-12-29", 1), ("2024-12-31", 3), ("2024-03-09", 10)]
    return Inputs(edges, draw)


def palindrome_time(task: Task, v: int) -> Inputs:
    seconds = "86400" in task.reference

    def clock(h: int, m: int, s: int) -> Args:
        return (f"{h:02d}:{m:02d}:{s:02d}" if seconds else f"{h:02d}:{m:02d}",)

    def draw(rng: random.Random) -> Args:
        return clock(rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))

    edges = [
        clock(23, 59, 59),
        clock(0, 0, 0),
        clock(12, 21, 21),
        clock(12, 20, 59),
        clock(13, 31, 31),
    ]
    edges += [
        clock(15, 59, 59),
        clock(22, 22, 22),
        clock(23, 32, 32),
        clock(5, 50, 50),
        clock(9, 59, 0),
    ]
    edges += [clock(10, 1, 0), clock(11, 11, 11), clock(19, 59, 59)]
    return Inputs(edges, draw)


def _luhn_total(digits: str) -> int:
    return sum(sum(divmod(int(d) * (1 + i % 2), 10)) for i, d in enumerate(reversed(digits)))


def luhn(task: Task, v: int) -> Inputs:
    check = task.entry == "luhn_check_digit"

    def spaced(rng: random.Random, digits: str) -> str:
        return "".join(d + (" " if rng.random() < 0.15 else "") for d in digits).rstrip()

    def draw(rng: random.Random) -> Args:
        digits = text(rng, "0123456789", 1, 19)
        if not check and rng.random() < 0.5:  # a valid number as often as not
            digits += str(-_luhn_total(digits + "0") % 10)
        return (spaced(rng, digits),)

    edges: list[Args] = [(d,) for d in "0123456789"] + [("00",), ("18",), ("91",), ("9" * 16,)]
    edges += [("79927398713",), ("79927398710",), ("4111 1111 1111 1111",), ("1 2 3 4",)]
    edges += [("5" * 19,), ("059",), ("0000000000000000000",)]
    return Inputs(edges, draw)


def isbn_check(task: Task, v: int) -> Inputs:
    size = 12 if task.entry == "isbn13_check" else 9

    def draw(rng: random.Random) -> Args:
        return (text(rng, "0123456789", size, size),)

    edges: list[Args] = [("0" * size,), ("9" * size,), ("1" * size,), ("0" * (size - 1) + "1",)]
    edges += [
        ("1" + "0" * (size - 1),),
        ("01" * (size // 2) + "0" * (size % 2),),
        ("123456789012"[:size],),
    ]
    return Inputs(edges, draw)


def _encode(n: int, zigzag: bool) -> list[int]:
    """``n``'s varint bytes (zigzag-mapped first when signed): 7 bits a byte, low group first."""
    n = 2 * n if zigzag and n >= 0 else (-2 * n - 1 if zigzag else n)
    out = []
    while True:
        group, n = n & 0x7F, n >> 7
        out.append(group | (0x80 if n else 0))
        if not n:
            return out


def varints(task: Task, v: int) -> Inputs:
    zigzag = "^ -(value & 1)" in task.reference

    def value(rng: random.Random) -> int:
        groups = rng.randint(1, 9)  # every group count, not only numbers near the prompt's
        n = (
            rng.randrange(1 << (7 * (groups - 1)), 1 << (7 * groups))
            if groups > 1
            else rng.randrange(128)
        )
        n = n // 2 if zigzag else n
        return -n - 1 if zigzag and rng.random() < 0.5 else n

    def draw(rng: random.Random) -> Args:
        return ([b for _ in range(rng.randint(1, 5)) for b in _encode(value(rng), zigzag)],)

    limits = [(1 << (7 * g)) - 1 for g in range(1, 10)]  # the largest value of g groups
    unsigned = sorted({0, 1, *limits, *(x + 1 for x in limits)})
    values = [x // 2 for x in unsigned] + [-(x // 2) - 1 for x in unsigned] if zigzag else unsigned
    edges: list[Args] = [([],)] + [(_encode(x, zigzag),) for x in values]
    edges += [([b for x in values[::3] for b in _encode(x, zigzag)],)]
    return Inputs(edges, draw)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        day_count, weekday, thirteenths, clock_gap, business_days, palindrome_time, luhn,
        isbn_check, varints,
    )
}  # fmt: skip
