# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""prompts-code-v1: coding prompts in five languages and four task kinds (spec 001,
"kind: prompts": code_lang and task, a system message naming the language).

Every language x task pair appears once in each of six groups, whose sizes run through the
buckets xs, s, s, m, m, l. The code shown is assembled from seeded units (``snippets``), so
no two prompts, and no two code units in the whole dataset, are the same text; "fix" prompts carry
one flipped operator. ``prove`` recomputes tokens and bucket and checks the system message names
the language; ``prove_all`` checks coverage and uniqueness.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.code import snippets
from families.longgen.jsproject import DOMAINS

DATASET_ID = "prompts-code-v1"
KIND = "prompts"
DESCRIPTION = (
    "Coding prompts (write, fix, explain, refactor) in Python, TypeScript, Go, Rust and SQL over "
    "seeded code, buckets xs to l, each with a system message naming the language."
)
SEED = 20_261_205
CREATED = "2026-12-01"
DEFAULT_SCORER = None
LANGS = ("python", "typescript", "go", "rust", "sql")
TASKS = ("write", "fix", "explain", "refactor")
#: bucket of each group of 20 rows, with the approx_tokens range its code is grown to (xs and s
#: rows hold one line or one unit of code)
GROUPS = (
    ("xs", 0, 0),
    ("s", 0, 0),
    ("s", 0, 0),
    ("m", 300, 850),
    ("m", 300, 850),
    ("l", 1100, 3600),
)
COUNT = len(GROUPS) * len(LANGS) * len(TASKS)
XS_WHAT = ("sum", "largest value", "smallest value", "number of even values", "average")
ASKS = {
    "fix": "One operator in this code is wrong, so `{name}` gives wrong results. Find the bug and "
    "show the corrected code.",
    "explain": "Explain what this code does, unit by unit, and point out edge cases a caller "
    "should know about.",
    "refactor": "Refactor this code for readability and testability without changing its "
    "behaviour or its public names.",
}


def _system(lang: str, bucket: str) -> str:
    name = snippets.LANG_NAMES[lang]
    text = f"You are an expert {name} programmer."
    if bucket != "xs":
        text += f" Answer with idiomatic {name} in fenced code blocks and keep any prose brief."
    return text


def _xs_user(rng: random.Random, lang: str, task: str, domain: str) -> str:
    name, noun = snippets.LANG_NAMES[lang], rng.choice(DOMAINS[domain])
    what = rng.choice(XS_WHAT)
    if task == "write":
        values = snippets.slots(rng, lang, domain)
        if lang == "sql":
            column, table = values["col3"], values["table"]
            return f"Write a SQL query returning the {what} of `{column}` in `{table}`."
        fn = values["Fn" if lang == "go" else "fn"]
        return f"Write a {name} function `{fn}` returning the {what} of a list of {noun} counts."
    line = snippets.one_liner(rng, lang, domain)
    lead = {
        "fix": f"Fix the bug in this {name}:",
        "explain": f"What does this {name} do?",
        "refactor": f"Make this {name} more readable:",
    }[task]
    shown = (snippets.mutate(line) or line) if task == "fix" else line
    return f"{lead}\n{shown}"


def _user(
    rng: random.Random, lang: str, task: str, domain: str, low: int, high: int, system: str
) -> str:
    target = rng.randint(low, high) * 4 - len(system) - 300
    names: set[str] = set()

    def fresh() -> snippets.Unit:
        """A unit declaring nothing this prompt declares yet (the code must stay valid)."""
        while names.intersection((made := snippets.unit(rng, lang, domain)).declared):
            pass
        names.update(made.declared)
        return made

    units = [fresh()]
    while sum(len(u.code) + 1 for u in units) < target:
        units.append(fresh())
    while task == "fix" and snippets.mutate(units[-1].code) is None:
        units[-1] = fresh()  # a unit with an operator to break
    last = units[-1]
    if task == "fix":
        units[-1] = snippets.Unit(
            snippets.mutate(last.code) or "", last.spec, last.name, last.declared
        )
    body = ("\n\n" if lang == "python" else "\n").join(u.code for u in units)
    code = f"```{snippets.FENCE[lang]}\n{snippets.header(lang, body)}{body}```"
    if task == "write":
        new = fresh()
        kind = "query" if lang == "sql" else "unit"
        return (
            f"Here is the existing {snippets.LANG_NAMES[lang]} code:\n\n{code}\n\n"
            f"Write a new {kind} in the same style that {new.spec}. Reuse what is above "
            "where it helps."
        )
    return f"{code}\n\n{ASKS[task].format(name=last.name)}"


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    lang, task = LANGS[idx % len(LANGS)], TASKS[(idx // len(LANGS)) % len(TASKS)]
    bucket, low, high = GROUPS[idx // (len(LANGS) * len(TASKS))]
    domain = rng.choice(sorted(DOMAINS))
    system = _system(lang, bucket)
    if bucket == "xs":
        user = _xs_user(rng, lang, task, domain)
    else:
        user = _user(rng, lang, task, domain, low, high, system)
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return lib.prompt_row(f"code-{idx + 1:04d}", domain, "en", messages, code_lang=lang, task=task)


def prove(row: dict[str, Any]) -> None:
    idx = int(row["id"].split("-")[1]) - 1
    tokens = lib.approx_tokens(m["content"] for m in row["messages"])
    assert tokens == row["approx_tokens"] and lib.bucket_for(tokens) == row["bucket"], row["id"]
    assert row["bucket"] == GROUPS[idx // (len(LANGS) * len(TASKS))][0], row["id"]
    system = row["messages"][0]
    assert system["role"] == "system" and snippets.LANG_NAMES[row["code_lang"]] in system["content"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["messages"][1]["content"], "user message")
    pairs = Counter((r["code_lang"], r["task"]) for r in rows)
    assert pairs == {(lang, task): len(GROUPS) for lang in LANGS for task in TASKS}
    seen: dict[str, str] = {}
    for row in rows:
        for block in row["messages"][1]["content"].split("\n\n"):
            if len(block) > 120:
                assert block not in seen, f"{row['id']} repeats a block of {seen[block]}"
                seen[block] = row["id"]


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
