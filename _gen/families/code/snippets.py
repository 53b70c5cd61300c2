"""Seeded code snippets in five languages for prompts-code-v1 (spec 001, "kind: prompts").

Four unit templates per language (a threshold sum, a grouping, a bounded buffer type, a ranking;
SQL: a table, an aggregate, a join, a windowed CTE) filled with identifiers from a domain
vocabulary and seeded constants, so no two generated units are alike. Each unit carries the
sentence that specifies it, used when the task is to write such a unit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from families.longgen.jsproject import DOMAINS, QUALIFIERS, VERBS

LANG_NAMES = {
    "python": "Python",
    "typescript": "TypeScript",
    "go": "Go",
    "rust": "Rust",
    "sql": "SQL",
}
FENCE = {"python": "python", "typescript": "ts", "go": "go", "rust": "rust", "sql": "sql"}
#: Unit templates; Go is written with four-space indents that become tabs in ``_go_tabs``.
UNITS: dict[str, tuple[str, ...]] = {
    "python": (
        '''\
def {fn}({a}: list[float], {b}: float = {k}) -> float:
    """Sum the {q} {noun} readings above {b}."""
    {acc} = 0.0
    for {item} in {a}:
        if {item} > {b}:
            {acc} += {item} * {f}
    return round({acc}, {d})
''',
        """\
def {fn}({a}: list[dict]) -> dict[str, int]:
    {acc}: dict[str, int] = {{}}
    for {item} in {a}:
        key = {item}.get("{field}", "{status}")
        {acc}[key] = {acc}.get(key, 0) + {item}.get("{field2}", {k})
    return {acc}
""",
        """\
class {Type}:
    def __init__(self, {b}: int = {k}) -> None:
        self.{b} = {b}
        self.{acc}: list[int] = []

    def {method}(self, {item}: int) -> bool:
        if len(self.{acc}) >= self.{b}:
            return False
        self.{acc}.append({item} % {t})
        return True
""",
        """\
def {fn}({a}: list[tuple[str, int]], limit: int = {k}) -> list[str]:
    ranked = sorted({a}, key=lambda pair: (-pair[1], pair[0]))
    return [name for name, {item} in ranked[:limit] if {item} >= {t}]
""",
    ),
    "typescript": (
        """\
export function {fn}({a}: number[], {b} = {k}): number {{
  let {acc} = 0;
  for (const {item} of {a}) {{
    if ({item} > {b}) {{
      {acc} += {item} * {f};
    }}
  }}
  return Number({acc}.toFixed({d}));
}}
""",
        """\
export interface {Record} {{
  {field}: string;
  {field2}: number;
}}

export function {fn}({a}: {Record}[]): Map<string, number> {{
  const {acc} = new Map<string, number>();
  for (const {item} of {a}) {{
    {acc}.set({item}.{field}, ({acc}.get({item}.{field}) ?? 0) + {item}.{field2});
  }}
  return {acc};
}}
""",
        """\
export class {Type} {{
  private readonly {acc}: number[] = [];

  constructor(private readonly {b}: number = {k}) {{}}

  {method}({item}: number): boolean {{
    if (this.{acc}.length >= this.{b}) {{
      return false;
    }}
    this.{acc}.push({item} % {t});
    return true;
  }}
}}
""",
        """\
export function {fn}({a}: Array<[string, number]>, limit = {k}): string[] {{
  return [...{a}]
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, limit)
    .filter(([, {item}]) => {item} >= {t})
    .map(([name]) => name);
}}
""",
    ),
    "go": (
        """\
func {Fn}({a} []float64, {b} float64) float64 {{
    {acc} := 0.0
    for _, {item} := range {a} {{
        if {item} > {b} {{
            {acc} += {item} * {f}
        }}
    }}
    return math.Round({acc}*{p10}) / {p10}
}}
""",
        """\
type {Record} struct {{
    {Field} string
    {Field2} int
}}

func {Fn}({a} []{Record}) map[string]int {{
    {acc} := make(map[string]int, len({a}))
    for _, {item} := range {a} {{
        {acc}[{item}.{Field}] += {item}.{Field2}
    }}
    return {acc}
}}
""",
        """\
type {Type} struct {{
    {b} int
    {acc} []int
}}

func (r *{Type}) {Method}({item} int) bool {{
    if len(r.{acc}) >= r.{b} {{
        return false
    }}
    r.{acc} = append(r.{acc}, {item}%{t})
    return true
}}
""",
        """\
