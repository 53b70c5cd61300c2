"""Broken twins of an eval-instruction-v3 row for its rules on layout (issue 30): paragraphs
merged or split, a blank line or two lines merged, bullets marked other than "- " (all, or one)
or one too many, the postscript at the top or anywhere before the end, the title below the
first line or missing, a JSON value that is a list or null, a key too many or missing, the
quotes unclosed or single, a placeholder emptied ("[ ]") or unbracketed. Each builder returns
candidates per kind (``edit_v3.Offers``).
"""

from __future__ import annotations

import json
import random

from families.instruction import compose, edit_v3, rules_v3

Row = edit_v3.Row
Offers = edit_v3.Offers
#: Bullet markers a careless reply uses instead of "- " (numbers count up per bullet).
MARKERS = ("* ", "• ", "+ ", "1. ", "1) ")


def paragraph_count(row: Row, rule: dict, rng: random.Random) -> Offers:
    paras = row["meta"]["example_pass"].split("\n\n")
    j = rng.randrange(len(paras) - 1)
    merged = paras[:j] + [paras[j] + "\n" + paras[j + 1]] + paras[j + 2 :]
    k = rng.randrange(len(paras))
    cut = edit_v3.first_end(paras[k]) + 1
    split = paras[:k] + [paras[k][:cut], paras[k][cut:].lstrip()] + paras[k + 1 :]
    return [("merged", ["\n\n".join(merged)]), ("split", ["\n\n".join(split)])]


def line_count(row: Row, rule: dict, rng: random.Random) -> Offers:
    lines = row["meta"]["example_pass"].split("\n")
    j = rng.randrange(1, len(lines))
    blank = lines[:j] + [""] * rng.randint(1, 2) + lines[j:]
    k = rng.randrange(len(lines) - 1)
    merged = lines[:k] + [lines[k] + " " + lines[k + 1]] + lines[k + 2 :]
    return [("blank line", ["\n".join(blank)]), ("merged", ["\n".join(merged)])]


def _marked(marker: str, number: int) -> str:
    return f"{number}{marker[1:]}" if marker[0].isdigit() else marker


def bullet_count(row: Row, rule: dict, rng: random.Random) -> Offers:
    lines = row["meta"]["example_pass"].split("\n")
    at = [k for k, line in enumerate(lines) if line.startswith("- ")]
    every, one = list(lines), list(lines)
    marker = rng.choice(MARKERS)
    for number, k in enumerate(at, start=1):
        every[k] = _marked(marker, number) + lines[k][2:]
    k = rng.randrange(len(at))
    one[at[k]] = _marked(rng.choice(MARKERS), k + 1) + lines[at[k]][2:]
    extra = lines[: at[0] + 1] + [edit_v3.case_of(row)("- It is old.")] + lines[at[0] + 1 :]
    return [("marker", ["\n".join(every)]), ("mixed marker", ["\n".join(one)]),
            ("count", ["\n".join(extra)])]  # fmt: skip


def postscript(row: Row, rule: dict, rng: random.Random) -> Offers:
    head, ps = row["meta"]["example_pass"].rsplit("\n\n", 1)
    lines = head.split("\n")
    types = {r["type"] for r in row["answer"]["all"]}
    low = 1 if types & {"title", "starts_with"} else 0
    while len(lines) - low < 2:  # too few lines: end the last one after its first sentence
        cut = edit_v3.first_end(lines[-1]) + 1
        lines[-1:] = [lines[-1][:cut], lines[-1][cut:].lstrip()]

    def placed(k: int) -> str:
        return f"{ps}\n\n{head}" if k == 0 else "\n".join(lines[:k] + [ps] + lines[k:])

    top, later = placed(low), placed(rng.randrange(low + 1, len(lines)))
    return [("at the top", [top]), ("not last", [later])]


def title(row: Row, rule: dict, rng: random.Random) -> Offers:
    title, *rest = row["meta"]["example_pass"].split("\n")
    cut = edit_v3.first_end(rest[0]) + 1
    below = [rest[0][:cut], title, rest[0][cut:].lstrip(), *rest[1:]]
    ends = [rest + [title], rest[:-1] + [title] + rest[-1:], below]
    ends = ["\n".join(lines) for lines in ends]
    return [("not first", ends), ("missing", ["\n".join(rest)])]


def json_object(row: Row, rule: dict, rng: random.Random) -> Offers:
    obj = json.loads(row["meta"]["example_pass"])
    keys = list(obj)
    rng.shuffle(keys)

    def dump(changes: dict, drop: str = "") -> str:
        new = {k: v for k, v in {**obj, **changes}.items() if k != drop}
        return json.dumps(new, indent=2, ensure_ascii=False)

    spare = next(k for k in compose.JSON_KEYS if k not in obj)
    # Last resorts when the value held keywords the row needs: its text moved to another key.
    moved = [(k, next(o for o in keys if o != k)) for k in keys]
    folded = [{o: f"{obj[o]} {obj[k]}"} for k, o in moved]
    return [
        ("list value", [dump({k: [obj[k]]}) for k in keys]),
        ("null value", [dump({k: None}) for k in keys]
         + [dump({**f, k: None}) for f, (k, _) in zip(folded, moved, strict=True)]),
        ("extra key", [dump({spare: edit_v3.case_of(row)("It is old.")})]),
        ("missing key", [dump({}, drop=k) for k in keys]
         + [dump(f, drop=k) for f, (k, _) in zip(folded, moved, strict=True)]),
    ]  # fmt: skip


def wrapped_in_quotes(row: Row, rule: dict, rng: random.Random) -> Offers:
    text = row["meta"]["example_pass"]
    return [("unclosed", [text[:-1]]), ("single quotes", [f"'{text[1:-1]}'"])]


def placeholder_count(row: Row, rule: dict, rng: random.Random) -> Offers:
    text = row["meta"]["example_pass"]
    found = list(rules_v3.PLACEHOLDER_RE.finditer(text))
    start, end = rng.choice(found).span()
    return [("empty brackets", [text[:start] + "[ ]" + text[end:]]),
            ("no brackets", [text[:start] + text[start + 1 : end - 1] + text[end:]])]  # fmt: skip
