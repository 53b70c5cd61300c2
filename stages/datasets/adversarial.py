"""Adversarial replies for a row (issue 30): near misses a careful reader rejects and careful
replies a careful reader accepts, built from the row's own gold, choices and language, for the
numeric, contains, exact and mc scorers. ``atlas check``'s scorer strength
(:mod:`stages.datasets.strength`) and the property tests (``tests/scoring/test_adversarial.py``)
both run them.

**Near misses** (wrong under the strict and the flexible reading): each pairs the gold G with a
wrong answer W of the same kind (a number off by one or beyond the stated rounding, another
option's letter, the next weekday, another row's answer of the category) in a shape that commits
to W or to nothing — ``W and G``, ``G or W``, ``W (or G)``, ``G (or W)``, ``between W and G``, ``W
to G``, ``W (not G)``, ``it is not G``, ``W, maybe G``, ``W or perhaps G``, ``G, W``, ``W G``, ``G
[W?]``, ``G: but W is also plausible``, a range ``3-4``, every label in any punctuation
(``A.B.C.D``), a label with another option's text, every weekday or month name on one line or one
a line — written in English and in the row's language.

**Careful replies** (right under the flexible reading; marked where the strict reading must
agree): the gold with markdown emphasis, in brackets, with its option text, as its option text
alone or without its article, as ``Option B``, with working after it (``38 (17 + 21)``, ``38,
since 17 + 21``), as an equation's result, with a unit, with a rejected alternative (``G (not
W)``), with a Unicode minus, thousands separators, scientific notation, a boxed or LaTeX value,
in quotes, with a final period, as a list with other separators, without accents (flexible only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stages.datasets.open_candidates import number_text
from stages.scoring.exact import equal, is_list, items
from stages.scoring.lexicon import row_language, word_classes
from stages.scoring.numbers import parse_number
from stages.scoring.numeric import accepts, gold_value
from stages.scoring.text_forms import fold_accents, gold_strings, normalize
from stages.scoring.vocabulary import calendar_list, calendar_names

SCORERS = ("numeric", "contains", "exact", "mc")


@dataclass(frozen=True)
class Phrases:
    """How one language joins, negates and doubts (the near misses' shapes)."""

    conj: str
    disj: str
    negated: str
    maybe: str
    between: str
    span: str
    perhaps: str
    also: str
    not_: str
    it_is: str


PHRASES = {
    "en": Phrases("and", "or", "it is not {x}", "maybe", "between {a} and {b}", "{a} to {b}",
                  "or perhaps", "but {x} is also plausible", "not {x}", "it is {x}"),
    "fr": Phrases("et", "ou", "ce n'est pas {x}", "peut-être", "entre {a} et {b}", "de {a} à {b}",
                  "ou peut-être", "mais {x} est aussi possible", "pas {x}", "c'est {x}"),
    "es": Phrases("y", "o", "no es {x}", "quizás", "entre {a} y {b}", "de {a} a {b}",
                  "o tal vez", "pero {x} también es posible", "no {x}", "es {x}"),
    "de": Phrases("und", "oder", "es ist nicht {x}", "vielleicht", "zwischen {a} und {b}",
                  "von {a} bis {b}", "oder vielleicht", "aber {x} ist auch möglich", "nicht {x}",
                  "es ist {x}"),
    "it": Phrases("e", "o", "non è {x}", "forse", "tra {a} e {b}", "da {a} a {b}", "o forse",
                  "ma anche {x} è possibile", "non {x}", "è {x}"),
    "pt": Phrases("e", "ou", "não é {x}", "talvez", "entre {a} e {b}", "de {a} a {b}",
                  "ou talvez", "mas {x} também é possível", "não {x}", "é {x}"),
    "sw": Phrases("na", "au", "si {x}", "labda", "kati ya {a} na {b}", "kutoka {a} hadi {b}",
                  "au labda", "lakini {x} pia inawezekana", "si {x}", "ni {x}"),
}  # fmt: skip


@dataclass(frozen=True)
class Reply:
    """One adversarial reply and the verdicts a careful reader gives it."""

    family: str
    """Which shape it has (``near miss: W (or G)``, ``careful: option text``, ...)."""
    text: str
    """The reply as a model would send it."""
    right: bool
    """The flexible reading's verdict a careful reader gives."""
    strict: bool | None
    """The strict reading's verdict it must get (None: no requirement)."""


def _languages(row: dict[str, Any]) -> list[Phrases]:
    lang = row_language(row)
    return [PHRASES["en"]] + ([PHRASES[lang]] if lang in PHRASES and lang != "en" else [])


def near_miss_shapes(g: str, w: str, p: Phrases) -> list[tuple[str, str]]:
    """``(family, answer text)`` shapes that commit to W or to nothing (module rules)."""
    return [
        ("W and G", f"{w} {p.conj} {g}"), ("G and W", f"{g} {p.conj} {w}"),
        ("G or W", f"{g} {p.disj} {w}"), ("W (or G)", f"{w} ({p.disj} {g})"),
        ("G (or W)", f"{g} ({p.disj} {w})"), ("W (not G)", f"{w} ({p.not_.format(x=g)})"),
        ("it is not G", p.negated.format(x=g)), ("W, maybe G", f"{w}, {p.maybe} {g}"),
        ("G, maybe W", f"{g}, {p.maybe} {w}"), ("W or perhaps G", f"{w} {p.perhaps} {g}"),
        ("G, W", f"{g}, {w}"), ("W G", f"{w} {g}"), ("G [W?]", f"{g} [{w}?]"),
        ("G: but W also", f"{g}: {p.also.format(x=w)}"),
        ("G, but W also", f"{g}, {p.also.format(x=w)}"),
    ]  # fmt: skip


def _numeric(row: dict[str, Any]) -> list[Reply]:
    gold = gold_value(row)
    g = number_text(gold)
    wrongs = [v for v in (gold + 1, gold - 1, gold * 2 + 3) if not accepts(row, v, gold)[0]]
    out: list[Reply] = []
    for wrong in wrongs[:2]:
        w = number_text(wrong)
        for p in _languages(row):
            for family, text in near_miss_shapes(g, w, p):
                out.append(Reply(f"near miss: {family}", f"Answer: {text}", False, False))
            lo, hi = sorted((gold, wrong))
            out.append(Reply("near miss: between", f"Answer: {p.between.format(a=number_text(lo), b=number_text(hi))}", False, False))  # noqa: E501
            out.append(Reply("near miss: span", f"Answer: {p.span.format(a=w, b=g)}", False, False))
        if isinstance(gold, int) and isinstance(wrong, int) and 0 <= min(gold, wrong):
            lo_i, hi_i = sorted((gold, wrong))
            out.append(Reply("near miss: range", f"Answer: {lo_i}-{hi_i}", False, False))
            run = " ".join(str(v) for v in range(max(0, gold - 2), gold + 1))
            if len(run.split()) > 1:
                out.append(Reply("near miss: run", f"Answer: {run}", False, False))
    out += _numeric_careful(row, gold, g, number_text(wrongs[0]) if wrongs else None)
    return out


def _numeric_careful(row: dict[str, Any], gold: Any, g: str, w: str | None) -> list[Reply]:
    value = Fraction(gold)
    part = value - (value // 2 if value > 4 else 1)
    rest = number_text(value - part)
    forms = [
        ("plain", f"Answer: {g}", True), ("emphasis", f"Answer: **{g}**", True),
        ("emphasised line", f"**Answer: {g}**", None), ("period", f"Answer: {g}.", True),
        ("quoted", f'Answer: "{g}"', True), ("unit", f"Answer: {g} units", True),
        ("x =", f"Answer: x = {g}", True),
        ("equation", f"Answer: {number_text(part)} + {rest} = {g}", True),
        ("working", f"Answer: {g} ({number_text(part)} + {rest})", True),
        ("working words", f"Answer: {g} (counting from {number_text(part)})", True),
        ("explained", f"Answer: {g}, since {number_text(part)} + {rest}", True),
        ("working =", f"Answer: {g} (= {number_text(part)} + {rest})", True),
        ("boxed", f"So the result is \\boxed{{{g}}}.", None),
        ("latex", f"The answer is ${g}$.", None),
        ("heading", f"### Answer: {g}", None),
    ]  # fmt: skip
    if w is not None:
        forms.append(("rejects another", f"Answer: {g} (not {w})", True))
    if value < 0:
        forms.append(("unicode minus", f"Answer: \u2212{number_text(-value)}", True))
    if value.denominator == 1 and abs(value) >= 1000:
        whole = int(value)
        forms += [
            ("comma groups", f"Answer: {whole:,}", True),
            ("thin-space groups", f"Answer: {whole:,}".replace(",", "\u202f"), True),
            ("space groups", f"Answer: {whole:,}".replace(",", " "), True),
        ]
        digits = str(abs(whole))
        mantissa = f"{digits[0]}.{digits[1:]}".rstrip("0").rstrip(".")
        sign = "-" if whole < 0 else ""
        forms.append(("scientific", f"Answer: {sign}{mantissa} × 10^{len(digits) - 1}", True))
    if value.denominator > 1 and "/" in g:
        forms.append(("latex fraction", f"Answer: $\\dfrac{{{value.numerator}}}{{{value.denominator}}}$", None))  # noqa: E501
    return [Reply(f"careful: {name}", text, True, strict) for name, text, strict in forms]


def _mc(row: dict[str, Any]) -> list[Reply]:
    choices = [str(c) for c in row["choices"]]
    letters = [chr(65 + i) for i in range(len(choices))]
    g = str(row["answer"])
    text = choices[letters.index(g)]
    others = [x for x in letters if x != g]
    out: list[Reply] = []
    for w in others[:2]:
        for p in _languages(row):
            for family, shape in near_miss_shapes(g, w, p):
                out.append(Reply(f"near miss: {family}", f"Answer: {shape}", False, False))
        out.append(Reply("near miss: label with another's text", f"Answer: {w}) {text}", False, False))  # noqa: E501
        out.append(Reply("near miss: G/W", f"Answer: {g}/{w}", False, False))
    for name, joined in (("dots", "."), ("dots reversed", ".")):
        order = letters if name == "dots" else letters[::-1]
        out.append(Reply(f"near miss: every label, {name}", f"Answer: {joined.join(order)}", False, False))  # noqa: E501
    out.append(Reply("near miss: label then labels", f"Answer: {g}. {' '.join(others)}", False, False))  # noqa: E501
    out.append(Reply("near miss: two labels", f"Answer: {g}.{others[0]}", False, False))
    unique = sum(normalize(c) == normalize(text) for c in choices) == 1
    forms = [
        ("plain", f"Answer: {g}", True), ("parenthesised", f"Answer: ({g})", True),
        ("closing bracket", f"Answer: {g})", True), ("period", f"Answer: {g}.", True),
        ("emphasis", f"Answer: **{g}**", True), ("option", f"Answer: Option {g}", True),
        ("lower case", f"Answer: {g.lower()}", True), ("in prose", f"The answer is {g}.", True),
        ("emphasised line", f"**Answer: {g}**", None), ("boxed", f"\\boxed{{{g}}}", None),
        ("rejects another", f"Answer: {g} (not {others[0]})", True),
    ]  # fmt: skip
    if unique:
        forms += [
            ("label) text", f"Answer: {g}) {text}", True), ("label. text", f"Answer: {g}. {text}", True),
            ("label - text", f"Answer: {g} - {text}", True), ("label (text)", f"Answer: {g} ({text})", True),
            ("label: text", f"Answer: {g}: {text}", True), ("text alone", f"Answer: {text}", True),
            ("text (label)", f"Answer: {text} ({g})", True),
            ("text without accents", f"Answer: {fold_accents(text)}", None),
        ]  # fmt: skip
        head, _, rest = text.partition(" ")
        if rest and head.casefold() in word_classes(row_language(row)).articles:
            forms.append(("text without its article", f"Answer: {rest}", True))
        if re.search(r"(?<![\w])-(?=\d)", text):
            minus = re.sub(r"(?<![\w])-(?=\d)", "\u2212", text)
            forms.append(("unicode minus", f"Answer: {minus}", True))
    out += [Reply(f"careful: {name}", reply, True, strict) for name, reply, strict in forms]
    return out


def _word_wrong(row: dict[str, Any], family: list[str]) -> tuple[list[str], list[str]]:
    """Wrong answers of the row's kind, and the whole kind's names in the row's language (a
    calendar kind), for contains and exact rows."""
    golds = gold_strings(row["answer"])
    names = calendar_names()
    key = names.get(normalize(golds[0]))
    if key is not None:
        listed = calendar_list(key[0], row_language(row) or "en")
        at = next((i for i, n in enumerate(listed) if names.get(normalize(n)) == key), 0)
        wrong = [listed[(at + 1) % len(listed)], listed[(at + 2) % len(listed)]]
        return wrong, listed
    accepted = {normalize(g) for g in golds}
    wrong = [a for a in family if normalize(a) not in accepted and a.strip()]
    return wrong[:2], []


def _words(row: dict[str, Any], family: list[str]) -> list[Reply]:
    golds = gold_strings(row["answer"])
    g = golds[0]
    wrongs, kind = _word_wrong(row, family)
    contains = row["scorer"] == "contains"
    out: list[Reply] = []
    for w in wrongs:
        for p in _languages(row):
            for name, shape in near_miss_shapes(g, w, p):
                out.append(Reply(f"near miss: {name}", f"Answer: {shape}", False, False))
    if kind:
        out.append(Reply("near miss: every name", f"Answer: {' '.join(kind)}", False, False))
        out.append(Reply("near miss: every name, a line each", "\n".join(kind), False, False))
    p = _languages(row)[-1]
    forms = [
        ("plain", f"Answer: {g}", True), ("period", f"Answer: {g}.", True),
        ("quoted", f'Answer: "{g}"', True), ("german quotes", f"Answer: „{g}“", True),
        ("emphasis", f"Answer: **{g}**", contains or None),
        ("emphasised line", f"**Answer: {g}**", None),
        ("without accents", f"Answer: {fold_accents(g)}", None),
    ]
    if wrongs:
        forms.append(("rejects another", f"Answer: {g} (not {wrongs[0]})", contains or None))
    if contains:
        forms.append(("in prose", f"Answer: {p.it_is.format(x=g)}", True))
    lists = [items(a, word_classes(row_language(row))) for a in golds if is_list(a)]
    listed = next((i for i in lists if len(i) > 1), None)
    if listed is not None and not contains:
        for name, sep in (("comma and", ", "), ("arrows", " → "), ("greater-than", " > ")):
            body = sep.join(listed) if name != "comma and" else (
                ", ".join(listed[:-1]) + f" {_languages(row)[0].conj} " + listed[-1])
            forms.append((f"list with {name}", f"Answer: {body}", True))
    value = parse_number(g)
    if isinstance(value, int) and value < 0:
        forms.append(("unicode minus", f"Answer: \u2212{-value}", True))
    out += [Reply(f"careful: {name}", text, True, strict) for name, text, strict in forms]
    return [r for r in out if not (r.right is False and _says_gold(row, r.text))]


def _says_gold(row: dict[str, Any], reply: str) -> bool:
    """A near miss that is, after all, one accepted answer (a list gold's own items)."""
    body = reply.removeprefix("Answer: ")
    return equal(body, gold_strings(row["answer"]), word_classes(row_language(row)))


def replies(row: dict[str, Any], family: list[str]) -> list[Reply]:
    """Every adversarial reply of one row (module rules); ``family`` holds the other rows'
    answers of its category (:func:`stages.datasets.open_candidates.family_answers`)."""
    scorer = row.get("scorer")
    if scorer == "numeric":
        return _numeric(row)
    if scorer == "mc":
        return _mc(row)
    if scorer in ("contains", "exact"):
        return _words(row, family)
    return []
