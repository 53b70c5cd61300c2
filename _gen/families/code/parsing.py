"""Parsing task families of eval-code-v1 (see ``base`` for the task shape)."""

from __future__ import annotations

import csv
import random
import re

from families.code.base import Task, mutate, src, task, words


def parse_pairs(rng: random.Random, v: int) -> Task:
    sep, kv = ((";", "="), (",", ":"), ("|", "="), ("&", "="), (";", ":"))[v]
    body = """
        def parse_pairs(s: str) -> dict[str, int]:
            out = {}
            for item in s.split("@S"):
                if item.strip():
                    key, value = item.split("@KV")
                    out[key.strip()] = int(value)
            return out
    """
    keys = words(rng, 4)
    text = sep.join(f"{k}{kv}{rng.randint(-99, 999)}" for k in keys)
    spaced = f" x {kv} 1{sep}y{kv} 2 {sep} x{kv}3"
    inputs = [("",), (text,), (spaced,), (f"a{kv}0",)]

    def oracle(s: str) -> dict[str, int]:
        pairs = re.findall(rf"\s*([^{re.escape(sep + kv)}]+?)\s*{re.escape(kv)}\s*(-?\d+)\s*", s)
        return {k: int(val) for k, val in pairs}

    return task(
        "parsing",
        "easy",
        "def parse_pairs(s: str) -> dict[str, int]",
        f"s holds key/value pairs like 'a{kv}1{sep}b{kv}2': pairs are separated by "
        f"'{sep}', and each key is separated from its integer value by '{kv}'. Return a "
        "dict mapping each key, with surrounding spaces removed, to its value as an int; "
        "a later duplicate key overwrites an earlier one, and '' gives {}.",
        src(body, S=sep, KV=kv),
        mutate(src(body, S=sep, KV=kv), "key.strip()", "key"),
        inputs,
        oracle,
    )


DURATIONS = (
    ("hm", "minutes", (60, 1)),
    ("dh", "hours", (24, 1)),
    ("ms", "seconds", (60, 1)),
    ("hms", "seconds", (3600, 60, 1)),
    ("wd", "days", (7, 1)),
)


def parse_duration(rng: random.Random, v: int) -> Task:
    units, result, factors = DURATIONS[v]
    scale = dict(zip(units, factors, strict=True))
    body = """
        import re

        def parse_duration(s: str) -> int:
            scale = @SCALE
            return sum(int(n) * scale[u] for n, u in re.findall(r"(\\d+)([@U])", s))
    """

    def oracle(s: str) -> int:
        total, number = 0, ""
        for ch in s:
            if ch.isdigit():
                number += ch
            else:
                total, number = total + int(number) * scale[ch], ""
        return total

    parts = [f"{rng.randint(10, 99)}{u}" for u in units]
    inputs = [(f"1{units[-1]}",), ("".join(parts),), ("".join(reversed(parts)),), (f"0{units[0]}",)]
    named = ", ".join(f"'{u}'" for u in units)
    steps = zip(units, units[1:], factors, factors[1:], strict=False)
    rates = "; ".join(f"1{a} = {x // y}{b}" for a, b, x, y in steps)
    return task(
        "parsing",
        "easy",
        "def parse_duration(s: str) -> int",
        f"s is a duration such as '{parts[0]}{parts[-1]}': one or more parts, each a "
        f"whole number immediately followed by one of the unit letters {named}, in any "
        f"order ({rates}). "
        f"Return the total length in {result}.",
        src(body, SCALE=scale, U=units),
        mutate(src(body, SCALE=scale, U=units), "\\d+", "\\d"),
        inputs,
        oracle,
    )


def sum_quantities(rng: random.Random, v: int) -> Task:
    unit = ("kg", "km", "ml", "cm", "mg")[v]
    body = """
        import re

        def sum_quantities(s: str) -> int:
            return sum(int(n) for n in re.findall(r"(\\d+)@U", s))
    """

    def oracle(s: str) -> int:
        total = 0
        for i, ch in enumerate(s):
            if ch.isdigit() and (i == 0 or not s[i - 1].isdigit()):
                j = i
                while j < len(s) and s[j].isdigit():
                    j += 1
                total += int(s[i:j]) if s.startswith(unit, j) else 0
        return total

    a, b, c = rng.randint(2, 999), rng.randint(2, 99), rng.randint(2, 999)
    text = f"{a}{unit} in box {b}, then {c}{unit} and {b} {unit} spare; {a + c}{unit}!"
    inputs = [("",), (f"7 {unit}",), (text,), (f"12{unit}34{unit}",)]
    return task(
        "parsing",
        "medium",
        "def sum_quantities(s: str) -> int",
        f"Return the sum of every whole number in s that is immediately followed by the "
        f"unit '{unit}' (no space in between), e.g. '3{unit}'. Ignore all other numbers, "
        f"including ones followed by a space and then '{unit}'.",
        src(body, U=unit),
        mutate(src(body, U=unit), f"+){unit}", f"+)\\s*{unit}"),
        inputs,
        oracle,
    )


