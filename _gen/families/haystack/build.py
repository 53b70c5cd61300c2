"""haystack-v1 reference builder (spec 001, "The haystack algorithm"); standard library only.

Shipped verbatim as ``datasets/haystack-v1/build.py``: a row (or an eval row's
``meta.haystack``) is a recipe ``{seed, target_tokens, needles: [{depth, text, ...}], question}``
and this module turns it back into the exact document, byte for byte:

1. ``budget = target_tokens * 4``;  2. ``rng = random.Random(seed)``;
3. ``needle_chars`` = sum of ``len(text) + 13 + 1`` over the needles (13 is the line prefix);
4. filler sentences one at a time (``rng.choice(TEMPLATES)``, then one ``rng.choice`` per slot, left
   to right) until ``filler_chars + needle_chars >= budget``, a line counting ``13 + len + 1``;
5. needles by ascending depth (stable): needle ``j`` goes to index ``round(depth_j * F) + j``
   (``F`` filler lines, Python's half-to-even ``round``), clamped to ``[0, len(lines)]``;
6. ``f"Line {i:06d}: {sentence}"`` from 1;  7. joined with ``"\\n"``, no trailing newline.

Number slots never exceed four digits and no vocabulary word is a needle key, so a needle's
five-digit answer and its name occur nowhere else in the document.
Usage: ``python build.py ROW_ID`` prints that row's document from the ``rows.jsonl`` beside it.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

ALGORITHM = "haystack-v1"
PREFIX_LEN = len("Line 000000: ")
PREAMBLE = (
    "Below is a long document made of numbered log lines. Read all of it carefully: a question "
    "about its content follows the document."
)


def _numbers(low: int, high: int) -> tuple[str, ...]:
    return tuple(str(n) for n in range(low, high + 1))


def _vocab(words: str) -> tuple[str, ...]:
    return tuple(words.split(", "))


SLOTS: dict[str, tuple[str, ...]] = {
    "name": _vocab(
        "Abena, Bruno, Cleo, Dario, Elif, Fumiko, Gideon, Halvard, Isolde, Joaquin, Kirsi, "
        "Leandro, Marisol, Nnamdi, Oona, Piet, Rosalind, Soren, Tamsin, Ulrike, Valter, "
        "Wendell, Ximena, Yusuf, Zofia, Anselm, Beatrix, Cosimo, Delphine, Emeka, Florin, "
        "Gwen, Hamid, Ingrid"
    ),
    "place": _vocab(
        "Ashcombe, Bramley, Coldharbour, Dunwich, Elmstead, Fernhill, Glenrock, Holloway, "
        "Ironbridge, Juniper Row, Kingsmere, Longford, Millbrook, Northgate, Oakhurst, "
        "Pebblecross, Redwater, Stonebury, Thornfield, Upton Marsh, Westerly, Yewbank, "
        "Cinder Quay, Larkspur Hill"
    ),
    "thing": _vocab(
        "crate, ledger, lantern, barrel, kettle, saddle, trellis, ladder, bucket, spindle, "
        "mallet, compass, satchel, blanket, teapot, wheel, rope coil, tool chest, "
        "flour sack, window frame, fence post, rain gauge"
    ),
    "color": _vocab(
        "maroon, blue, brown, crimson, grey, green, cream, mustard, plum, pale, "
        "rust-coloured, slate, teal, white, yellow"
    ),
    "material": _vocab(
        "walnut, pine, copper, brass, pewter, wicker, canvas, clay, slate, birch, tin, linen"
    ),
    "animal": _vocab(
        "goat, heron, badger, mule, hen, otter, sheepdog, pony, crow, hare, duck, "
        "tabby cat, ox, swan"
    ),
    "day": _vocab("Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday"),
    "month": _vocab(
        "January, February, March, April, May, June, July, August, September, October, "
        "November, December"
    ),
    "weather": _vocab(
        "light rain, a dry wind, thick fog, clear skies, a brief hailstorm, low cloud, "
        "steady drizzle, bright sunshine, a cold snap, sleet"
    ),
    "crop": _vocab(
        "barley, turnips, rye, beans, cabbages, onions, oats, potatoes, leeks, apples, pears, hops"
    ),
    "job": _vocab(
        "miller, ferryman, blacksmith, schoolteacher, baker, lamplighter, harbourmaster, "
        "clerk, cooper, shepherd, carter, weaver"
    ),
    "verb": _vocab(
        "repaired, painted, counted, inspected, cleaned, weighed, moved, labelled, sorted, "
        "measured, stacked, checked"
    ),
    "dir": _vocab("north, south, east, west, upriver, downhill"),
    "n1": _numbers(2, 9),
    "n2": _numbers(10, 99),
    "n3": _numbers(100, 999),
    "n4": _numbers(1000, 9999),
    "hour": _numbers(1, 12),
}
TEMPLATES: tuple[str, ...] = (
    "{name} {verb} the {color} {thing} near {place} on {day} morning.",
    "The {material} {thing} at {place} was {verb} by {name} before noon.",
    "In {month}, the {job} of {place} recorded {n3} sacks of {crop}.",
    "One {animal} wandered {dir} from {place} and was found by {name} after {n2} minutes.",
    "{name} walked {n1} miles {dir} to {place} through {weather}.",
    "The market at {place} sold {n3} baskets of {crop} on the first {day} of {month}.",
    "The {job} {verb} {n2} {material} boards stacked behind the inn at {place}.",
    "On {day} there was {weather} over {place}, so {name} stayed indoors.",
    "The {color} door of the {material} shed at {place} needed {n1} new hinges.",
    "{name} and {name} {verb} the {thing} together at {hour} o'clock.",
    "Records from {place} list {n4} visitors during {month}.",
    "The road from {place} to {place} was closed for {n1} days after {weather}.",
    "The {job} kept a {color} {animal} that followed visitors around {place}.",
    "At {hour} o'clock {name} {verb} the {thing} in the {material} workshop.",
    "The well at {place} was measured at {n2} feet deep by {name}.",
    "{name} planted {n3} rows of {crop} on the {dir} side of {place}.",
    "The {material} bridge of {n2} paces crosses the stream below {place}.",
    "The {thing} owned by the {job} weighs about {n2} pounds.",
    "In the {month} fair at {place}, {name} won a ribbon for {crop}.",
    "{name} noted {weather} at {place} and {weather} later the same {day}.",
    "The bell at {place} rang {n2} times when the {animal} escaped.",
    "The {job} of {place} ordered {n2} {color} candles for the winter.",
    "Each {day}, {name} carries a {thing} {dir} to {place}.",
    "The {color} {animal} of {place} sleeps beside the {material} {thing}.",
    "A survey counted {n4} trees between {place} and {place}.",
    "{name} borrowed a {thing} from the {job} and returned it {n1} days later.",
    "The old {material} mill near {place} grinds {n3} bushels of {crop} a week.",
    "At dusk on {day}, {name} {verb} every {thing} along the {dir} lane.",
    "The {place} choir has {n2} members and practises on {day} evenings.",
    "The {job} said the {thing} had been {verb} {n1} times since {month}.",
    "Fog rolled {dir} over {place} while {name} {verb} the {color} {thing}.",
    "The harvest at {place} filled {n2} carts with {crop} and {crop}.",
    "{name} painted the {material} fence at {place} {color} in {month}.",
    "A letter from {place} mentioned {n3} sheep and one {animal} by the river.",
    "The school at {place} owns {n2} slates and a single {color} globe.",
    "{name} repaired a {material} {thing} for the {job} in exchange for {crop}.",
    "Between {hour} and {hour} o'clock, {name} {verb} the storeroom at {place}.",
    "The {dir} tower of {place} is {n2} metres tall and built of {material}.",
    "The {job} of {place} counted {n3} lanterns lit for the {month} festival.",
    "Travellers from {place} reported {weather} and a lame {animal} on the road.",
    "The {color} {thing} in the hall at {place} dates from year {n4} of the old calendar.",
    "{name} swapped {n2} jars of honey for a {material} {thing} at {place}.",
    "One {animal} nested in the {material} {thing} behind the {place} bakery.",
    "The ferry below {place} carried {n3} passengers on {day}.",
    "{name} kept notes on {crop} prices at {place} for {n2} weeks.",
    "On day {n2} of the season, the {job} {verb} the {color} {thing}.",
    "The orchard {dir} of {place} has {n3} fruit trees and one {animal}.",
    "{name} told {name} that the {thing} at {place} was {color} once.",
)
_SLOT = re.compile(r"\{(\w+)\}")
_COMPILED = {
    t: (tuple(_SLOT.split(t)[0::2]), tuple(SLOTS[s] for s in _SLOT.findall(t))) for t in TEMPLATES
}


def _filler_sentence(rng: random.Random) -> str:
    literals, slots = _COMPILED[rng.choice(TEMPLATES)]
    parts = [literals[0]]
    for literal, vocabulary in zip(literals[1:], slots, strict=True):
        parts.append(rng.choice(vocabulary))
        parts.append(literal)
    return "".join(parts)


def build(item: dict[str, Any]) -> tuple[str, list[int]]:
    """The document of ``item`` and the 1-based line number of each needle (in item order)."""
    if item.get("algorithm", ALGORITHM) != ALGORITHM:
        raise ValueError(f"algorithm {item.get('algorithm')!r} is not {ALGORITHM!r}")
    needles = item["needles"]
    if any("\n" in n["text"] for n in needles):
        raise ValueError("a needle text contains a newline")
    budget = int(item["target_tokens"]) * 4
    rng = random.Random(item["seed"])
    needle_chars = sum(len(n["text"]) + PREFIX_LEN + 1 for n in needles)
    lines: list[str] = []
    filler_chars = 0
    while filler_chars + needle_chars < budget:
        sentence = _filler_sentence(rng)
        lines.append(sentence)
        filler_chars += PREFIX_LEN + len(sentence) + 1
    filler_lines = len(lines)
    order = sorted(range(len(needles)), key=lambda k: needles[k]["depth"])
    positions: dict[int, int] = {}
    for j, k in enumerate(order):
        index = min(max(round(needles[k]["depth"] * filler_lines) + j, 0), len(lines))
        # Keep earlier needles' positions right even if an insertion lands before them.
        positions = {m: p + (p >= index) for m, p in positions.items()}
        positions[k] = index
        lines.insert(index, needles[k]["text"])
    document = "\n".join([f"Line {i:06d}: {s}" for i, s in enumerate(lines, 1)])
    return document, [positions[k] + 1 for k in range(len(needles))]


def build_document(item: dict[str, Any]) -> str:
    """The exact document a recipe describes (UTF-8 text, no trailing newline)."""
    return build(item)[0]


def needle_line_numbers(item: dict[str, Any]) -> list[int]:
    """1-based line of each needle in the built document, in the order of ``item["needles"]``."""
    return build(item)[1]


def document_sha256(document: str) -> str:
    """Hex SHA-256 of the document's UTF-8 bytes (what rows record in ``sha256``)."""
    return hashlib.sha256(document.encode("utf-8")).hexdigest()


def build_prompt(item: dict[str, Any]) -> str:
    """What a long-context eval sends: preamble, document, question, blank lines between."""
    return PREAMBLE + "\n\n" + build_document(item) + "\n\n" + item["question"]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python build.py ROW_ID", file=sys.stderr)
        return 2
    rows_path = Path(__file__).resolve().parent / "rows.jsonl"
    for line in rows_path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["id"] == argv[0]:
            sys.stdout.write(build_document(row) + "\n")
            return 0
    print(f"no row {argv[0]!r} in {rows_path}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