func {Fn}({a} map[string]int, limit int) []string {{
    keys := make([]string, 0, len({a}))
    for key, value := range {a} {{
        if value >= {t} {{
            keys = append(keys, key)
        }}
    }}
    sort.Slice(keys, func(i, j int) bool {{ return {a}[keys[i]] > {a}[keys[j]] }})
    if len(keys) > limit {{
        keys = keys[:limit]
    }}
    return keys
}}
""",
    ),
    "rust": (
        """\
pub fn {fn}({a}: &[f64], {b}: f64) -> f64 {{
    let {acc}: f64 = {a}
        .iter()
        .filter(|&&{item}| {item} > {b})
        .map(|{item}| {item} * {f})
        .sum();
    ({acc} * {p10}.0).round() / {p10}.0
}}
""",
        """\
pub struct {Record} {{
    pub {field}: String,
    pub {field2}: u32,
}}

pub fn {fn}({a}: &[{Record}]) -> HashMap<String, u32> {{
    let mut {acc} = HashMap::new();
    for {item} in {a} {{
        *{acc}.entry({item}.{field}.clone()).or_insert(0) += {item}.{field2};
    }}
    {acc}
}}
""",
        """\
pub struct {Type} {{
    {b}: usize,
    {acc}: Vec<u32>,
}}

impl {Type} {{
    pub fn new({b}: usize) -> Self {{
        Self {{ {b}, {acc}: Vec::with_capacity({b}) }}
    }}

    pub fn {method}(&mut self, {item}: u32) -> bool {{
        if self.{acc}.len() >= self.{b} {{
            return false;
        }}
        self.{acc}.push({item} % {t});
        true
    }}
}}
""",
        """\
pub fn {fn}({a}: &[(String, i64)], limit: usize) -> Vec<String> {{
    let mut ranked: Vec<_> = {a}.iter().filter(|(_, v)| *v >= {t}).collect();
    ranked.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
    ranked.into_iter().take(limit).map(|(name, _)| name.clone()).collect()
}}
""",
    ),
    "sql": (
        """\
CREATE TABLE {table} (
    {col}_id INTEGER PRIMARY KEY,
    {col2} TEXT NOT NULL,
    {col3} NUMERIC(10, 2) DEFAULT {f},
    created_at TIMESTAMP NOT NULL
);
""",
        """\
SELECT {col2}, COUNT(*) AS {acc}, ROUND(AVG({col3}), {d}) AS {q}_{col3}
FROM {table}
WHERE {col3} > {t}
GROUP BY {col2}
HAVING COUNT(*) >= {k}
ORDER BY {acc} DESC;
""",
        """\
SELECT a.{col}_id, a.{col2}, b.{col3}
FROM {table} AS a
JOIN {table2} AS b ON b.{col}_id = a.{col}_id
WHERE b.{col3} BETWEEN {k} AND {t2}
ORDER BY b.{col3} DESC
LIMIT {lim};
""",
        """\
