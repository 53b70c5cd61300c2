"""Wrong answers of eval-commonsense-v3's open rows, for eval-commonsense-v4's probes.

``slips(row)`` returns ``(wrong, spellings)``: answers of the gold's form that a careless solver
gives (``common.probes`` drops any that equal an accepted answer) and extra correct spellings
(none here). mc rows need none: their options are the slips. Deterministic: no random draws.

* altered riddles: the memorised or intuitive answer of the riddle the row alters (the
  bat-and-ball "total minus difference", the girl counted among her own sisters, one tablet
  interval too many, the weed at half the days, the widget time unchanged, the strikes counted
  instead of the gaps, the place of the runner overtaken...) and counts one off;
* literal text: the text left as it is, "y" taken for a vowel, first letters for last ones, one
  letter slipped, the words in reverse order; counts one off, every occurrence for "how many
  words".
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from common import v2

Slips = tuple[list[Any], list[str]]


def _riddle(m: dict[str, Any]) -> list[Any]:
    kind = m["kind"]
    if kind == "bat_ball":
        if m["form"] == "difference":
            return [m["total"] - m["diff"], m["diff"]]
        return [2 * m["price"], m["price"] - m["less"], m["price"] + m["less"]]
    if kind == "sisters":
        return [m["girls"], m["girls"] + m["brothers"] - 1, m["brothers"] - 1, m["girls"] - 2]
    if kind == "pills":
        return [m["tablets"] * m["gap"], (m["tablets"] - 2) * m["gap"]]
    if kind == "lily":
        return [m["full_day"] // m["factor"], m["full_day"] - 1 - m["power"], m["full_day"]]
    if kind == "widgets":
        (m1, m2), (w1, w2) = m["m"], m["w"]
        return [m["t1"], Fraction(m["t1"] * w2, w1), Fraction(m["t1"] * m1, m2)]
    if kind == "socks":
        return [m["need"], m["need"] + len(m["colours"]) - 1, sum(m["counts"])]
    if kind == "overtake":
        return [m["place"] - 1, m["place"], m["place"] + 1]
    assert kind == "clock", kind
    first, second = m["strikes"]
    return [Fraction(m["took"] * second, first), m["took"] // (first - 1) * second]


def _literal(m: dict[str, Any], gold: str) -> list[str]:
    kind = m["kind"]
    if kind == "reverse":
        text = m["text"]
        return [
            text,
            " ".join(w[::-1] for w in reversed(text.split())),
            gold[1] + gold[0] + gold[2:],
        ]
    if kind == "sort":
        words = m["words"]
        ordered = gold.split(", ")
        return [", ".join(words), ", ".join(reversed(ordered)), ", ".join(sorted(words, key=len))]
    if kind == "devowel":
        text = m["text"]
        return [text, gold.replace("y", ""), _first_vowel_kept(text)]
    assert kind == "last_letters", kind
    words = m["words"]
    return ["".join(w[0] for w in words), "".join(w[-2] for w in words), gold[:-1]]


def _first_vowel_kept(text: str) -> str:
    """Every vowel removed but the first (a slip that stops after one)."""
    first = next(i for i, ch in enumerate(text) if ch in "aeiou")
    return "".join(ch for i, ch in enumerate(text) if i == first or ch not in "aeiou")


def _count(m: dict[str, Any], gold: int) -> list[int]:
    wrong = [gold - 1, gold + 1]
    if m["kind"] == "vowel_count":
        wrong.append(gold + m["text"].count("y"))
    elif m["kind"] == "word_count":
        wrong.append(sum(w.count(m["letter"]) for w in m["words"]))
    return [w for w in wrong if w >= 0]


def slips(row: dict[str, Any]) -> Slips:
    m = row["meta"]
    if row["scorer"] == "exact":
        gold = row["answer"][0] if isinstance(row["answer"], list) else row["answer"]
        return _literal(m, gold), []
    if m["kind"] in ("letter_count", "vowel_count", "word_count"):
        return _count(m, int(row["answer"])), []
    gold = Fraction(row["answer"])
    wrong = _riddle(m)
    if gold.denominator == 1:
        wrong += [gold - 1, gold + 1]
    return [v2.fmt_fraction(Fraction(w)) for w in wrong if Fraction(w) > 0], []
