"""eval-commonsense-v3 literal text: questions about the letters of quoted words, where a model
that reads words as tokens goes wrong. Every answer is computed from the quoted text; proofs
recount it a different way.

Changes from v2: "which word has the most letters" made the longest option the answer (the
audit's longest-option baseline solved it); now the length question asks for an exact length
that is neither the longest nor, necessarily, the shortest, and the letter-count choice uses
words of one length. Single-letter exact answers (v2's "letter number k"), which repeat across
rows, are replaced by answers that are whole strings.
"""

from __future__ import annotations

import random
from typing import Any

from common import mc_plan as plan

FORMS = (
    ("letter_count", "numeric"),
    ("vowel_count", "numeric"),
    ("reverse", "exact"),
    ("sort", "exact"),
    ("devowel", "exact"),
    ("first_alpha", "mc"),
    ("most_letter", "mc"),
    ("exact_length", "mc"),
    ("reverse_match", "mc"),
    ("last_letters", "exact"),
    ("word_count", "numeric"),
)
WORDS = (
    "amber",
    "anchor",
    "apple",
    "arrow",
    "autumn",
    "badge",
    "banner",
    "barrel",
    "basket",
    "beacon",
    "blanket",
    "bottle",
    "bracket",
    "bridge",
    "bucket",
    "butter",
    "cabin",
    "candle",
    "canvas",
    "carpet",
    "castle",
    "cellar",
    "cherry",
    "chimney",
    "circle",
    "cobweb",
    "copper",
    "cotton",
    "cradle",
    "crystal",
    "curtain",
    "dagger",
    "desert",
    "dinner",
    "dragon",
    "drawer",
    "engine",
    "feather",
    "fiddle",
    "finger",
    "forest",
    "fossil",
    "garden",
    "garlic",
    "glacier",
    "gravel",
    "guitar",
    "hammer",
    "harbour",
    "helmet",
    "hollow",
    "honey",
    "island",
    "jacket",
    "kettle",
    "ladder",
    "lantern",
    "leather",
    "lemon",
    "letter",
    "marble",
    "meadow",
    "mirror",
    "mitten",
    "needle",
    "noodle",
    "orange",
    "orchard",
    "paddle",
    "pebble",
    "pepper",
    "pillow",
    "planet",
    "pocket",
    "puzzle",
    "rabbit",
    "ribbon",
    "river",
    "rocket",
    "saddle",
    "scissors",
    "shadow",
    "silver",
    "spider",
    "spoon",
    "staple",
    "summer",
    "tablet",
    "teapot",
    "thimble",
    "thunder",
    "timber",
    "tunnel",
    "turnip",
    "velvet",
    "violin",
    "wagon",
    "walnut",
    "window",
    "winter",
    "wizard",
    "yellow",
    "zipper",
)
VOWELS = "aeiou"
Item = dict[str, Any]


def _open(question: str, scorer: str, answer: Any, meta: dict[str, Any], shape: str) -> Item:
    item = {"question": question, "scorer": scorer, "answer": answer, "meta": meta}
    return {**item, "shape": shape} if scorer == "exact" else item


