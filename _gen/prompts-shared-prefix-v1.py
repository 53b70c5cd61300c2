# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""prompts-shared-prefix-v1: groups of prompts sharing one long system prompt (spec 001,
"kind: prompts": the ``shared_prefix`` contract).

Ten groups of twelve rows. Each group's ``shared_prefix`` is an operations handbook for a fictional
business (700 to 3,800 approx tokens, grown from seeded policy sentences), sent as the leading
system message; ``approx_tokens`` includes it. The user messages are all different: a question
about one handbook fact, sometimes with a customer thread to answer. The handbook comes from the
group's own generator (``lib.row_rng(PREFIX_SEED, group)``), so every row of a group rebuilds
the identical text. ``prove_all`` checks the sharing, and that nothing else repeats.
"""

from __future__ import annotations

import functools
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split(", "))


DATASET_ID = "prompts-shared-prefix-v1"
KIND = "prompts"
DESCRIPTION = (
    "Ten groups of twelve prompts, each group sharing a long handbook system prompt "
    "(shared_prefix) with unique user turns: measures prefix caching."
)
SEED = 20_261_206
PREFIX_SEED = SEED + 1
CREATED = "2026-12-01"
DEFAULT_SCORER = None
GROUPS, PER_GROUP = 10, 12
COUNT = GROUPS * PER_GROUP
PREFIX_TOKENS = (700, 1000, 1300, 1600, 1900, 2300, 2700, 3100, 3400, 3800)
COMPANY = _names(
    "Alder, Brightwater, Copperfield, Driftwood, Emberly, Foxglove, Greyling, Hollin, "
    "Ivybridge, Juniper, Kettlewell, Larchmont"
)
PEOPLE = _names(
    "Ama Owusu, Bastian Kroll, Chiara Neri, Dev Malhotra, Eilidh Ross, Felix Adeyemi, "
    "Greta Lind, Hugo Paredes, Ines Duarte, Jonas Weber, Kalani Akana, Lena Sorensen, "
    "Mateo Ruiz, Noor Haddad, Oskar Berg"
)
ROLES = _names(
    "duty manager, finance lead, quality officer, logistics coordinator, "
    "customer care lead, safety officer"
)
REGIONS = _names(
    "North Coast, Valley, Lakeside, Uplands, Harbour District, Old Town, Riverside, East Ridge"
)
DAYS = _names("Saturday, Sunday, Monday, Friday")
#: business kind -> its product lines (disjoint, so no handbook sentence can recur across groups)
BUSINESSES: dict[str, tuple[str, ...]] = {
    "bakery": _names("sourdough loaves, rye rolls, seed crackers, fruit tarts, oat biscuits"),
    "bike shop": _names("road frames, city bikes, brake kits, tyre sets, cargo trailers"),
    "garden centre": _names("seed trays, fruit trees, compost bags, raised beds, rain barrels"),
    "print shop": _names("business cards, flyers, posters, bound reports, vinyl banners"),
    "tea merchant": _names("green tea tins, herbal blends, teapots, tea filters, matcha sets"),
    "furniture maker": _names("oak tables, pine shelves, bar stools, bed frames, wardrobes"),
    "pet supplies": _names("dog beds, cat trees, bird feeders, aquarium pumps, pet carriers"),
    "outdoor gear": _names("tents, sleeping bags, trail boots, rain jackets, camp stoves"),
    "music store": _names("acoustic guitars, drum kits, violin strings, stage monitors, keyboards"),
    "stationery": _names("fountain pens, notebooks, ink bottles, desk planners, envelopes"),
}
#: (handbook sentence, question about it, answer) with shared slots filled per fact
FACTS = (
    (
        "Orders of {product} above {n3} euros need approval from the {role} before dispatch.",
        "Who must approve an order of {product} above {n3} euros?",
        "the {role}",
    ),
    (
        "The {region} desk for {product} opens at {h1}:00 and closes at {h2}:00, on {day}s at "
        "{h3}:00.",
        "When does the {region} desk for {product} close on {day}s?",
        "{h3}:00",
    ),
    (
        "{product} may be returned within {n2} days of delivery; later returns get store credit "
        "of {pct} percent.",
        "How many days does a customer have to return {product}?",
        "{n2} days",
    ),
    (
        "Any ticket about damaged {product} goes to {person} ({role}) within {n2} minutes.",
        "Who handles tickets about damaged {product}?",
        "{person}",
    ),
    (
        "Same-day dispatch of {product} to {region} needs the order before {h1}:{mm}; {person} "
        "books the courier.",
        "What is the same-day cut-off for {product} in {region}?",
        "{h1}:{mm}",
    ),
    (
        "Discount code {code} takes {pct} percent off {product} and cannot be combined with other "
        "offers.",
        "What does discount code {code} give?",
        "{pct} percent off {product}",
    ),
    (
        "Warranty repairs of {product} bought in {region} take {n1} working days; {person} signs "
        "them off.",
        "How long does a warranty repair of {product} from {region} take?",
        "{n1} working days",
    ),
    (
        "When stock of {product} falls below {n3} units, {person} is told and promotions pause.",
        "What happens when stock of {product} falls below {n3} units?",
        "{person} is told",
    ),
    (
        "Loyalty tier {tier} starts at {n4} points and adds free {product} delivery in {region}.",
        "At how many points does loyalty tier {tier} start?",
        "{n4}",
    ),
    (
        "Invoices for {product} sold in {region} are payable within {n2} days; reminders go out "
        "on day {n1}.",
        "When are reminders sent for {product} invoices in {region}?",
        "day {n1}",
    ),
)
THREADS = (
    "Hello, this is {person} from {region}. My order {order} of {product} arrived on day {n1} "
    "and one unit was scratched.",
    "I already wrote on {day} about order {order} and nobody answered; I need the {product} by "
    "the end of the week.",
    "Could you tell me if the {product} I ordered ({order}) can still be changed to a larger size?",
    "Our team in {region} ordered {n2} units of {product} and the invoice lists {n3} instead.",
    "The courier left order {order} at the wrong address in {region}; the note says {person}.",
)


def _slots(rng: random.Random, products: tuple[str, ...]) -> dict[str, Any]:
    return {
        "product": rng.choice(products),
        "role": rng.choice(ROLES),
        "region": rng.choice(REGIONS),
        "person": rng.choice(PEOPLE),
        "day": rng.choice(DAYS),
        "n1": rng.randint(2, 9),
        "n2": rng.randint(10, 60),
        "n3": rng.randint(100, 999),
        "n4": rng.randint(1_000, 9_000),
        "pct": rng.randint(5, 40),
        "h1": rng.randint(7, 11),
        "h2": rng.randint(16, 20),
        "h3": rng.randint(12, 15),
        "mm": rng.choice(("00", "30")),
        "code": f"{rng.choice('BCDFGHKMPRST')}{rng.randint(100, 999)}",
        "tier": rng.choice(("Silver", "Gold", "Amber", "Jade", "Slate")),
        "order": f"#{rng.randint(10_000, 99_999)}",
    }


@functools.cache
def handbook(group: int) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """(domain, prefix text, (question, answer) facts) of one group, from the group's rng."""
    rng = lib.row_rng(PREFIX_SEED, group)
    domain = sorted(BUSINESSES)[group]
    products = BUSINESSES[domain]
    company = f"{COMPANY[group]} {domain.title()}"
    lines = [
        f"You are the operations assistant of {company}, a {domain}. Answer staff "
        "and customers using only the handbook below, cite the section you rely on, and say "
        "so when the handbook does not cover a question.",
        "",
        f"HANDBOOK OF {company.upper()}",
    ]
    facts: list[tuple[str, str]] = []
    written: set[str] = set()
    section = 0
    while lib.approx_tokens(["\n".join(lines)]) < PREFIX_TOKENS[group]:
        section += 1
        lines += ["", f"Section {section}. {rng.choice(products).capitalize()}"]
        for number in range(1, rng.randint(3, 6) + 1):
            while True:  # redraw the rare sentence the handbook already has
                sentence, question, answer = rng.choice(FACTS)
                values = _slots(rng, products)
                if sentence.format(**values) not in written:
                    break
            written.add(sentence.format(**values))
            text = sentence.format(**values)
            lines.append(f"{section}.{number} {text[0].upper()}{text[1:]}")
            facts.append((question.format(**values), answer.format(**values)))
    return domain, "\n".join(lines), tuple(facts)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    group = idx // PER_GROUP
    domain, prefix, facts = handbook(group)
    # Spread the group's rows over its facts, so no two rows ask the same thing.
    question, _ = facts[(idx % PER_GROUP) * len(facts) // PER_GROUP]
    shape = idx % 3
    asker = f"{rng.choice(PEOPLE).split()[0]} from the {COMPANY[group]} team asks: {question}"
    if shape == 0:
        user = asker
    else:
        values = _slots(rng, BUSINESSES[domain])
        thread = [
            rng.choice(THREADS).format(**_slots(rng, BUSINESSES[domain]))
            for _ in range(1 if shape == 1 else rng.randint(4, 9))
        ]
        user = (
            f"Messages received today (ticket {values['order']}):\n"
            + "\n".join(thread)
            + f"\n\nDraft a reply to the customer. {asker}"
        )
    messages = [{"role": "user", "content": user}]
    return lib.prompt_row(f"prefix-{idx + 1:04d}", domain, "en", messages, shared_prefix=prefix)


def prove(row: dict[str, Any]) -> None:
    group = (int(row["id"].split("-")[1]) - 1) // PER_GROUP
    tokens = lib.approx_tokens((m["content"] for m in row["messages"]), row["shared_prefix"])
    assert tokens == row["approx_tokens"] and lib.bucket_for(tokens) == row["bucket"], row["id"]
    assert row["shared_prefix"] == handbook(group)[1], row["id"]
    assert lib.approx_tokens([row["shared_prefix"]]) >= PREFIX_TOKENS[group], row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["messages"][0]["content"], "user message")
    assert Counter(r["shared_prefix"] for r in rows) == {
        handbook(g)[1]: PER_GROUP for g in range(GROUPS)
    }
    seen: set[str] = set()
    for group in range(GROUPS):
        for line in handbook(group)[1].split("\n")[3:]:
            sentence = line.split(" ", 1)[-1]
            if len(sentence) > 60:
                assert sentence not in seen, f"group {group} repeats {line}"
                seen.add(sentence)


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
