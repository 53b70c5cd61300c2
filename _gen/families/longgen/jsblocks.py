"""Code blocks for the synthetic JavaScript projects of eval-longgen-integrity-v1.

Each block writes a few lines of idiomatic ES-module code into one file of a
:class:`jsproject.Project` and records every name it defines there (``p.define`` / ``p.fresh``),
so the generator's own list of definitions can be checked against the parsed source.
"""

from __future__ import annotations

import re

from families.longgen.jsproject import QUALIFIERS, STATUSES, Function, Project, camel

COLLECTIONS = ("list", "items", "records", "entries", "batch", "rows")


def _local(p: Project, *suffixes: str) -> str:
    return p.define(camel(p.noun(), p.rng.choice(suffixes)))


def _doc(name: str, params: list[str]) -> list[str]:
    verb, *words = re.findall(r"[A-Z]?[a-z]+", name)
    what = " ".join(words).lower()
    summary = (
        f"Creates a {what} from its fields."
        if verb == "create"
        else (f"{verb.capitalize()}s the {what} figures of a batch.")
    )
    lines = ["/**", f" * {summary}"]
    lines += [
        f" * @param {{*}} {param} {param_words}"
        for param, param_words in (
            (q, " ".join(re.findall(r"[A-Z]?[a-z]+", q)).lower()) for q in params
        )
    ]
    return lines + [" */"]


def _function(
    p: Project, path: str, params: list[str], body: list[str], name: str | None = None
) -> None:
    name = p.define(name) if name else p.fresh("fn")
    for param in params:
        p.define(param)
    head = f"export function {name}({', '.join(params)}) {{"
    p.emit(path, _doc(name, params) + [head] + [f"  {line}" for line in body] + ["}"], name)
    p.functions.append(Function(path, name, len(params)))


def constants(p: Project, path: str) -> None:
    lines = []
    for _ in range(p.rng.randint(2, 4)):
        name = p.fresh("const")
        lines.append(f"export const {name} = {p.number()};")
        p.exports[path].append(name)
        p.constants.append((path, name))
    p.emit(path, lines)


def settings(p: Project, path: str) -> None:
    name = p.fresh("const")
    keys = list(dict.fromkeys(camel(p.rng.choice(QUALIFIERS), p.noun()) for _ in range(4)))
    body = [f"  {p.define(key)}: {p.number()}," for key in keys]
    p.emit(path, [f"export const {name} = Object.freeze({{", *body, "});"], name)
    p.constants.append((path, name))


def factory(p: Project, path: str) -> None:
    params = [camel("initial", f[:1].upper() + f[1:]) for f in p.fields]
    body = ["return {"] + [f"  {f}: {a}," for f, a in zip(p.fields, params, strict=True)]
    body += [f"  {p.define(camel(p.noun(), 'tags'))}: [],", "};"]
    _function(p, path, params, body, camel("create", p.noun(), "record"))


def weighted_sum(p: Project, path: str) -> None:
    items, factor = _local(p, *COLLECTIONS), _local(p, "factor", "weight", "scale")
    item, acc = p.define(camel("current", p.noun())), _local(p, "total", "sum", "tally")
    status, num = p.fields[1], p.rng.choice(p.fields[2:])
    body = [
        f"let {acc} = 0;",
        f"for (const {item} of {items}) {{",
        f"  if ({item}.{status} === '{p.rng.choice(STATUSES)}') {{",
        "    continue;",
        "  }",
        f"  {acc} += {item}.{num} * {factor};",
        "}",
        f"return Math.round({acc} * {p.number()}) / {p.number()};",
    ]
    _function(p, path, [items, factor], body)


def clamp(p: Project, path: str) -> None:
    value, low, high = (
        _local(p, "value", "reading"),
        _local(p, "floor", "lower"),
        _local(p, "ceiling", "upper"),
    )
    bounded = _local(p, "bounded", "clamped")
    body = [
        f"if (Number.isNaN({value})) {{",
        f"  return {low};",
        "}",
        f"const {bounded} = Math.min(Math.max({value}, {low}), {high});",
        f"return {bounded} - ({bounded} % {p.number()});",
    ]
    _function(p, path, [value, low, high], body)


def group_by(p: Project, path: str) -> None:
    records, groups = _local(p, *COLLECTIONS), _local(p, "groups", "buckets")
    record, key = p.define(camel("next", p.noun())), _local(p, "key", "label")
    body = [
        f"const {groups} = new Map();",
        f"for (const {record} of {records}) {{",
        f"  const {key} = {record}.{p.fields[1]} ?? '{p.rng.choice(STATUSES)}';",
        f"  if (!{groups}.has({key})) {{",
        f"    {groups}.set({key}, []);",
        "  }",
        f"  {groups}.get({key}).push({record});",
        "}",
        f"return {groups};",
    ]
    _function(p, path, [records], body)


