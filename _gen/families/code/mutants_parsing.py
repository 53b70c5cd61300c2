"""eval-code-v3: the parsing families of eval-code-v1 (``parsing``) with their mutants and the
hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import parsing
from families.code.base import src, words
from families.code.mutation import Strong, edit, param, strengthen


def parse_pairs(rng: random.Random, v: int) -> Strong:
    t = parsing.parse_pairs(rng, v)
    sep, kv = (
        param(t.reference, r's\.split\("(.+?)"\)'),
        param(t.reference, r'item\.split\("(.+?)"\)'),
    )
    signed = """
        import re

        def parse_pairs(s: str) -> dict[str, int]:
            out = {}
            for item in s.split("@S"):
                if item.strip():
                    key, value = item.split("@KV")
                    out[key.strip()] = int(re.sub(r"\\D", "", value))
            return out
    """
    seeded = sep.join(f" {w}{kv}{rng.randint(-50, 50)} " for w in words(rng, 3))
    return strengthen(
        t,
        [(f"neg{kv}-7{sep}pos{kv}7",), (seeded,)],
        [
            ("keeps the spaces around keys", t.wrong),
            (
                "the first of duplicate keys wins",
                edit(
                    t.reference,
                    ("out[key.strip()] = int(value)", "out.setdefault(key.strip(), int(value))"),
                ),
            ),
            ("keeps values as strings", edit(t.reference, ("int(value)", "value.strip()"))),
            (
                "fails on the empty string",
                edit(
                    t.reference,
                    ("        if item.strip():\n            key", "        key"),
                    ("            out[", "        out["),
                ),
            ),
            ("drops the minus sign", src(signed, S=sep, KV=kv)),
        ],
    )


def parse_duration(rng: random.Random, v: int) -> Strong:
    t = parsing.parse_duration(rng, v)
    units, _, _ = parsing.DURATIONS[v]
    scale = param(t.reference, r"scale = (\{.*\})")
    in_order = f"""
        import re

        def parse_duration(s: str) -> int:
            scale = {scale}
            return sum(int(n) * f for n, f in zip(re.findall(r"\\d+", s), scale.values()))
    """
    first_only = f"""
        import re

        def parse_duration(s: str) -> int:
            scale = {scale}
            found = re.search(r"(\\d+)([{units}])", s)
            return int(found[1]) * scale[found[2]]
    """
    mixed = "".join(f"{rng.randint(1, 40)}{u}" for u in rng.sample(units, len(units)))
    return strengthen(
        t,
        [(f"3{units[-1]}12{units[0]}",), (mixed,)],
        [
            ("reads one digit per number", t.wrong),
            ("takes the numbers in the order of the units", src(in_order)),
            ("reads the first part only", src(first_only)),
            (
                "ignores the unit letters",
                src("""
                import re

                def parse_duration(s: str) -> int:
                    return sum(int(n) for n in re.findall(r"\\d+", s))
            """),
            ),
        ],
    )


def sum_quantities(rng: random.Random, v: int) -> Strong:
    t = parsing.sum_quantities(rng, v)
    unit = ("kg", "km", "ml", "cm", "mg")[v]
    a, b = rng.randint(2, 99), rng.randint(100, 999)
    return strengthen(
        t,
        [(f"5{unit} 5 {unit} x9{unit}5",), (f"{a}{unit}, {b} items, {a + b}{unit}",)],
        [
            ("allows a space before the unit", t.wrong),
            ("adds every number", edit(t.reference, (f"(\\d+){unit}", "(\\d+)"))),
            ("reads one digit per number", edit(t.reference, (f"(\\d+){unit}", f"(\\d){unit}"))),
            (
                "counts the quantities instead of adding them",
                edit(t.reference, ("sum(int(n) for n in ", "len(("), ("s))", "s)))")),
            ),
        ],
    )


def expand_ranges(rng: random.Random, v: int) -> Strong:
    t = parsing.expand_ranges(rng, v)
    sep = ("-", "..", ":", "~", "to")[v]
    repeats = """
        def expand_ranges(s: str) -> list[int]:
            found = []
            for item in s.split(","):
                if "@S" in item:
                    a, b = item.split("@S")
                    found += range(int(a), int(b) + 1)
                elif item.strip():
                    found.append(int(item))
            return sorted(found)
    """
    given_order = """
        def expand_ranges(s: str) -> list[int]:
            found = []
            for item in s.split(","):
                if "@S" in item:
                    a, b = item.split("@S")
                    found += [x for x in range(int(a), int(b) + 1) if x not in found]
                elif item.strip() and int(item) not in found:
                    found.append(int(item))
            return found
    """
    a = rng.randint(0, 30)
    return strengthen(
        t,
        [(f"{a + 5}{sep}{a + 7},{a}{sep}{a + 2},{a + 6}",)],
        [
            ("leaves out the end of a range", t.wrong),
            ("keeps repeats", src(repeats, S=sep)),
            ("in the order given", src(given_order, S=sep)),
            ("fails on the empty string", edit(t.reference, ("elif item.strip():", "else:"))),
        ],
    )


def _reversed_precedence(prec: dict[str, int]) -> dict[str, int]:
    """The precedence rule read upside down: the tightest operators become the loosest."""
    top, bottom = max(prec.values()), min(prec.values())
    return {op: top + bottom - level for op, level in prec.items()}


def eval_expression(rng: random.Random, v: int) -> Strong:
    t = parsing.eval_expression(rng, v)
    prec = parsing.PRECEDENCE[v][0]
    flat = dict.fromkeys(prec, 1)
    misread = (
        _reversed_precedence(prec) if len(set(prec.values())) > 1 else parsing.PRECEDENCE[2][0]
    )
    expr = " ".join(str(rng.randint(1, 9)) if i % 2 == 0 else rng.choice("+-*") for i in range(9))
    return strengthen(
        t,
        [("1 + 2 * 3 - 4",), ("8 - 2 + 3 * 2",), ("9 - 4 * 2 - 1",), (expr,)],
        [
            ("equal operators applied right to left", t.wrong),
            (
                "Python's own precedence",
                None
                if v == 0
                else src("""
                def eval_expression(s: str) -> int:
                    return eval(s)
            """),
            ),
            (
                "strictly left to right",
                None if prec == flat else edit(t.reference, (repr(prec), repr(flat))),
            ),
            (
                "the precedence rule read upside down",
                edit(t.reference, (repr(prec), repr(misread))),
            ),
        ],
    )


def split_quoted(rng: random.Random, v: int) -> Strong:
    t = parsing.split_quoted(rng, v)
    d = (",", ";", "|", ":", "/")[v]
    keeps_quotes = """
        def split_quoted(line: str) -> list[str]:
            fields, cur, quoted = [], "", False
            for ch in line:
                if ch == '"':
                    quoted = not quoted
                    cur += ch
                elif ch == "@D" and not quoted:
                    fields.append(cur)
                    cur = ""
                else:
                    cur += ch
            fields.append(cur)
            return fields
    """
    w = words(rng, 3)
    return strengthen(
        t,
        [(f'"p{d}q"{d}r{d}"{d}"',), (f'{w[0]}{d}"{w[1]} {d} {w[2]}"{d}',)],
        [
            ("two quotes stay two quotes", t.wrong),
            (
                f"splits at every '{d}'",
                src(f"""
                def split_quoted(line: str) -> list[str]:
                    return line.split("{d}")
            """),
            ),
            ("keeps the wrapping quotes", src(keeps_quotes, D=d)),
            (
                "drops empty fields",
                edit(t.reference, ("    return fields", "    return [f for f in fields if f]")),
            ),
            (
                "forgets the last field",
                edit(t.reference, ("    fields.append(cur)\n    return", "    return")),
            ),
        ],
    )


FAMILIES = [
    parse_pairs,
    parse_duration,
    sum_quantities,
    expand_ranges,
    eval_expression,
    split_quoted,
]
