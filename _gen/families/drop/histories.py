"""Town histories for eval-drop-v1 (spec 003: DROP-style discrete reasoning over a passage).

``make_events`` draws an invented town's founding, dated works and census counts;
``render`` writes them as a short chronological history; ``parse`` reads every dated event and
census back out of the text; ``QUESTIONS`` compute the answers from the events. Dates are
accepted as "3 March 1841" and "March 3, 1841" whatever format the passage used.
"""

from __future__ import annotations

import random
import re
from typing import Any

PREFIX = (
    "Vel",
    "Quor",
    "Brae",
    "Tesk",
    "Orm",
    "Hald",
    "Skel",
    "Yarn",
    "Carv",
    "Lund",
    "Perr",
    "Gled",
    "Mosk",
    "Rend",
    "Wyth",
    "Zenn",
)
SUFFIX = ("amere", "enby", "oxham", "ilford", "anstow", "erwick", "ondale", "ingcombe")
RIVERS = ("Lenn", "Orrin", "Tavy", "Quell", "Skelder", "Amble", "Wend", "Corra")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
#: noun, past verb (as written), question clause, nominal phrase, is a structure
WORKS = (
    (
        "stone bridge",
        "was completed",
        "was the stone bridge completed",
        "the completion of the stone bridge",
        True,
    ),
    (
        "grammar school",
        "opened",
        "did the grammar school open",
        "the opening of the grammar school",
        True,
    ),
    (
        "railway station",
        "opened",
        "did the railway station open",
        "the opening of the railway station",
        True,
    ),
    (
        "town hall",
        "was finished",
        "was the town hall finished",
        "the completion of the town hall",
        True,
    ),
    (
        "public library",
        "opened",
        "did the public library open",
        "the opening of the public library",
        True,
    ),
    (
        "water mill",
        "began working",
        "did the water mill begin working",
        "the start of work at the water mill",
        True,
    ),
    (
        "parish church",
        "was consecrated",
        "was the parish church consecrated",
        "the consecration of the parish church",
        True,
    ),
    (
        "market charter",
        "was granted",
        "was the market charter granted",
        "the granting of the market charter",
        False,
    ),
    (
        "covered market",
        "opened",
        "did the covered market open",
        "the opening of the covered market",
        True,
    ),
)
WORK = {w[0]: w for w in WORKS}
EARLIEST = {"railway station": 1835}
VERBS = "|".join(sorted({re.escape(w[1]) for w in WORKS}))
DATE = r"\d{1,2} [A-Z][a-z]+ \d{4}|[A-Z][a-z]+ \d{1,2}, \d{4}"


def dmy(date: list[int]) -> str:
    return f"{date[2]} {MONTHS[date[1] - 1]} {date[0]}"


def mdy(date: list[int]) -> str:
    return f"{MONTHS[date[1] - 1]} {date[2]}, {date[0]}"


def read_date(text: str) -> list[int]:
    """[year, month, day] from either written form."""
    parts = text.replace(",", "").split()
    day, month = (parts[0], parts[1]) if parts[0].isdigit() else (parts[1], parts[0])
    return [int(parts[2]), MONTHS.index(month) + 1, int(day)]


