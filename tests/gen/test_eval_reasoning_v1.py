"""eval-reasoning-v1: every committed item re-solved from its prompt text, by brute force.

The solvers here parse the rendered prompt (not the generator's ``meta``) and share no code with
``_gen/eval-reasoning-v1.py``: orderings and logic grids over all permutations, syllogisms over
every Venn model built as sets of regions, knights and knaves over every assignment, sequences
by parameter search, calendar items with ``datetime``, set counts by search over the unknown.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "datasets" / "eval-reasoning-v1"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]
LETTERS = "ABCDEFGH"
ORDINALS = ["first", "second", "third", "fourth", "fifth"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def rows_of(category: str) -> list[dict]:
    return [r for r in ROWS if r["category"] == category]


def bullets(prompt: str) -> list[str]:
    return [line[2:] for line in prompt.splitlines() if line.startswith("- ")]


def options(row: dict) -> dict[str, str]:
    return dict(zip(LETTERS, row["choices"], strict=False))


def test_mix_is_as_intended() -> None:
    card = json.loads((DATA / "dataset.json").read_text("utf-8"))
    assert card["rows"] == len(ROWS) == 140
    assert Counter(r["category"] for r in ROWS) == {
        c: 20
        for c in (
            "ordering",
            "logic_grid",
            "syllogism",
            "sequence",
            "calendar",
            "knights_knaves",
            "sets",
        )
    }
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 49, "medium": 49, "hard": 42}
    assert Counter(r["scorer"] for r in ROWS) == {"exact": 80, "mc": 60}
    assert card["default_scorer"] == "exact"
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        assert "'Answer: " in row["prompt"].splitlines()[-1]
        if row["scorer"] == "mc":
            assert row["answer"] in LETTERS[: len(row["choices"])]
            for label, text in options(row).items():
                assert f"\n{label}. {text}\n" in row["prompt"]
        else:
            assert "choices" not in row


@pytest.mark.parametrize("row", rows_of("ordering"), ids=lambda r: r["id"])
def test_ordering_by_permutations(row: dict) -> None:
    names = re.match(r"(.+) ran a race", row["prompt"]).group(1).replace(" and ", ", ").split(", ")
    n = len(names)
    place_of = {w: i for i, w in enumerate(ORDINALS[:n])} | {"last": n - 1}

    def ok(order: tuple[str, ...], clue: str) -> bool:
        pos = {name: i for i, name in enumerate(order)}
        if m := re.fullmatch(r"(\w+) finished immediately ahead of (\w+)\.", clue):
            return pos[m[1]] + 1 == pos[m[2]]
        if m := re.fullmatch(r"(\w+) finished ahead of (\w+)\.", clue):
            return pos[m[1]] < pos[m[2]]
        if m := re.fullmatch(r"(\w+) and (\w+) did not finish next to each other\.", clue):
            return abs(pos[m[1]] - pos[m[2]]) > 1
        if m := re.fullmatch(r"(\w+) did not finish (\w+)\.", clue):
            return pos[m[1]] != place_of[m[2]]
        m = re.fullmatch(r"(\w+) finished (\w+)\.", clue)
        assert m, clue
        return pos[m[1]] == place_of[m[2]]

    clues = bullets(row["prompt"])
    found = [p for p in itertools.permutations(names) if all(ok(p, c) for c in clues)]
    assert len(found) == 1
    if m := re.search(r"Who finished (\w+)\?", row["prompt"]):
        assert row["answer"] == found[0][ORDINALS.index(m[1])]
    else:
        assert ", ".join(found[0]) in row["answer"]


def grid_vocabulary(prompt: str) -> dict[str, list[str]]:
    groups = re.search(r"share an item \((.+)\)\.", prompt).group(1)
    return {label: vals.split(", ") for label, vals in (g.split(": ") for g in groups.split("; "))}


VERBS = {
    "pets": ("keeps the", "keep the"),
    "drinks": ("drinks", "drink"),
    "instruments": ("plays the", "play the"),
}


@pytest.mark.parametrize("row", rows_of("logic_grid"), ids=lambda r: r["id"])
def test_logic_grid_by_permutations(row: dict) -> None:
    prompt = row["prompt"]
    names = prompt.split(" each have")[0].replace(" and ", ", ").split(", ")
    vocab = grid_vocabulary(prompt)
    labels = sorted(vocab)

    def fact(phrase: str) -> tuple[str, str]:  # "plays the flute" -> (instruments, flute)
        for label, (verb, _) in VERBS.items():
            if label in vocab and phrase.startswith(verb + " "):
                return label, phrase[len(verb) + 1 :]
        raise AssertionError(phrase)

    def ok(world: dict[str, dict[str, str]], clue: str) -> bool:
        clue = clue.rstrip(".")
        m = re.fullmatch(
            r"The person who (\w+(?: the)?) (\w+) (does not \w+(?: the)?|\w+(?: the)?) (\w+)", clue
        )
        if m:
            (l1, v1), negated = fact(f"{m[1]} {m[2]}"), m[3].startswith("does not")
            verb2 = m[3].removeprefix("does not ")
            label2 = next(lb for lb, (v, neg) in VERBS.items() if verb2 in (v, neg) and lb in vocab)
            owner = next(p for p in names if world[p][l1] == v1)
            return (world[owner][label2] == m[4]) != negated
        person, rest = clue.split(" ", 1)
        if rest.startswith("does not "):
            neg = rest.removeprefix("does not ")
            label = next(lb for lb, (_, n) in VERBS.items() if lb in vocab and neg.startswith(n))
            return world[person][label] != neg[len(VERBS[label][1]) + 1 :]
        label, value = fact(rest)
        return world[person][label] == value

    clues = bullets(prompt)
    worlds = []
    for combo in itertools.product(*(itertools.permutations(vocab[lb]) for lb in labels)):
        world = {p: {lb: combo[j][i] for j, lb in enumerate(labels)} for i, p in enumerate(names)}
        if all(ok(world, c) for c in clues):
            worlds.append(world)
    assert len(worlds) == 1
    world, opts = worlds[0], options(row)
    if m := re.search(r"Who (.+)\?\n", prompt):
        label, value = fact(m[1])
        truth = [k for k, name in opts.items() if world[name][label] == value]
    else:
        person = re.search(r"true of (\w+)\?", prompt)[1]
        truth = [k for k, text in opts.items() if world[person][fact(text)[0]] == fact(text)[1]]
    assert truth == [row["answer"]]


SENT = re.compile(r"(All|No|Some) (\w+) are (not )?(\w+)\.")


def holds(sentence: str, model: frozenset[frozenset[str]]) -> bool:
    q, x, neg, y = SENT.fullmatch(sentence).groups()
    if q == "All":
        return not any(x in r and y not in r for r in model)
    if q == "No":
        return not any(x in r and y in r for r in model)
    if neg:
        return any(x in r and y not in r for r in model)
    return any(x in r and y in r for r in model)


@pytest.mark.parametrize("row", rows_of("syllogism"), ids=lambda r: r["id"])
def test_syllogism_by_venn_models(row: dict) -> None:
    premises = re.findall(r"^\d\. (.+)$", row["prompt"], flags=re.M)
    terms = sorted({w for p in premises for w in SENT.fullmatch(p).group(2, 4)})
    regions = [
        frozenset(t for t, inside in zip(terms, bits, strict=True) if inside)
        for bits in itertools.product((0, 1), repeat=len(terms))
        if any(bits)
    ]
    models = []
    for present in itertools.product((False, True), repeat=len(regions)):
        model = frozenset(r for r, keep in zip(regions, present, strict=True) if keep)
        if all(holds(p, model) for p in premises):
            models.append(model)
    inhabited = [m for m in models if all(any(t in r for r in m) for t in terms)]
    assert inhabited
    for label, text in options(row).items():
        if label == row["answer"]:
            assert all(holds(text, m) for m in models)
        else:
            assert not all(holds(text, m) for m in inhabited)


@pytest.mark.parametrize("row", rows_of("sequence"), ids=lambda r: r["id"])
def test_sequence_by_parameter_search(row: dict) -> None:
    prompt = row["prompt"]
    shown = [int(v) for v in re.search(r"begins ([-\d, ]+)\.", prompt)[1].split(", ")]
    predictions = set()
    if "plus the same fixed integer" in prompt:
        for d in range(-100, 101):
            if all(b - a == d for a, b in itertools.pairwise(shown)):
                predictions.add(shown[-1] + d)
    elif "p times the previous" in prompt:
        for p, q in itertools.product(range(-10, 11), range(-200, 201)):
            if all(b == p * a + q for a, b in itertools.pairwise(shown)):
                predictions.add(p * shown[-1] + q)
    elif "a times the previous" in prompt:
        for a, b in itertools.product(range(-10, 11), repeat=2):
            if all(shown[i + 2] == a * shown[i + 1] + b * shown[i] for i in range(len(shown) - 2)):
                predictions.add(a * shown[-1] + b * shown[-2])
    else:  # degree <= 2: constant second differences, extended to the asked n
        n = int(re.search(r"term for n = (\d+)", prompt)[1])
        seq = list(shown)
        second = {c - 2 * b + a for a, b, c in zip(seq, seq[1:], seq[2:], strict=False)}
        assert len(second) == 1
        while len(seq) < n:
            seq.append(2 * seq[-1] - seq[-2] + next(iter(second)))
        predictions.add(seq[n - 1])
    assert predictions == {int(row["answer"])}


def parse_day(text: str) -> dt.date:
    return dt.datetime.strptime(text, "%d %B %Y").date()


@pytest.mark.parametrize("row", rows_of("calendar"), ids=lambda r: r["id"])
def test_calendar_with_datetime(row: dict) -> None:
    prompt = row["prompt"]
    dates = [parse_day(d) for d in re.findall(r"\d{1,2} [A-Z][a-z]+ \d{4}", prompt)]
    if m := re.search(r"is a (\w+)\. What day of the week", prompt):
        assert DAYS[dates[0].weekday()] == m[1]
        assert row["answer"] == DAYS[dates[1].weekday()]
    elif m := re.search(r"What is the date (\d+) days after", prompt):
        assert row["answer"] == (dates[0] + dt.timedelta(days=int(m[1]))).isoformat()
    else:
        assert int(row["answer"]) == (dates[1] - dates[0]).days > 0


@pytest.mark.parametrize("row", rows_of("knights_knaves"), ids=lambda r: r["id"])
def test_knights_and_knaves_by_enumeration(row: dict) -> None:
    says = re.findall(r'^(\w+) says: "(.+)"$', row["prompt"], flags=re.M)
    names = [who for who, _ in says]

    def true(speaker: str, claim: str, knight: dict[str, bool]) -> bool:
        claim = re.sub(r"\bI\b|\bme\b", speaker, claim)
        if m := re.fullmatch(r"(\w+) is a (knight|knave)\.", claim):
            return knight[m[1]] == (m[2] == "knight")
        if m := re.fullmatch(r"Exactly (\d) of us (?:is a knight|are knights)\.", claim):
            return sum(knight.values()) == int(m[1])
        if m := re.fullmatch(r"(\w+) and (\w+) are (the same kind|different kinds)\.", claim):
            return (knight[m[1]] == knight[m[2]]) == (m[3] == "the same kind")
        m = re.fullmatch(r"At least one of (\w+) and (\w+) is a knight\.", claim)
        assert m, claim
        return knight[m[1]] or knight[m[2]]

    worlds = []
    for kinds in itertools.product((True, False), repeat=len(names)):
        knight = dict(zip(names, kinds, strict=True))
        if all(true(who, claim, knight) == knight[who] for who, claim in says):
            worlds.append(knight)
    assert len(worlds) == 1
    truth = [
        label
        for label, text in options(row).items()
        if all(f"{n} is a {'knight' if worlds[0][n] else 'knave'}" in text for n in names)
    ]
    assert truth == [row["answer"]]


@pytest.mark.parametrize("row", rows_of("sets"), ids=lambda r: r["id"])
def test_set_counts_by_search(row: dict) -> None:
    nums = [int(v) for v in re.findall(r"\b\d+\b", row["prompt"].split("\n")[0])]
    total = nums[0]
    if "none of the three" in row["prompt"]:
        _, a, b, c, ab, ac, bc, abc = nums
        only = [a - ab - ac + abc, b - ab - bc + abc, c - ac - bc + abc]
        regions = [*only, ab - abc, ac - abc, bc - abc, abc]
        assert min(regions) >= 0
        assert int(row["answer"]) == total - sum(regions)
    else:
        _, a, b, given = nums
        if "How many belong to neither" in row["prompt"]:
            fits = [total - (a + b - given)]
        else:  # search the overlap that leaves exactly `given` outside both groups
            fits = [x for x in range(min(a, b) + 1) if total - (a + b - x) == given]
        assert fits == [int(row["answer"])]
