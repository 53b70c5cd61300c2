"""What a reader sees in an mc row's options without solving it: the features of the learned
answer-free baseline (:mod:`stages.datasets.learned`) for option rows (issue 19).

Each option gets one value per :data:`NAMES` entry, computed from the options and the stem (the
prompt without its option list) only — never from the gold. The learner compares the options of
one row with each other, so only differences inside a row matter.

* form — ``length`` (characters) and ``words``, as ranks in the row scaled to [-1, 1];
  ``longest`` and ``shortest`` (1 when the option is the longest or shortest, shared by ties);
* numbers — when every option holds a number (its first one): ``number_rank`` (scaled rank),
  ``number_max``, ``number_min``, ``number_middle`` (closeness to the options' median, 1 at
  it) and ``number_spread`` (distance to the options' mean in standard deviations);
* the stem — ``stem_words`` (share of the option's words found in the stem), ``stem_count``
  (how often its content words occur there, log), ``stem_text`` (its whole text occurs there),
  ``stem_ngrams`` (share of its character 3-grams found there) and ``stem_spelling`` (the best
  character-bigram Dice similarity between one of its words and a stem word it does not equal:
  a translation that looks like the English word);
* the other options — ``others_words`` and ``others_ngrams`` (mean word and 3-gram Jaccard
  similarity with the other options), ``others_twin`` (the highest word similarity with one of
  them), ``centroid`` (how often its parts — list items, else words — recur in the other
  options), ``places`` (for ordered lists: the share of other options holding the same item at
  the same place, averaged over places) and ``unique_words`` (share of its words no other
  option has);
* position — ``position`` (0 for A, 1 for the last letter), ``first``, ``last``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from stages.datasets.audit_text import STOP_WORDS, has_phrase, normalise, stem
from stages.scoring.numbers import number_spans

NAMES = (
    "length", "words", "longest", "shortest",
    "number_rank", "number_max", "number_min", "number_middle", "number_spread",
    "stem_words", "stem_count", "stem_text", "stem_ngrams", "stem_spelling",
    "others_words", "others_ngrams", "others_twin", "centroid", "places", "unique_words",
    "position", "first", "last",
)  # fmt: skip
_WORD = re.compile(r"\w+")
_LIST_SPLIT = re.compile(r"\s*(?:,|;|→|->|–|—|\s-\s|\bthen\b)\s*")


def tokens(text: str) -> list[str]:
    """Word tokens of the normalised text, in order."""
    return _WORD.findall(normalise(text))


def grams(text: str, n: int = 3) -> set[str]:
    """Character ``n``-grams of the normalised text (padded with spaces)."""
    padded = f" {normalise(text)} "
    return {padded[i : i + n] for i in range(max(1, len(padded) - n + 1))}


def jaccard(a: set[str], b: set[str]) -> float:
    """|a ∩ b| / |a ∪ b| (0 when both are empty)."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def dice(a: str, b: str) -> float:
    """Dice similarity of the character bigram sets of two words."""
    x = {a[i : i + 2] for i in range(len(a) - 1)}
    y = {b[i : i + 2] for i in range(len(b) - 1)}
    return 2 * len(x & y) / (len(x) + len(y)) if x and y else 0.0


def scaled_ranks(values: Sequence[float]) -> list[float]:
    """Average ranks of ``values`` scaled to [-1, 1] (all 0 when they are all equal)."""
    order = sorted(values)
    if order[0] == order[-1]:
        return [0.0] * len(values)
    ranks = []
    for v in values:
        low, high = order.index(v), len(order) - 1 - order[::-1].index(v)
        ranks.append((low + high) / 2)
    top = len(values) - 1
    return [2 * r / top - 1 for r in ranks]


def _extreme(values: Sequence[float], best: float) -> list[float]:
    return [1.0 if v == best else 0.0 for v in values]


