"""eval-code-v4: seeded inputs of the parsing families (see ``inputs``)."""

from __future__ import annotations

import itertools
import random
import re

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs, literal, reads, text

WORDS = ("a", "b", "ab", "key", "x y", "size", "k9", "tea")


def parse_pairs(task: Task, v: int) -> Inputs:
    sep, kv = reads(task, r's\.split\("(.+?)"\)'), reads(task, r'item\.split\("(.+?)"\)')

    def pair(rng: random.Random) -> str:
        space = " " if rng.random() < 0.3 else ""
        value = rng.choice((str(rng.randint(-999, 999)), "0", "-0", "007"))
        return f"{space}{rng.choice(WORDS)}{space}{kv}{space}{value}{space}"

    def draw(rng: random.Random) -> Args:
        return (sep.join(pair(rng) for _ in range(rng.randint(1, 6))),)

    edges: list[Args] = [("",), (f"a{kv}1",), (f"a{kv}-5",), (f"a{kv}1{sep}a{kv}2",)]
    edges += [(f" a {kv} 3 {sep} b{kv}4",), (f"x y{kv}0{sep}z{kv}-0",), (f"n{kv}007",)]
    edges += [(sep.join(f"k{i}{kv}{i * i - 9}" for i in range(8)),)]
    return Inputs(edges, draw)


def parse_duration(task: Task, v: int) -> Inputs:
    scale = literal(task, r"scale = (\{.*\})")
    units = "".join(scale)

    def draw(rng: random.Random) -> Args:
        parts = rng.randint(1, 6)
        return ("".join(f"{rng.randint(0, 999)}{rng.choice(units)}" for _ in range(parts)),)

    edges: list[Args] = [(f"{n}{u}",) for u in units for n in (0, 1, 100)]
    edges += [("".join(f"{n}{u}" for n, u in zip((2, 3, 4), p, strict=False)),)
              for p in itertools.permutations(units)]  # fmt: skip
    edges += [(f"1{u}2{u}",) for u in units]  # a unit more than once: every part counts
    edges += [(f"5{units[-1]}5{units[0]}5{units[-1]}",), (f"10{units[0]}" * 3,)]
    return Inputs(edges, draw)


def sum_quantities(task: Task, v: int) -> Inputs:
    unit = reads(task, r'\(\\d\+\)(\w+)"')

    def token(rng: random.Random) -> str:
        n = rng.randint(0, 999)
        forms = (f"{n}{unit}", f"{n}{unit}", f"{n} {unit}", str(n), unit, f"{n}{unit[0]}", "box")
        return rng.choice(forms)

    def draw(rng: random.Random) -> Args:
        seps = ("", " ", " ", ", ", "; ", "x")
        return ("".join(token(rng) + rng.choice(seps) for _ in range(rng.randint(1, 7))),)

    edges: list[Args] = [("",), (unit,), (f"0{unit}",), (f"5 {unit}",), (f"5{unit}{unit}",)]
    edges += [(f"12{unit}34{unit}",), (f"{unit}5",), (f"5{unit[0]} 6{unit}",), (f"a12{unit}",)]
    edges += [(f"1{unit} 2{unit} 3 {unit} 40{unit}",), (f"999{unit}1000{unit}",)]
    return Inputs(edges, draw)


def expand_ranges(task: Task, v: int) -> Inputs:
    sep = reads(task, r'if "(.+?)" in item')

    def item(rng: random.Random) -> str:
        a = rng.randint(0, 40)
        return f"{a}{sep}{a + rng.randint(0, 8)}" if rng.random() < 0.5 else str(a)

    def draw(rng: random.Random) -> Args:
        return (",".join(item(rng) for _ in range(rng.randint(1, 6))),)

    edges: list[Args] = [("",), ("0",), ("5",), (f"3{sep}3",), (f"0{sep}0",), ("1,1",)]
    edges += [("5,3,4",), (f"1{sep}3,2{sep}4",), (f"0{sep}30",), (f"10{sep}12,11",)]
    edges += [(f"7,0{sep}2,7",), (f"9{sep}10,0{sep}1",)]
    return Inputs(edges, draw)


