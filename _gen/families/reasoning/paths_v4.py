"""Shortest-path family of eval-reasoning-v4: eval-reasoning-v3's maps, routes written with
arrows and dashes accepted.

eval-reasoning-v3 asked for the route "separated by hyphens" and accepted ASCII spellings only,
so "Dunmore → Kestrel → Harlow → Fenwick" and the en-dash spelling were scored wrong (issue 19:
reason3-0126). Here the maps and questions are v3's (``paths.build``) and the typed route also
accepts the arrow "→", the en dash "–" and the em dash "—", spaced or not.

``slips``: the next-shortest routes (typed route); the lengths one km off, the next-shortest
route's length and the direct road's length (length questions); for the drive through a town,
also the shortest drive that skips the town. The proof is v3's (Bellman-Ford, every offered
route measured again).
"""

from __future__ import annotations

import random
from typing import Any

from families.reasoning import paths

CATEGORY = paths.CATEGORY
FORMS = paths.FORMS
Item = dict[str, Any]
prove = paths.prove
SEPARATORS = (" → ", "→", " – ", "–", " — ", "—")


def build(rng: random.Random, level: int, form: int) -> Item:
    item = paths.build(rng, level, form)
    if item["scorer"] != "exact":
        return item
    route = item["answer"][0].split("-")
    return {**item, "answer": [*item["answer"], *(s.join(route) for s in SEPARATORS)]}


def slips(row: dict[str, Any]) -> tuple[list[Any], list[str]]:
    m = row["meta"]
    found = paths.simple_paths(m["edges"], m["source"], m["target"])
    if row["scorer"] == "exact":
        return ["-".join(p) for _, p in found[1:4]], []
    gold = int(row["answer"])
    direct = [w for a, b, w, _ in m["edges"] if {a, b} == {m["source"], m["target"]}]
    wrong = [gold - 1, gold + 1, *(length for length, _ in found[1:2]), *direct]
    if "via" in m:
        wrong.append(found[0][0])
    return wrong, []