WITH ranked AS (
    SELECT {col2}, {col3},
           ROW_NUMBER() OVER (PARTITION BY {col2} ORDER BY {col3} DESC) AS rn
    FROM {table}
)
SELECT {col2}, {col3}
FROM ranked
WHERE rn <= {k};
""",
    ),
}
SPECS = (
    "takes a list of {noun} readings and a threshold (default {k}) and returns the sum of the "
    "readings above it, each multiplied by {f}, rounded to {d} decimal digit(s)",
    "groups {noun} records by their `{field}` and sums their `{field2}` per group",
    "defines a bounded buffer type `{Type}` holding at most N values (default {k}) with a method "
    "`{method}` that stores a value modulo {t} and reports whether it fitted",
    "returns the names of the top `limit` {noun} entries whose count is at least {t}, highest "
    "count first, ties broken by name",
)
SQL_SPECS = (
    "creates a table `{table}` with an integer id `{col}_id`, a required text `{col2}`, a "
    "`{col3}` amount defaulting to {f} and a creation timestamp",
    "counts the rows of `{table}` per `{col2}` where `{col3}` exceeds {t}, keeping groups of at "
    "least {k} rows, with the average `{col3}` rounded to {d} places",
    "joins `{table}` to `{table2}` on `{col}_id` and lists rows whose `{col3}` lies between {k} "
    "and {t2}, largest first, at most {lim} rows",
    "returns the {k} largest `{col3}` values per `{col2}` in `{table}` using a window function",
)
ONE_LINERS = {
    "python": "def {fn}(xs): return [x * {k} for x in xs if x > {t}]",
    "typescript": "const {fn} = (xs: number[]) => xs.filter((x) => x > {t}).map((x) => x * {k});",
    "go": "func {Fn}(x int) int {{ return x*{k} + {t} }}",
    "rust": "fn {fn}(xs: &[i32]) -> i32 {{ xs.iter().filter(|x| **x > {t}).sum() }}",
    "sql": "SELECT {col2}, SUM({col3}) FROM {table} WHERE {col3} > {t} GROUP BY {col2};",
}
MUTATIONS = (
    (" >= ", " > "),
    (" > ", " < "),
    (" += ", " -= "),
    (" % ", " / "),
    (" DESC", " ASC"),
    (" + ", " - "),
)


@dataclass(frozen=True)
class Unit:
    """One generated function, type or query, with the sentence that specifies it."""

    code: str
    spec: str
    name: str
    declared: tuple[str, ...]


def _case(lang: str, words: list[str], kind: str) -> str:
    if kind == "type" or (lang == "go" and kind == "pub"):
        return "".join(w.capitalize() for w in words)
    if lang in ("typescript", "go"):
        return words[0] + "".join(w.capitalize() for w in words[1:])
    return "_".join(words)


def slots(rng: random.Random, lang: str, domain: str) -> dict[str, str]:
    """Fresh seeded identifiers and constants for one unit."""
    noun, other, third = rng.sample(DOMAINS[domain], 3)
    verb, q = rng.choice(VERBS), rng.choice(QUALIFIERS)
    fn = [verb, q, noun]
    return {
        "fn": _case(lang, fn, "fn"),
        "Fn": _case(lang, fn, "pub"),
        "noun": noun,
        "q": q,
        "Type": _case(lang, [q, other, rng.choice(("buffer", "window", "pool", "queue"))], "type"),
        "Record": _case(lang, [other, rng.choice(("record", "entry", "sample"))], "type"),
        "method": _case(lang, [rng.choice(("push", "offer", "record", "admit")), noun], "fn"),
        "Method": _case(lang, [rng.choice(("push", "offer", "record", "admit")), noun], "pub"),
        "a": _case(lang, [noun, rng.choice(("values", "readings", "rows", "items"))], "fn"),
        "b": _case(lang, [rng.choice(("max", "limit", "cap")), other], "fn"),
        "acc": _case(lang, [q, third], "fn"),
        "item": _case(lang, [other, "value"], "fn"),
        "field": _case(lang, [other, "kind"], "fn"),
        "field2": _case(lang, [third, "count"], "fn"),
        "Field": _case(lang, [other, "kind"], "type"),
        "Field2": _case(lang, [third, "count"], "type"),
        "status": rng.choice(("open", "held", "late", "done")),
        "table": f"{noun}_{other}s",
        "table2": f"{third}_{q}s",
        "col": noun,
        "col2": f"{other}_kind",
        "col3": f"{third}_amount",
        "k": str(rng.randint(2, 90)),
        "t": str(rng.randint(3, 500)),
        "t2": str(rng.randint(600, 9000)),
        "f": f"{rng.randint(1, 9)}.{rng.randint(1, 99):02d}",
        "d": str(rng.randint(1, 3)),
        "p10": rng.choice(("10", "100", "1000")),
        "lim": str(rng.randint(5, 200)),
    }


def unit(rng: random.Random, lang: str, domain: str) -> Unit:
    """One seeded unit of code in ``lang``."""
    values = slots(rng, lang, domain)
    index = rng.randrange(4)
    spec = (SQL_SPECS if lang == "sql" else SPECS)[index].format(**values)
    code = UNITS[lang][index].format(**values)
    if lang == "go":
        code = code.replace("    ", "\t")
    if lang == "sql":
        return Unit(code, spec, values["table"], (values["table"], spec))
    name = values["Type"] if index == 2 else values["Fn" if lang == "go" else "fn"]
    # Everything the unit declares at top level, so a prompt never declares a name twice.
    declared = (name, values["Record"]) if index == 1 else (name,)
    return Unit(code, spec, name, declared)


def one_liner(rng: random.Random, lang: str, domain: str) -> str:
    return ONE_LINERS[lang].format(**slots(rng, lang, domain))


def header(lang: str, body: str) -> str:
    """Imports a multi-unit module in ``lang`` needs, if any."""
    if lang == "go":
        imports = [f'\t"{m}"' for m in ("math", "sort") if f"{m}." in body]
        return "package main\n\n" + (f"import (\n{chr(10).join(imports)}\n)\n\n" if imports else "")
    if lang == "rust" and "HashMap" in body:
        return "use std::collections::HashMap;\n\n"
    return ""


def mutate(code: str) -> str | None:
    """``code`` with one operator changed (a plausible bug), or None when none applies."""
    for old, new in MUTATIONS:
        if old in code:
            return code.replace(old, new, 1)
    return None
