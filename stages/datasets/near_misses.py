"""Replies the check derives itself to prove a row's scorer (issue 19), beside the generator's
own ``probes``: generic near misses that must score wrong, the gold in its plain forms that
must score right, and the row's prompt sent back (echoes).

Derived near misses (each written ``Answer: <value>``):

* ``mc`` — every other letter, and every other option's text (unless it reads like the gold's);
* ``numeric`` — gold ± 1, gold × 10, gold / 10 and −gold, and gold ± 2 × ``meta.tolerance``
  when the row has one; any of them inside the row's tolerance is left out;
* ``exact`` — the answers of the three other rows of the same family spelled most like the gold,
  and gold ± 1 when the gold is an integer;
* ``contains`` — the answers of other rows of the family that *contain* an accepted answer as
  a word ("trente et un" for "trente": what a lenient ``contains`` accepts), and the three spelled
  most like the gold.

Replies equal to an accepted answer (normalised as ``exact`` does, or, on an integer gold, the
same number under the flexible grammar) are never near misses. Derived right replies:
``Answer: <gold>`` (the letter and the option text for mc, every accepted string otherwise).

Echoes: the prompt (what the model reads, every message joined) sent back once and twice, and
once more per value with the answer-line template filled in (``Answer: <number>`` or
``Answer: …`` with the placeholder replaced on every line that holds ``Answer:``) by each number
the prompt states and, for mc rows, each letter and option text. Numbers: at most
:data:`MAX_FILLS` per row, those equal to an accepted answer first — a filled echo can only
score when the scorer reads the filled value (then it must equal the gold) or another number of
the prompt (which a few fills already show), so more values of one prompt repeat one proof.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from stages.datasets.audit_text import labels, prompt_text
from stages.datasets.open_candidates import number_text
from stages.datasets.option_features import dice
from stages.scoring.contains import found
from stages.scoring.exact import gold_strings, normalize
from stages.scoring.flexible_numbers import read_whole
from stages.scoring.numbers import Number, ascii_digits, number_spans, parse_number
from stages.scoring.numeric import gold_value, within_tolerance

MAX_FILLS = 4
_SIMILAR = 3
_PLACEHOLDER = re.compile(r"<[^<>\n]{1,40}>|…")
_TEMPLATE_LINE = re.compile(r"^.*answer\s*:.*$", re.I | re.M)


def _accepted(row: dict[str, Any]) -> list[str]:
    return gold_strings(row["answer"])


def _is_accepted(row: dict[str, Any], value: str) -> bool:
    golds = _accepted(row)
    if normalize(value) in {normalize(g) for g in golds}:
        return True
    integers = {v for v in (parse_number(g) for g in golds) if isinstance(v, int)}
    return bool(integers) and read_whole(value) in integers


def _numeric(row: dict[str, Any]) -> tuple[list[str], list[str]]:
    gold = Fraction(gold_value(row))
    tolerance = (row.get("meta") or {}).get("tolerance")
    tries: list[Number] = [gold + 1, gold - 1, gold * 10]
    if gold != 0:
        tries += [gold / 10, -gold]
    step = parse_number(str(tolerance)) if tolerance is not None else None
    if step:
        tries += [gold + 2 * step, gold - 2 * step]
    wrong = [f"Answer: {number_text(v)}" for v in dict.fromkeys(tries)
             if not within_tolerance(v, gold, tolerance)]  # fmt: skip
    right = list(dict.fromkeys([f"Answer: {number_text(gold)}", f"Answer: {row['answer']}"]))
    return wrong, right


def _family(row: dict[str, Any], family: list[str]) -> list[str]:
    gold = normalize(_accepted(row)[0])
    others = [a for a in family if not _is_accepted(row, a)]
    similar = sorted(others, key=lambda a: -dice(normalize(a), gold))[:_SIMILAR]
    if row["scorer"] == "contains":
        golds = [normalize(g) for g in _accepted(row)]
        similar = [a for a in others if any(found(g, normalize(a)) for g in golds)] + similar
    return list(dict.fromkeys(similar))


def derived(row: dict[str, Any], family: list[str]) -> tuple[list[str], list[str]]:
    """``(wrong replies, right replies)`` for one row (module rules); ``family`` holds the other
    rows' answers (``open_candidates.family_answers``)."""
    scorer = row["scorer"]
    if scorer == "mc":
        gold = labels(row).index(row["answer"])
        texts = [normalize(c) for c in row["choices"]]
        wrong = [f"Answer: {x}" for x in labels(row) if x != row["answer"]]
        wrong += [f"Answer: {c}" for i, c in enumerate(row["choices"])
                  if i != gold and texts[i] != texts[gold]]  # fmt: skip
        right = [f"Answer: {row['answer']}"]
        if texts.count(texts[gold]) == 1:
            right.append(f"Answer: {row['choices'][gold]}")
        return wrong, right
    if scorer == "numeric":
        return _numeric(row)
    if scorer not in ("exact", "contains"):
        return [], []
    wrong = _family(row, family)
    integers = [v for v in (parse_number(g) for g in _accepted(row)) if isinstance(v, int)]
    if scorer == "exact" and integers:
        wrong += [str(v) for v in (integers[0] + 1, integers[0] - 1)]
    wrong = [f"Answer: {w}" for w in dict.fromkeys(wrong) if not _is_accepted(row, w)]
    return wrong, [f"Answer: {g}" for g in dict.fromkeys(_accepted(row))]


def _golds(row: dict[str, Any]) -> set[Number]:
    """The row's accepted answers that read as numbers (drop: each span)."""
    if row["scorer"] == "numeric":
        return {gold_value(row)}
    answers = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
    spans = [s for a in answers for s in (a if isinstance(a, list) else [a])]
    return {v for v in (parse_number(str(s)) for s in spans) if v is not None}


def _values(row: dict[str, Any], text: str) -> list[str]:
    """Each number as the prompt writes it (those equal to an accepted answer first, since only
    they can make a filled echo right), then an mc row's options."""
    plain = ascii_digits(text)
    spans = number_spans(text)
    written = {v: plain[a:b] for v, a, b in reversed(spans)}  # first spelling of each value
    values = list(dict.fromkeys(v for v, _, _ in spans))
    golds = _golds(row) if row["scorer"] != "mc" else set()
    values = [v for v in values if v in golds] + [v for v in values if v not in golds]
    shown = [written[v] for v in values[:MAX_FILLS]]
    if row["scorer"] == "mc":
        shown += labels(row) + list(row["choices"])
    return list(dict.fromkeys(shown))


def echoes(row: dict[str, Any]) -> list[tuple[str, str]]:
    """``(kind, reply)`` pairs: ``echo``, ``echo twice`` and ``echo filled: <value>``."""
    text = prompt_text(row)
    out = [("echo", text), ("echo twice", f"{text}\n\n{text}")]
    if not any(_PLACEHOLDER.search(line) for line in _TEMPLATE_LINE.findall(text)):
        return out
    for value in _values(row, text):

        def fill(line: re.Match[str], value: str = value) -> str:
            return _PLACEHOLDER.sub(lambda _: value, line.group())

        out.append((f"echo filled: {value}", _TEMPLATE_LINE.sub(fill, text)))
    return out
