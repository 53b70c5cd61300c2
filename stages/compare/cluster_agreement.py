"""One clustering for both sides of a comparison (issue 34).

The clusters used to be read from B's records only, so swapping A and B could change the test
(an older verdict file without clusters on one side: 50 independent items one way, 5 clusters the
other). Now both sides' clusters count: two paired records are in one cluster when A or B puts
them in one, directly or through a chain of shared clusters (the connected components of the two
partitions together). This is the coarser clustering, the safe one when the two disagree, and it
is the same whichever side is A. When they disagree the rows say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from stages.compare.records import VerdictRecord

Pair = tuple[VerdictRecord, VerdictRecord]
Key = tuple[str, int | None, str]


def _root(parent: dict[Key, Key], key: Key) -> Key:
    while parent[key] != key:
        parent[key] = parent[parent[key]]  # path halving keeps the chains short
        key = parent[key]
    return key


def agree(pairs: Sequence[Pair]) -> tuple[list[Pair], str | None]:
    """The pairs with one cluster per pair on both sides, and a note when A and B disagreed."""
    if all(x.cluster_key == y.cluster_key for x, y in pairs):
        return list(pairs), None
    parent: dict[Key, Key] = {}
    for x, y in pairs:
        ka, kb = ("a", *x.cluster_key), ("b", *y.cluster_key)
        parent.setdefault(ka, ka)
        parent.setdefault(kb, kb)
        ra, rb = _root(parent, ka), _root(parent, kb)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)  # the smallest key names the component: no order
    merged: list[Pair] = []
    for x, y in pairs:
        # A component stays within one seed (paired records share theirs): the name suffices.
        side, _, name = _root(parent, ("a", *x.cluster_key))
        label = f"{side}:{name}"
        merged.append((replace(x, cluster=label), replace(y, cluster=label)))
    groups = len({x.cluster_key for x, _ in merged})
    note = (
        f"A and B group the items into clusters differently: both groupings count "
        f"({groups} clusters)"
    )
    return merged, note
