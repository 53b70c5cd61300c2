"""Synthetic JavaScript ES-module projects for eval-longgen-integrity-v1 (spec 001,
"eval-longgen-integrity-v1").

A project is a handful of files of exported constants, functions and classes whose names are
drawn from a per-project domain vocabulary (``computeWeightedParcelTotal``, ``RouteLedger``,
``MAX_DEPOT_BATCH``) and whose numeric literals are seeded. Every name the emitter writes as a
definition (declaration, parameter, method, property, object key) is also recorded in
``Project.defined``: the generator cross-checks that list against :func:`parse_identifiers`,
which recovers the same set from the source text alone.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


DOMAINS: dict[str, tuple[str, ...]] = {
    "logistics": ("parcel", "depot", "courier", "route", "manifest", "pallet", "dock", "freight"),
    "greenhouse": ("seedling", "tray", "humidity", "irrigation", "nutrient", "canopy", "valve"),
    "library": ("volume", "shelf", "patron", "loan", "catalog", "branch", "archive", "reader"),
    "observatory": ("telescope", "exposure", "frame", "target", "filter", "dome", "magnitude"),
    "transit": ("station", "platform", "timetable", "fare", "vehicle", "transfer", "headway"),
    "kitchen": ("recipe", "oven", "ingredient", "ticket", "portion", "pantry", "supplier"),
    "energy": ("turbine", "meter", "feeder", "outage", "tariff", "inverter", "battery"),
    "brewery": ("mash", "vessel", "cask", "gravity", "yeast", "bottling", "cellar", "keg"),
    "marina": ("berth", "tide", "mooring", "slip", "harbor", "skipper", "permit", "buoy"),
    "orchard": ("tree", "crate", "picker", "harvest", "variety", "grade", "frost", "bin"),
    "cinema": ("screen", "showing", "seat", "reel", "projector", "booking", "usher", "lobby"),
    "printshop": ("press", "sheet", "proof", "binder", "plate", "margin", "trim", "spool"),
}
VERBS = _words(
    "compute resolve normalize collect merge score validate format build estimate rank "
    "summarize allocate reconcile select measure adjust derive group plan"
)
QUALIFIERS = _words(
    "total average peak pending active daily weighted nominal spare rolling effective "
    "minimum maximum queued"
)
CLASS_SUFFIXES = _words(
    "Registry Ledger Scheduler Tracker Queue Index Planner Cache Buffer Monitor"
)
CONST_SUFFIXES = _words("LIMIT WINDOW BATCH RATIO FACTOR THRESHOLD CAPACITY STEP")
FIELDS = _words("weight quantity priority score capacity duration level count")
STATUSES = _words("open closed held late queued done failed draft")
KEYWORDS = frozenset(
    _words(
        "async await break case catch class const constructor continue default delete do else "
        "export extends false finally for function get if import in instanceof let new null "
        "of return set static super switch this throw true try typeof undefined var void "
        "while yield "
    )
)
_NAME = r"[A-Za-z_$][\w$]*"


def camel(*words: str) -> str:
    return words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])


def upper(*words: str) -> str:
    return "_".join(w.upper() for w in words)


def strip_comments_and_strings(source: str) -> str:
    """Source with comments removed and string literals emptied (``'a b'`` -> ``""``)."""
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    source = re.sub(r"//[^\n]*", " ", source)
    return re.sub(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|`[^`]*`", '""', source)


def _params(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if re.fullmatch(_NAME, p.strip())]


def parse_identifiers(source: str) -> list[str]:
    """Every identifier the source defines: declarations, parameters, methods, properties, keys."""
    code = strip_comments_and_strings(source)
    found = set(re.findall(rf"\b(?:function|class)\s+({_NAME})", code))
    found |= set(re.findall(rf"\b(?:const|let|var)\s+({_NAME})", code))
    for params in re.findall(rf"\bfunction\s+{_NAME}\s*\(([^)]*)\)", code):
        found |= set(_params(params))
    for name, params in re.findall(rf"^\s+(?:get\s+)?({_NAME})\s*\(([^)]*)\)\s*\{{", code, re.M):
        if name not in KEYWORDS:
            found |= {name, *_params(params)}
    for params in re.findall(r"\(([^()]*)\)\s*=>", code):
        found |= set(_params(params))
    found |= set(re.findall(rf"\bthis\.({_NAME})\s*=(?!=)", code))
    found |= set(re.findall(rf"(?:^|[{{,])\s*({_NAME})\s*:(?!:)", code, re.M))
    return sorted(found - KEYWORDS)


def parse_numbers(source: str) -> list[str]:
    """Every numeric literal in the code (comments and strings excluded), as written."""
    code = strip_comments_and_strings(source)
    return sorted(set(re.findall(r"(?<![\w$.])\d+(?:\.\d+)?(?![\w$])", code)), key=float)


@dataclass
class Function:
    path: str
    name: str
    arity: int


@dataclass
class Project:
    """A project under construction: files as lists of lines, and the names it defines."""

    rng: random.Random
    domain: str
    files: dict[str, list[str]] = field(default_factory=dict)
    exports: dict[str, list[str]] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)
    functions: list[Function] = field(default_factory=list)
    constants: list[tuple[str, str]] = field(default_factory=list)
    fields: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Record fields: an id, a status, then three numeric measures.
        kinds = ("code", "status", *self.rng.sample(FIELDS, 3))
        self.fields = tuple(camel(self.noun(), kind) for kind in kinds)
        self.defined |= set(self.fields)

    def noun(self) -> str:
        return self.rng.choice(DOMAINS[self.domain])

    def define(self, name: str) -> str:
        self.defined.add(name)
        return name

    def fresh(self, make: str) -> str:
        """A new top-level name: ``make`` is ``fn``, ``class`` or ``const``."""
        rng = self.rng
        while True:
            if make == "fn":
                name = camel(rng.choice(VERBS), rng.choice(QUALIFIERS), self.noun())
            elif make == "class":
                name = camel(rng.choice(QUALIFIERS), self.noun(), rng.choice(CLASS_SUFFIXES))
                name = name[0].upper() + name[1:]
            else:
                name = upper(rng.choice(QUALIFIERS), self.noun(), rng.choice(CONST_SUFFIXES))
            if name not in self.defined:
                return self.define(name)

    def number(self) -> str:
        rng = self.rng
        kind = rng.randrange(3)
        if kind == 0:
            return str(rng.randint(2, 99))
        if kind == 1:
            return str(rng.randint(100, 9_999))
        return f"{rng.randint(0, 9)}.{rng.randint(1, 999):03d}".rstrip("0")

    def emit(self, path: str, lines: list[str], exported: str | None = None) -> None:
        self.files[path].extend(lines + [""])
        if exported:
            self.exports[path].append(exported)

    def size(self) -> int:
        return len(render(self.files))


def render(files: dict[str, list[str]]) -> str:
    """The project as one text: each file introduced by a ``// File: <path>`` line."""
    return "\n".join(
        f"// File: {path}\n" + "\n".join(lines).rstrip() + "\n" for path, lines in files.items()
    )