def eval_expression(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        parts = [str(rng.randint(0, 20))]
        for _ in range(rng.randint(0, 8)):
            parts += [rng.choice("+-*"), str(rng.randint(0, 20))]
        return (" ".join(parts),)

    edges: list[Args] = [("0",), ("7",), ("12",), ("3 + 4",), ("3 - 4",), ("3 * 4",)]
    edges += [(f"6 {a} 3 {b} 2",) for a in "+-*" for b in "+-*"]
    edges += [("10 - 3 - 2",), ("2 * 3 * 4",), ("0 * 5 + 1",), ("1 - 2 * 3 - 4 + 5 * 6",)]
    return Inputs(edges, draw)


def split_quoted(task: Task, v: int) -> Inputs:
    d = reads(task, r'elif ch == "(.)":')

    def field(rng: random.Random) -> str:
        kind = rng.random()
        if kind < 0.2:
            return ""
        if kind < 0.6:
            return text(rng, "abc xy12", 1, 6)
        inner = "".join(rng.choice(("a", "b", " ", d, '""', "z")) for _ in range(rng.randint(0, 6)))
        return f'"{inner}"'

    def draw(rng: random.Random) -> Args:
        line = ""
        while not line:
            line = d.join(field(rng) for _ in range(rng.randint(1, 5)))
        return (line,)

    edges: list[Args] = [("a",), (d,), (d * 3,), ('""',), ('""""',), (f'"{d}"',), (" a ",)]
    edges += [(f'"a{d}b"{d}c',), (f'a{d}"b{d}c"',), (f'"x""y"{d}""',), (f'{d}"{d}"{d}',)]
    edges += [(f"a {d} b",), (f'"""a"""{d}b',)]
    return Inputs(edges, draw)


#: Each decimal digit as a pattern of the place's one (1), five (5) and ten (T) letters.
DIGIT_PATTERNS = ("", "1", "11", "111", "15", "5", "51", "511", "5111", "1T")


def _numeral(n: int) -> str:
    """The lower-case numeral of 1 <= n <= 3999, written digit by digit."""
    out = ""
    for place, letters in enumerate(("ivx", "xlc", "cdm", "m??")):  # one, five, ten
        pattern = DIGIT_PATTERNS[n // 10**place % 10]
        out = "".join(letters["15T".index(ch)] for ch in pattern) + out
    return out


def roman_to_int(task: Task, v: int) -> Inputs:
    upper = reads(task, r'zip\("(\w+)"') == "IVXLCDM"

    def numeral(n: int) -> Args:
        return (_numeral(n).upper() if upper else _numeral(n),)

    def draw(rng: random.Random) -> Args:
        return numeral(rng.randint(1, 3999))

    pairs = (4, 9, 40, 90, 400, 900)  # iv ix xl xc cd cm
    edges = [numeral(n) for n in (1, 5, 10, 50, 100, 500, 1000, *pairs)]
    edges += [numeral(n) for n in (14, 49, 99, 444, 494, 949, 999, 1444, 1994, 2449, 3999)]
    edges += [numeral(n) for n in (3888, 1900, 490, 3449, 404, 1409, 2004, 3)]
    return Inputs(edges, draw)


def compare_versions(task: Task, v: int) -> Inputs:
    sep = reads(task, r'a\.split\("(.)"\)')

    def version(rng: random.Random) -> str:
        return sep.join(
            str(rng.choice((0, 0, 1, 2, 9, 10, 11, 100))) for _ in range(rng.randint(1, 4))
        )

    def draw(rng: random.Random) -> Args:
        a = version(rng)
        b = (
            version(rng)
            if rng.random() < 0.6
            else a + sep + rng.choice(("0", "1", "0" + sep + "0"))
        )
        return (a, b) if rng.random() < 0.5 else (b, a)

    def j(*parts: str) -> str:
        return sep.join(parts)

    edges: list[Args] = [
        ("1", "1"),
        ("1", j("1", "0")),
        (j("1", "0", "0"), "1"),
        ("0", j("0", "0")),
    ]
    edges += [(j("1", "10"), j("1", "9")), (j("1", "2"), j("1", "10")), ("10", "9"), ("9", "10")]
    edges += [(j("1", "0", "1"), "1"), ("1", j("1", "0", "1")), (j("2", "1"), j("10", "0"))]
    edges += [(j("0", "1"), j("0", "0", "9")), (j("3", "0"), j("3", "0", "0", "0"))]
    return Inputs(edges, draw)


def decode_nested(task: Task, v: int) -> Inputs:
    o, c = re.findall(r'elif ch == "(.)":', task.reference)

    def encoded(rng: random.Random, depth: int) -> str:
        out = ""
        for _ in range(rng.randint(1, 3)):
            if depth < 3 and rng.random() < 0.5:
                count = rng.randint(1, 12) if depth == 0 else rng.randint(1, 3)
                out += f"{count}{o}{encoded(rng, depth + 1)}{c}"
            else:
                out += text(rng, "xyzw", 0 if depth else 1, 3)
        return out

    def draw(rng: random.Random) -> Args:
        return (encoded(rng, 0),)

    edges: list[Args] = [("",), ("a",), (f"1{o}a{c}",), (f"10{o}a{c}",), (f"3{o}{c}b",)]
    edges += [(f"3{o}ab{c}2{o}c{c}",), (f"2{o}2{o}2{o}a{c}{c}{c}",), (f"12{o}ab{c}c",)]
    edges += [(f"a2{o}b3{o}c{c}d{c}e",), (f"11{o}z{c}",), (f"2{o}10{o}x{c}{c}",)]
    return Inputs(edges, draw)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        parse_pairs, parse_duration, sum_quantities, expand_ranges, eval_expression,
        split_quoted, roman_to_int, compare_versions, decode_nested,
    )
}  # fmt: skip