def make_events(rng: random.Random) -> dict[str, Any]:
    """A founding date, 4-6 dated works and 4-6 censuses, in a consistent timeline."""
    founded_year = rng.randint(1650, 1780)
    date = lambda year: [year, rng.randint(1, 12), rng.randint(1, 28)]  # noqa: E731
    dated, used = [], set()
    for work in rng.sample(WORKS, rng.randint(4, 6)):
        year = 0
        while year in used or year == 0:  # distinct years; no railway before railways existed
            year = rng.randint(max(founded_year + 3, EARLIEST.get(work[0], 0)), 1935)
        used.add(year)
        dated.append({"name": work[0], "date": date(year)})
    dated.sort(key=lambda w: w["date"])
    first = max(1801, (founded_year // 10 + 3) * 10 + 1)
    census_years = sorted(rng.sample(range(first, 1932, 10), rng.randint(4, 6)))
    population, censuses = rng.randint(300, 2500), []
    for year in census_years:
        censuses.append({"year": year, "population": population})
        falls = population > 500 and rng.random() < 0.25
        population += rng.randint(-300, -40) if falls else rng.randint(60, 2400)
    return {
        "town": rng.choice(PREFIX) + rng.choice(SUFFIX),
        "river": rng.choice(RIVERS),
        "founded": date(founded_year),
        "works": dated,
        "censuses": censuses,
    }


def render(history: dict[str, Any], rng: random.Random) -> str:
    fmt = rng.choice((dmy, mdy))
    out = [
        (
            history["founded"],
            f"{history['town']} was founded on {fmt(history['founded'])} by "
            f"settlers from the {history['river']} valley.",
        )
    ]
    for work in history["works"]:
        noun, verb = WORK[work["name"]][:2]
        when = fmt(work["date"])
        text = rng.choice((f"On {when}, the {noun} {verb}.", f"The {noun} {verb} on {when}."))
        out.append((work["date"], text))
    previous = None
    for census in history["censuses"]:
        n = f"{census['population']:,}"
        if previous is None:
            text = f"The census of {census['year']} counted {n} residents."
        else:
            moved = "risen" if census["population"] > previous else "fallen"
            text = f"By the census of {census['year']}, the population had {moved} to {n}."
        previous = census["population"]
        out.append(([census["year"], 7, 1], text))
    return " ".join(text for _, text in sorted(out, key=lambda item: item[0]))


def parse(passage: str) -> dict[str, Any]:
    """The history stated in ``passage`` (strict: every sentence must be understood)."""
    found: dict[str, Any] = {"works": [], "censuses": []}
    previous = None
    for sentence in re.split(r"(?<=\.) ", passage):
        if m := re.fullmatch(
            rf"(\w+) was founded on ({DATE}) by settlers from the (\w+) "
            r"valley\.",
            sentence,
        ):
            found.update(town=m[1], founded=read_date(m[2]), river=m[3])
        elif m := re.fullmatch(
            rf"On ({DATE}), the ([a-z ]+) ({VERBS})\.", sentence
        ) or re.fullmatch(rf"The ([a-z ]+) ({VERBS}) on ({DATE})\.", sentence):
            date, noun, verb = (
                (m[1], m[2], m[3]) if sentence.startswith("On ") else (m[3], m[1], m[2])
            )
            assert WORK[noun][1] == verb, sentence
            found["works"].append({"name": noun, "date": read_date(date)})
        elif m := re.fullmatch(r"The census of (\d{4}) counted ([\d,]+) residents\.", sentence) or (
            re.fullmatch(
                r"By the census of (\d{4}), the population had (risen|fallen) to "
                r"([\d,]+)\.",
                sentence,
            )
        ):
            population = int(m[m.lastindex or 0].replace(",", ""))
            if m.lastindex == 3:
                assert (m[2] == "risen") == (population > previous), sentence
            found["censuses"].append({"year": int(m[1]), "population": population})
            previous = population
        else:
            raise AssertionError(f"unparsed sentence: {sentence!r}")
    found["works"].sort(key=lambda w: w["date"])
    return {k: found[k] for k in ("town", "river", "founded", "works", "censuses")}


# --- questions: (history, choice) -> (question, accepted answers) or None when not askable ---

Answer = list[Any]


def _dated(h: dict[str, Any]) -> list[tuple[list[int], str, str]]:
    """(date, question clause, nominal phrase) of the founding and every work, in date order."""
    out = [(h["founded"], f"was {h['town']} founded", f"the founding of {h['town']}")]
    out += [(w["date"], WORK[w["name"]][2], WORK[w["name"]][3]) for w in h["works"]]
    return sorted(out, key=lambda item: item[0])


def date_of(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    date, clause, _ = _dated(h)[choice % len(_dated(h))]
    return f"On what date {clause}?", [dmy(date), mdy(date)]


def year_of(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    date, clause, _ = _dated(h)[choice % len(_dated(h))]
    return f"In which year {clause}?", [str(date[0])]


def which_first(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    works = h["works"]
    i, j = choice % len(works), (choice // 7) % len(works)
    if i == j:
        return None
    a, b = works[i], works[j]
    first = a if a["date"] < b["date"] else b
    return f"Which came first, the {a['name']} or the {b['name']}?", [first["name"]]


def census_over(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    pops = sorted(c["population"] for c in h["censuses"])
    i = choice % (len(pops) - 1)
    threshold = (pops[i] + pops[i + 1]) // 200 * 100
    if not pops[i] < threshold < pops[i + 1]:
        return None
    n = sum(1 for p in pops if p > threshold)
    question = (
        f"In how many of the censuses mentioned did {h['town']} have more than "
        f"{threshold:,} residents?"
    )
    return question, [str(n)]


def years_between(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    dated = _dated(h)
    i, j = sorted(((choice % len(dated)), (choice // 5) % len(dated)))
    (d1, _, n1), (d2, _, n2) = dated[i], dated[j]
    # Only when whole years and calendar years agree, so the answer is not ambiguous.
    if i == j or d1[0] == d2[0] or d2[1:] < d1[1:]:
        return None
    return f"How many years passed between {n1} and {n2}?", [str(d2[0] - d1[0])]


def _census(h: dict[str, Any], choice: int) -> tuple[dict[str, Any], dict[str, Any]]:
    cs = h["censuses"]
    i, j = sorted((choice % len(cs), (choice // 3) % len(cs)))
    return cs[i], cs[j]


def pop_growth(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    a, b = _census(h, choice)
    if b["population"] <= a["population"]:
        return None
    question = (
        f"By how many residents did the population of {h['town']} grow between the "
        f"{a['year']} and {b['year']} censuses?"
    )
    return question, [str(b["population"] - a["population"])]


def pop_sum(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    a, b = _census(h, choice)
    if a is b:
        return None
    question = f"How many residents did the {a['year']} and {b['year']} censuses count altogether?"
    return question, [str(a["population"] + b["population"])]


def pop_max_year(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    best = max(h["censuses"], key=lambda c: c["population"])
    if sum(1 for c in h["censuses"] if c["population"] == best["population"]) > 1:
        return None
    return f"In which census year was the population of {h['town']} highest?", [str(best["year"])]


def before_ref(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    structures = [w for w in h["works"] if WORK[w["name"]][4]]
    ref = structures[choice % len(structures)]
    earlier = [w["name"] for w in structures if w["date"] < ref["date"]]
    if len(earlier) < 2:
        return None
    question = (
        f"Which of the structures described were completed or opened before the {ref['name']}?"
    )
    return question, [earlier]


def largest_increase(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    pops = [c["population"] for c in h["censuses"]]
    rises = [b - a for a, b in zip(pops, pops[1:], strict=False) if b > a]
    if len(rises) < 2:
        return None
    question = (
        "What was the largest increase in population between two consecutive censuses "
        "mentioned in the passage?"
    )
    return question, [str(max(rises))]


def count_falls(h: dict[str, Any], choice: int) -> tuple[str, Answer] | None:
    pops = [c["population"] for c in h["censuses"]]
    n = sum(1 for a, b in zip(pops, pops[1:], strict=False) if b < a)
    question = (
        "In how many of the censuses mentioned was the population lower than at the "
        "census before it?"
    )
    return question, [str(n)]


#: qtype -> (category, difficulty, question function)
QUESTIONS = {
    "date_of": ("date", "easy", date_of),
    "year_of": ("date", "easy", year_of),
    "which_first": ("comparison", "easy", which_first),
    "census_over": ("counting", "medium", census_over),
    "years_between": ("subtraction", "medium", years_between),
    "pop_growth": ("subtraction", "medium", pop_growth),
    "pop_sum": ("addition", "medium", pop_sum),
    "pop_max_year": ("superlative", "medium", pop_max_year),
    "before_ref": ("multi_span", "hard", before_ref),
    "largest_increase": ("superlative", "hard", largest_increase),
    "count_falls": ("counting", "hard", count_falls),
}