def expand_ranges(rng: random.Random, v: int) -> Task:
    sep = ("-", "..", ":", "~", "to")[v]
    body = """
        def expand_ranges(s: str) -> list[int]:
            found = set()
            for item in s.split(","):
                if "@S" in item:
                    a, b = item.split("@S")
                    found.update(range(int(a), int(b) + 1))
                elif item.strip():
                    found.add(int(item))
            return sorted(found)
    """

    def oracle(s: str) -> list[int]:
        out: set[int] = set()
        for m in re.finditer(rf"(\d+)\s*(?:{re.escape(sep)}\s*(\d+))?", s):
            out |= set(range(int(m[1]), int(m[2] or m[1]) + 1))
        return sorted(out)

    a, b = rng.randint(0, 20), rng.randint(25, 40)
    text = f"{b},{a}{sep}{a + 3},{rng.randint(0, 50)},{a + 2}{sep}{a + 6}"
    inputs = [("",), ("5",), (f"3{sep}3",), (text,), (f"{b}{sep}{b + 1},{a}",)]
    return task(
        "parsing",
        "medium",
        "def expand_ranges(s: str) -> list[int]",
        f"s is a comma-separated list whose items are non-negative integers or inclusive "
        f"ranges written 'a{sep}b' (a <= b), e.g. '1{sep}3,7'. Return the sorted list of "
        "all distinct integers the items cover ([] for '').",
        src(body, S=sep),
        mutate(src(body, S=sep), "int(b) + 1", "int(b)"),
        inputs,
        oracle,
    )


PRECEDENCE = (  # (binding strength per operator, how the statement says it)
    ({"*": 2, "+": 1, "-": 1}, "'*' binds tighter than '+' and '-', which are equal"),
    ({"*": 1, "+": 1, "-": 1}, "all three operators have the same precedence"),
    ({"*": 1, "+": 2, "-": 2}, "'+' and '-' bind tighter than '*'"),
    ({"*": 2, "+": 2, "-": 1}, "'*' and '+' are equal and bind tighter than '-'"),
    ({"*": 1, "+": 2, "-": 1}, "'+' binds tighter than '*' and '-', which are equal"),
)


def eval_expression(rng: random.Random, v: int) -> Task:
    prec, how = PRECEDENCE[v]
    body = """
        def eval_expression(s: str) -> int:
            prec = @PREC
            values, ops = [], []

            def reduce() -> None:
                b, a, op = values.pop(), values.pop(), ops.pop()
                values.append(a + b if op == "+" else a - b if op == "-" else a * b)

            for token in s.split():
                if token in prec:
                    while ops and prec[ops[-1]] >= prec[token]:
                        reduce()
                    ops.append(token)
                else:
                    values.append(int(token))
            while ops:
                reduce()
            return values[0]
    """

    def oracle(s: str) -> int:
        tokens = s.split()
        if len(tokens) == 1:
            return int(tokens[0])
        weakest = min(prec[t] for t in tokens[1::2])  # split at the last weakest operator
        i = max(i for i in range(1, len(tokens), 2) if prec[tokens[i]] == weakest)
        a, b = oracle(" ".join(tokens[:i])), oracle(" ".join(tokens[i + 1 :]))
        return {"+": a + b, "-": a - b, "*": a * b}[tokens[i]]

    def expr(n: int) -> str:
        parts = [str(rng.randint(1, 20))]
        for _ in range(n):
            parts += [rng.choice("+-*"), str(rng.randint(1, 20))]
        return " ".join(parts)

    inputs = [("7",), ("10 - 3 - 2",), ("2 * 3 + 4 - 1 * 2",), (expr(5),), (expr(7),)]
    return task(
        "parsing",
        "hard",
        "def eval_expression(s: str) -> int",
        f"s is an arithmetic expression of non-negative integers and the operators '+', "
        f"'-' and '*', all separated by single spaces, with no parentheses. Evaluate it "
        f"with these precedence rules: {how}; operators of equal precedence are applied "
        "left to right.",
        src(body, PREC=prec),
        mutate(src(body, PREC=prec), "] >= prec[", "] > prec["),
        inputs,
        oracle,
    )


def split_quoted(rng: random.Random, v: int) -> Task:
    d = (",", ";", "|", ":", "/")[v]
    body = """
        def split_quoted(line: str) -> list[str]:
            fields, cur, quoted, i = [], "", False, 0
            while i < len(line):
                ch = line[i]
                if quoted:
                    if ch == '"' and line[i + 1 : i + 2] == '"':
                        cur += '"'
                        i += 1
                    elif ch == '"':
                        quoted = False
                    else:
                        cur += ch
                elif ch == '"':
                    quoted = True
                elif ch == "@D":
                    fields.append(cur)
                    cur = ""
                else:
                    cur += ch
                i += 1
            fields.append(cur)
            return fields
    """
    w = words(rng, 4)
    inputs = [
        (f"a{d}b{d}{d}c",),
        (f'"{w[0]}{d}{w[1]}"{d}{w[2]}',),
        (f'x{d}"say ""hi"""{d}"{w[3]}"',),
        (f'{d}""',),
    ]
    return task(
        "parsing",
        "hard",
        "def split_quoted(line: str) -> list[str]",
        f"Split one non-empty line of delimited text into its fields. Fields are "
        f"separated by '{d}'. A field may be wrapped in double quotes; then it may "
        f"contain '{d}', and two double quotes in a row inside it stand for one "
        "double-quote character. The wrapping quotes are not part of the value.",
        src(body, D=d),
        mutate(src(body, D=d), """ and line[i + 1 : i + 2] == '"'""", " and False"),
        inputs,
        lambda line: next(csv.reader([line], delimiter=d)),
    )


FAMILIES = [
    parse_pairs,
    parse_duration,
    sum_quantities,
    expand_ranges,
    eval_expression,
    split_quoted,
]