def _float(value: Any) -> float:
    """The value as a float within ±1e100 (a 400-digit "number" stays comparable)."""
    try:
        return max(-1e100, min(1e100, float(value)))
    except OverflowError:
        return 1e100 if value > 0 else -1e100


def _number_features(choices: Sequence[str]) -> list[list[float]]:
    firsts = [number_spans(c) for c in choices]
    if not all(firsts):
        return [[0.0] * 5 for _ in choices]
    values = [_float(spans[0][0]) for spans in firsts]
    ranks = scaled_ranks(values)
    median = sorted(values)[len(values) // 2]
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    width = (max(values) - min(values)) or 1.0
    return [
        [
            ranks[i],
            1.0 if v == max(values) else 0.0,
            1.0 if v == min(values) else 0.0,
            1 - abs(v - median) / width,
            abs(v - mean) / sd if sd else 0.0,
        ]
        for i, v in enumerate(values)
    ]


def _parts(choice: str) -> list[str]:
    items = [normalise(p) for p in _LIST_SPLIT.split(choice) if p.strip()]
    return items if len(items) > 1 else tokens(choice)


def _places(lists: Sequence[list[str]], i: int) -> float:
    mine = lists[i]
    others = [other for j, other in enumerate(lists) if j != i]
    if len(mine) < 2 or not others:
        return 0.0
    agree = [sum(len(o) > p and o[p] == item for o in others) / len(others) for p, item in
             enumerate(mine)]  # fmt: skip
    return sum(agree) / len(agree)


def _stem_features(choice: str, stem_tokens: Counter[str], stem_text: str,
                   stem_grams: set[str]) -> list[float]:  # fmt: skip
    mine = tokens(choice)
    content = [w for w in mine if w not in STOP_WORDS] or mine
    share = sum(w in stem_tokens for w in mine) / len(mine) if mine else 0.0
    count = math.log1p(sum(stem_tokens[w] for w in content))
    own = grams(choice)
    spelled = max(
        (dice(w, s) for w in set(content) if len(w) > 2 for s in stem_tokens if len(s) > 2
         and s != w),
        default=0.0,
    )  # fmt: skip
    return [share, count, float(has_phrase(stem_text, choice)),
            len(own & stem_grams) / len(own), spelled]  # fmt: skip


def option_features(row: dict[str, Any]) -> list[list[float]]:
    """One list of :data:`NAMES` values per option of an mc row."""
    choices = list(row["choices"])
    k = len(choices)
    text = stem(row)
    stem_tokens = Counter(tokens(text))
    stem_grams = grams(text)
    lengths = [float(len(normalise(c))) for c in choices]
    word_counts = [float(len(tokens(c))) for c in choices]
    word_sets = [set(tokens(c)) for c in choices]
    gram_sets = [grams(c) for c in choices]
    lists = [_parts(c) for c in choices]
    numbers = _number_features(choices)
    out = []
    for i, choice in enumerate(choices):
        others = [j for j in range(k) if j != i]
        word_sims = [jaccard(word_sets[i], word_sets[j]) for j in others]
        parts = lists[i]
        recur = [sum(p in lists[j] for j in others) / len(others) for p in parts] or [0.0]
        elsewhere = set().union(*(word_sets[j] for j in others))
        unique = len(word_sets[i] - elsewhere) / len(word_sets[i]) if word_sets[i] else 0.0
        out.append(
            [
                scaled_ranks(lengths)[i], scaled_ranks(word_counts)[i],
                _extreme(lengths, max(lengths))[i], _extreme(lengths, min(lengths))[i],
                *numbers[i],
                *_stem_features(choice, stem_tokens, text, stem_grams),
                sum(word_sims) / len(others),
                sum(jaccard(gram_sets[i], gram_sets[j]) for j in others) / len(others),
                max(word_sims), sum(recur) / len(recur), _places(lists, i), unique,
                i / (k - 1), float(i == 0), float(i == k - 1),
            ]
        )  # fmt: skip
    return out