def filter_map(p: Project, path: str) -> None:
    records, threshold = _local(p, *COLLECTIONS), _local(p, "threshold", "cutoff")
    entry, num = p.define(camel("each", p.noun())), p.rng.choice(p.fields[2:])
    out = p.define(camel(p.rng.choice(QUALIFIERS), "ratio"))
    body = [
        f"return {records}",
        f"  .filter(({entry}) => {entry}.{num} >= {threshold})",
        f"  .map(({entry}) => ({{ {p.fields[0]}: {entry}.{p.fields[0]}, "
        f"{out}: {entry}.{num} / {p.number()} }}));",
    ]
    _function(p, path, [records, threshold], body)


def rolling(p: Project, path: str) -> None:
    values, size = _local(p, "values", "samples"), _local(p, "window", "span")
    result, acc, index = _local(p, "series", "averages"), _local(p, "sum", "running"), "i"
    p.define(index)
    body = [
        f"const {result} = [];",
        f"let {acc} = 0;",
        f"for (let {index} = 0; {index} < {values}.length; {index} += 1) {{",
        f"  {acc} += {values}[{index}];",
        f"  if ({index} >= {size}) {{",
        f"    {acc} -= {values}[{index} - {size}];",
        "  }",
        f"  {result}.push({acc} / Math.min({index} + 1, {size}));",
        "}",
        f"return {result};",
    ]
    _function(p, path, [values, size], body)


def switch_status(p: Project, path: str) -> None:
    status = _local(p, "status", "state")
    first, second = p.rng.sample(STATUSES, 2)
    body = [
        f"switch ({status}) {{",
        f"  case '{first}':",
        f"    return {p.number()};",
        f"  case '{second}':",
        f"    return {p.number()};",
        "  default:",
        f"    return {p.number()};",
        "}",
    ]
    _function(p, path, [status], body)


def validate(p: Project, path: str) -> None:
    record, problems = _local(p, "record", "entry"), _local(p, "problems", "errors")
    ident, num = p.fields[0], p.rng.choice(p.fields[2:])
    body = [
        f"const {problems} = [];",
        f"if (typeof {record}.{ident} !== 'string') {{",
        f"  {problems}.push('{ident} must be a string');",
        "}",
        f"if ({record}.{num} < 0 || {record}.{num} > {p.number()}) {{",
        f"  {problems}.push('{num} is out of range');",
        "}",
        f"return {problems};",
    ]
    _function(p, path, [record], body)


def bridge(p: Project, path: str, called: Function, constant: str) -> None:
    """A function that uses names imported from another file."""
    first = _local(p, *COLLECTIONS)
    result = _local(p, "snapshot", "outcome")
    args = [first] + [p.number() for _ in range(called.arity - 1)]
    key = p.define(camel(p.rng.choice(QUALIFIERS), "value"))
    body = [
        f"const {result} = {called.name}({', '.join(args)});",
        f"return {{ {key}: {result}, {p.define(camel('limit', 'used'))}: {constant} }};",
    ]
    _function(p, path, [first], body)


def klass(p: Project, path: str) -> None:
    name = p.fresh("class")
    capacity, label = _local(p, "capacity", "size"), _local(p, "label", "name")
    store, entry = p.define(camel(p.noun(), "entries")), _local(p, "entry", "item")
    add, find = p.define(camel("add", p.noun())), p.define(camel("find", p.noun()))
    status = p.rng.choice(STATUSES)
    ident, count = p.define(camel("wanted", "id")), p.define(camel(status, "count"))
    other = p.define(camel("candidate", p.noun()))
    lines = [
        f"export class {name} {{",
        f"  constructor({capacity}, {label}) {{",
        f"    this.{capacity} = {capacity};",
        f"    this.{label} = {label};",
        f"    this.{store} = [];",
        "  }",
        "",
        f"  {add}({entry}) {{",
        f"    if (this.{store}.length >= this.{capacity}) {{",
        f"      throw new Error('{name} is full');",
        "    }",
        f"    this.{store}.push({entry});",
        f"    return this.{store}.length;",
        "  }",
        "",
        f"  {find}({ident}) {{",
        f"    return this.{store}.find(({other}) => {other}.{p.fields[0]} === {ident}) ?? null;",
        "  }",
        "",
        f"  get {count}() {{",
        f"    return this.{store}.filter(({other}) => {other}.{p.fields[1]} === "
        f"'{status}').length;",
        "  }",
        "}",
    ]
    p.emit(path, lines, name)


FUNCTION_BLOCKS = (weighted_sum, clamp, group_by, filter_map, rolling, switch_status, validate)