def letter_count(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    """The count asked for is drawn first (2..7, more at higher levels), so counts spread."""
    target = rng.randint(2 + level, 4 + 2 * level - (level == 2))
    while True:
        phrase = " ".join(rng.sample(WORDS, 2 + 2 * level))
        letters = [ch for ch in sorted(set(phrase) - {" "}) if phrase.count(ch) == target]
        if letters:
            break
    letter = rng.choice(letters)
    q = f'How many times does the letter "{letter}" appear in the text "{phrase}"?'
    return _open(
        q,
        "numeric",
        str(phrase.count(letter)),
        {"kind": "letter_count", "text": phrase, "letter": letter},
        "",
    )


def vowel_count(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    phrase = " ".join(rng.sample(WORDS, 2 + 2 * level))
    q = f'How many vowels (a, e, i, o, u) are there in the text "{phrase}"? Count every occurrence.'
    return _open(
        q,
        "numeric",
        str(sum(phrase.count(v) for v in VOWELS)),
        {"kind": "vowel_count", "text": phrase},
        "",
    )


def word_count(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    words = rng.sample(WORDS, 5 + 2 * level)
    letter = rng.choice("aeinorstl")
    if not 3 <= sum(letter in w for w in words) < len(words):
        return word_count(rng, level, slot, ordinal)
    q = f'How many of these words contain the letter "{letter}": {", ".join(words)}?'
    value = sum(letter in w for w in words)
    return _open(
        q, "numeric", str(value), {"kind": "word_count", "words": words, "letter": letter}, ""
    )


def reverse(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    text = " ".join(rng.sample([w for w in WORDS if len(w) >= 6], 1 + level))
    q = f'Write "{text}" with its letters in reverse order (the last letter first).'
    return _open(q, "exact", text[::-1], {"kind": "reverse", "text": text}, "the reversed text")


def sort(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    first = rng.choice("bcdmpst")
    close = [w for w in WORDS if w.startswith(first)]
    words = rng.sample(close, min(len(close), 4 + level))
    ordered = sorted(words)
    if ordered == words:
        return sort(rng, level, slot, ordinal)
    q = (
        f"Sort these words into alphabetical order: {', '.join(words)}. Give them separated by "
        "commas."
    )
    answer = [", ".join(ordered), ",".join(ordered), " ".join(ordered)]
    return _open(q, "exact", answer, {"kind": "sort", "words": words}, "the sorted words")


def devowel(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    word = rng.choice([w for w in WORDS if len(w) == 5 + level or level == 2 and len(w) > 7])
    q = f'Write the word "{word}" with every vowel (a, e, i, o, u) removed.'
    return _open(
        q,
        "exact",
        "".join(ch for ch in word if ch not in VOWELS),
        {"kind": "devowel", "text": word},
        "the letters left",
    )


def last_letters(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    words = rng.sample(WORDS, 3 + level)
    q = f"Join the last letters of these words, in order, into one string: {', '.join(words)}."
    return _open(
        q,
        "exact",
        "".join(w[-1] for w in words),
        {"kind": "last_letters", "words": words},
        "the string",
    )


def first_alpha(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    """Four words; from level 1 they share their first letter, from level 2 their first two."""
    assert slot is not None
    prefix_len = level
    groups: dict[str, list[str]] = {}
    for w in WORDS:
        groups.setdefault(w[:prefix_len], []).append(w)
    group = rng.choice([g for g in groups.values() if len(g) >= 4])
    words = rng.sample(group, 4)
    gold = min(words)
    options = plan.place(rng, gold, [w for w in words if w != gold], slot)
    q = "Which of these words comes first in alphabetical order?"
    return plan.mc_item(q, options, slot, {"kind": "first_alpha", "words": words})


def most_letter(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    """Four words of one length, so the longest word is no clue."""
    assert slot is not None
    size = rng.choice((5, 6, 7))
    words = rng.sample([w for w in WORDS if len(w) == size], 4)
    letter = rng.choice("aeinorstl")
    counts = [w.count(letter) for w in words]
    if counts.count(max(counts)) > 1 or max(counts) < 1 + (level == 2):
        return most_letter(rng, level, slot, ordinal)
    gold = words[counts.index(max(counts))]
    options = plan.place(rng, gold, [w for w in words if w != gold], slot)
    q = f'Which of these words contains the letter "{letter}" the most times?'
    return plan.mc_item(q, options, slot, {"kind": "most_letter", "words": words, "letter": letter})


def exact_length(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    assert slot is not None
    by_length: dict[int, list[str]] = {}
    for w in WORDS:
        by_length.setdefault(len(w), []).append(w)
    sizes = rng.sample(sorted(by_length), 4)
    words = [rng.choice(by_length[n]) for n in sizes]
    target = rng.choice(sizes)
    gold = words[sizes.index(target)]
    options = plan.place(rng, gold, [w for w in words if w != gold], slot)
    q = f"Which of these words has exactly {target} letters?"
    return plan.mc_item(
        q, options, slot, {"kind": "exact_length", "words": words, "length": target}
    )


def reverse_match(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    """The distractors have the target's length and share its first or last letter."""
    assert slot is not None
    word = rng.choice(WORDS)
    near = [
        w
        for w in WORDS
        if w != word and len(w) == len(word) and (w[0] == word[0] or w[-1] == word[-1])
    ]
    if len(near) < 3:
        return reverse_match(rng, level, slot, ordinal)
    options = plan.place(rng, word, rng.sample(near, 3), slot)
    q = f'Which of these words is "{word[::-1]}" spelled backwards?'
    return plan.mc_item(q, options, slot, {"kind": "reverse_match", "reversed": word[::-1]})


BUILD = {
    "letter_count": letter_count,
    "vowel_count": vowel_count,
    "word_count": word_count,
    "reverse": reverse,
    "sort": sort,
    "devowel": devowel,
    "last_letters": last_letters,
    "first_alpha": first_alpha,
    "most_letter": most_letter,
    "exact_length": exact_length,
    "reverse_match": reverse_match,
}


# ---- proofs: recount character by character --------------------------------------------------
def _count(text: str, pick: Any) -> int:
    total = 0
    for ch in text:
        total += 1 if pick(ch) else 0
    return total


def _expected(m: dict[str, Any]) -> Any:  # noqa: C901 - one line per kind
    kind = m["kind"]
    if kind == "letter_count":
        return str(_count(m["text"], lambda ch: ch == m["letter"]))
    if kind == "vowel_count":
        return str(_count(m["text"], lambda ch: ch in VOWELS))
    if kind == "word_count":
        return str(_count(m["words"], lambda w: _count(w, lambda ch: ch == m["letter"]) > 0))
    if kind == "reverse":
        return "".join(m["text"][i] for i in range(len(m["text"]) - 1, -1, -1))
    if kind == "sort":
        out: list[str] = []
        for w in m["words"]:  # insertion sort, not sorted()
            out.insert(next((i for i, o in enumerate(out) if w < o), len(out)), w)
        return ", ".join(out)
    if kind == "devowel":
        return "".join(ch for ch in m["text"] if _count(ch, lambda c: c in VOWELS) == 0)
    if kind == "last_letters":
        return "".join(w[len(w) - 1] for w in m["words"])
    if kind == "first_alpha":
        return next(w for w in m["words"] if all(w <= o for o in m["words"]))
    if kind == "most_letter":
        scores = [_count(w, lambda ch: ch == m["letter"]) for w in m["words"]]
        (best,) = [w for w, s in zip(m["words"], scores, strict=True) if s == max(scores)]
        return best
    if kind == "exact_length":
        (best,) = [w for w in m["words"] if _count(w, lambda ch: True) == m["length"]]
        return best
    (best,) = [w for w in WORDS if w[::-1] == m["reversed"]]
    return best


def _prove_literal(row: dict[str, Any]) -> None:
    expected = _expected(row["meta"])
    if row["scorer"] == "mc":
        assert plan.gold_text(row) == expected, (row["id"], expected)
    elif row["scorer"] == "exact":
        accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
        assert accepted[0] == expected, (row["id"], expected)
    else:
        assert row["answer"] == expected, (row["id"], expected)


PROVE = {kind: _prove_literal for kind in BUILD}
