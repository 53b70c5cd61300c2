"""eval-security-v4: every row's family proof re-run on the committed bytes, every row's probes
judged by its own scorer, and each defect issue 19 lists for eval-security-v3 replayed on the old
rows (by their ids) and shown gone in the new ones. Both datasets share one layout
(``common.suite``), so sec3-NNNN and sec4-NNNN are the same (family, level, form) cell.

Byte-identical regeneration of the files is tests/gen/test_determinism.py's job; here the rows,
probes included, are also regenerated in process.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.gen._checks import (
    Successor,
    assert_echoes_gone,
    assert_letters_balanced,
    assert_option_verdicts_single_out_gold,
    assert_regenerates_in_process,
    assert_same_cells,
    gold_text,
    load_generator,
    pooled_learned,
    pooled_rows,
    probe_failures,
    verdict,
)

V4 = Successor("eval-security-v4", "eval-security-v3")
ROWS, BY_ID, OLD, GEN, new = V4.rows, V4.by_id, V4.old, V4.gen, V4.new
OLD_GEN = load_generator("eval-security-v3")
VULNS = GEN.vulns_v4.vulns
INCIDENT = GEN.incident_v4

TYPE_TWICE = ("sec3-0013", "sec3-0073")
HALVED = ("sec3-0028", "sec3-0043", "sec3-0058", "sec3-0088", "sec3-0103", "sec3-0118")
LATE_WINS = tuple(f"sec3-{n:04d}" for n in (5, 10, 15, 65, 70, 75, 95, 100, 105, 110, 115, 120))
ENTRY_FIRST = ("sec3-0040", "sec3-0045")
CONTESTABLE = ("sec3-0025", "sec3-0030", "sec3-0060", "sec3-0085", "sec3-0090")
ECHOED = ["sec3-0018", "sec3-0104"]
LATE_WORDS = INCIDENT.LATE_WORDS


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_family_proof_holds_on_committed_row(row: dict[str, Any]) -> None:
    GEN.prove(row)


def test_rows_and_probes_regenerate_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-security-v4")


def test_layout_as_v3() -> None:
    assert_letters_balanced(ROWS, overall=15, per_category=3)
    assert_same_cells(ROWS, list(OLD.values()))


def test_every_probe_is_judged_as_the_generator_says() -> None:
    assert probe_failures(ROWS) == []


def test_option_verdicts_are_the_family_proofs_and_single_out_the_gold() -> None:
    assert_option_verdicts_single_out_gold(GEN, ROWS)


def test_echoed_prompts_score_nowhere() -> None:
    """v3's ECHOED rows scored their own prompt under the flexible reading's old last-number
    rule; the committed-answer reading (issue 30) reads no number from those sentences."""
    assert_echoes_gone(list(OLD.values()), ROWS, [])


# ---- vulnerability rows: no class shown twice ----
def _classes(row: dict[str, Any]) -> Counter[str]:
    reached = VULNS.run_handlers(row["meta"]["code"]).reached
    return Counter(cls for found in reached.values() for cls in found)


def test_v3_hard_rows_show_the_flawed_class_twice() -> None:
    for old_id in (*TYPE_TWICE, *HALVED):
        row = OLD[old_id]
        twice = [cls for cls, n in _classes(row).items() if n == 2]
        assert twice == [row["meta"]["flawed_class"]], old_id
    for old_id in TYPE_TWICE:  # "which kind": the class named twice is the gold option
        twice = next(c for c, n in _classes(OLD[old_id]).items() if n == 2)
        assert gold_text(OLD[old_id]) == VULNS.CLASSES[twice], old_id


def test_v4_modules_give_every_handler_a_class_of_its_own() -> None:
    vuln = [r for r in ROWS if r["category"] == "vuln_classification"]
    for row in vuln:
        assert max(_classes(row).values()) == 1, row["id"]
    for old_id in (*TYPE_TWICE, *HALVED):
        assert len(_classes(new(old_id))) == 6, old_id  # hard rows: all six classes, once each


# ---- incident state rows: neither the latest stage nor an irreversible action wins ----
def _options(row: dict[str, Any], table: dict[str, Any] | None) -> tuple[list[str], int]:
    if row["scorer"] == "mc":
        return row["choices"], ord(row["answer"]) - 65
    assert table is not None
    labels = row["meta"]["labels"]
    return [table[s][0] for s in labels.values()], list(labels).index(row["answer"])


def _late_guess(row: dict[str, Any], table: dict[str, Any]) -> float:
    """Expected accuracy of taking a late-looking action for "NOT yet" and any other for "safe
    now" (ties uniform; no such option: a blind guess)."""
    options, gold = _options(row, table)
    late = [any(o.startswith(w) for w in LATE_WORDS) for o in options]
    want = [not x for x in late] if row["meta"].get("ask") == "ready" else late
    picks = [i for i, x in enumerate(want) if x] or list(range(len(options)))
    return (gold in picks) / len(picks)


def test_v3_late_actions_win_the_state_rows() -> None:
    rows = [OLD[i] for i in LATE_WINS]
    assert all(r["meta"]["kind"] == "ir_state" for r in rows)
    old = OLD_GEN.incident.SCENARIOS
    tables = [{s: (t[0],) for s, t in old[r["meta"]["scenario"]][1].items()} for r in rows]
    assert sum(_late_guess(r, t) for r, t in zip(rows, tables, strict=True)) / 12 >= 0.8


def _is_state_mc(row: dict[str, Any]) -> bool:
    return row["meta"].get("kind") == "ir_state" and row["scorer"] == "mc"


def test_v4_state_designs_put_every_text_and_cue_at_a_blind_pick() -> None:
    """As first published, the state rows planned where the gold's stage stood, but the same
    action texts were the gold again and again, so pooled with fresh instances the audit's
    learned prior over option texts won (incident_response 0.58 vs chance 0.25, text_prior).
    Now the generator draws from every valid row, weighted (``common.balance``) so that each
    text is the gold in a quarter of the rows that offer it and each cue a reader can see
    points at the gold as often as a blind pick."""
    designs = INCIDENT.state_designs()
    cells = list(INCIDENT.STATE_ROWS)
    shares = INCIDENT.balance.shares(
        [designs[c] for c in cells], [INCIDENT.STATE_ROWS[c] for c in cells]
    )
    assert len([k for k in shares if k[0] == "option"]) == 47
    assert {k[1] for k in shares if k[0] == "cue"} == {
        f"{cue}, {ask}" for cue in ("latest stage", "earliest stage", "late words")
        for ask in ("premature", "ready")
    } | {"longest", "shortest"}  # fmt: skip
    off = {k: v for k, v in shares.items() if abs(v[0] - v[1]) > 0.01}
    # a ready action is never later than every premature one: "latest" is never right there
    assert off == {("cue", "latest stage, ready"): (0.0, pytest.approx(0.25))}


def test_v4_pooled_state_rows_leave_late_and_stage_guessers_at_chance() -> None:
    rows = pooled_rows(GEN, "eval-security-v4", _is_state_mc)
    assert len(rows) == 36
    tables = [INCIDENT.SCENARIOS[r["meta"]["scenario"]][1] for r in rows]
    words = sum(_late_guess(r, t) for r, t in zip(rows, tables, strict=True)) / len(rows)
    assert words <= 0.25 + 0.05, words  # v3: 0.8 and more (test_v3_late_actions_win_...)
    hits = 0.0  # by the table's own stages: latest for "NOT yet", earliest for "safe now"
    for row, table in zip(rows, tables, strict=True):
        options, gold = _options(row, table)
        by_text = {t: s for s, (t, *_) in table.items()}
        stages = [table[by_text[o]][1] for o in options]
        best = min(stages) if row["meta"].get("ask") == "ready" else max(stages)
        top = [i for i, v in enumerate(stages) if v == best]
        hits += (gold in top) / len(top)
    assert hits / len(rows) <= 0.25 + 0.05, hits


def test_v4_pooled_incident_and_vuln_options_leave_the_learned_baseline_at_chance() -> None:
    for family in ("incident_response", "vuln_classification", "toy_ciphers"):
        got = pooled_learned(
            GEN, "eval-security-v4", lambda r, f=family: r["category"] == f and r["scorer"] == "mc"
        )
        assert got.overall.rows == 48 and not got.fails, (family, got.describe())


def test_v4_pooled_kind_rows_name_every_class_as_the_answer() -> None:
    """As first published, only SQL injection, command injection and path traversal were ever
    the answer of "which kind" rows (the flawed class cycled with the cell), in every fresh
    instance alike (vuln_classification mc 0.48 vs 0.25, text_prior)."""

    def kind_row(row: dict[str, Any]) -> bool:
        return row["category"] == "vuln_classification" and "Which kind" in row["prompt"]

    old = {r["meta"]["flawed_class"] for r in OLD.values() if kind_row(r)}
    assert old == {"sqli", "cmdi", "path"}
    pooled = Counter(
        r["meta"]["flawed_class"] for r in pooled_rows(GEN, "eval-security-v4", kind_row)
    )
    assert set(pooled) == set(VULNS.ORDER) and sum(pooled.values()) == 24, pooled


def test_v4_cipher_options_form_a_shape_with_no_centre() -> None:
    """v3's wrong options were one slip each from the right one, so it was the options' centre
    (pooled: toy_ciphers mc 0.49 vs 0.25 on 3-gram overlap with the other options). Now: four
    consecutive shifts, or a square of two slips (every option two slips from one other)."""
    for row in pooled_rows(
        GEN, "eval-security-v4", lambda r: r["category"] == "toy_ciphers" and r["scorer"] == "mc"
    ):
        kind, options = row["meta"]["kind"], row["choices"]
        if kind == "caesar_key":
            values = sorted(int(o) for o in options)
            assert values == list(range(values[0], values[0] + 4)), row["id"]
        elif kind in ("xor_value", "xor_key_mc"):
            x = [int(o, 16) for o in options]
            assert x[0] ^ x[1] ^ x[2] ^ x[3] == 0, row["id"]
        elif kind == "vigenere_key":
            differ = {i for i in range(len(options[0])) if len({o[i] for o in options}) > 1}
            assert len(differ) == 2, row["id"]
        elif kind == "caesar_encrypt":
            shifts = sorted((ord(o[0]) - ord(row["meta"]["plain"][0])) % 26 for o in options)
            assert shifts == list(range(shifts[0], shifts[0] + 4)), row["id"]


# ---- incident order rows: containment first, from a stated plan; no centroid ----
def test_v3_orders_put_the_entry_point_before_containment() -> None:
    for old_id in (*ENTRY_FIRST, *CONTESTABLE):
        row = OLD[old_id]
        labels = row["meta"]["labels"]
        order = gold_text(row).split(", ")
        phases = [labels[lab] for lab in order]
        assert phases.index("identify") < phases.index("contain"), old_id
    for old_id in ENTRY_FIRST:  # and the contain-first order is offered as a wrong option
        row = OLD[old_id]
        order = gold_text(row).split(", ")
        phases = [row["meta"]["labels"][lab] for lab in order]
        i, j = phases.index("identify"), phases.index("contain")
        order[i], order[j] = order[j], order[i]
        assert ", ".join(order) in row["choices"] and ", ".join(order) != gold_text(row)


def test_v4_orders_contain_first_as_the_prompt_states() -> None:
    order_rows = [r for r in ROWS if r["meta"]["kind"] == "ir_order"]
    assert {new(i)["id"] for i in (*ENTRY_FIRST, *CONTESTABLE)} <= {r["id"] for r in order_rows}
    for row in order_rows:
        kinds = [row["meta"]["labels"][lab] for lab in gold_text(row).split(", ")]
        plan = [s for s in INCIDENT.STAGES if s in kinds] + ["review"]
        assert kinds == plan and kinds[0] == "containment", row["id"]
        assert "first containment (stop the attack" in row["prompt"], row["id"]


def _centroid_hit(row: dict[str, Any]) -> float:
    """Expected accuracy of the option agreeing most, place by place, with the others."""
    options = [tuple(c.split(", ")) for c in row["choices"]]
    agree = [
        sum(sum(a == b for a, b in zip(o, p, strict=True)) for p in options if p is not o)
        for o in options
    ]
    top = [i for i, v in enumerate(agree) if v == max(agree)]
    return (ord(row["answer"]) - 65 in top) / len(top)


def test_v4_order_options_do_not_point_at_the_gold() -> None:
    mc = [r for r in ROWS if r["meta"]["kind"] == "ir_order" and r["scorer"] == "mc"]
    assert len(mc) == 3 and sum(_centroid_hit(r) for r in mc) / 3 <= 0.34


def test_arrow_and_dash_orders_accepted_in_v3_by_the_list_reading_and_in_v4() -> None:
    def spellings(row: dict[str, Any]) -> list[str]:
        letters = gold_text(row).split(", ")
        return [f"Answer: {j.join(letters)}" for j in (" → ", "→", " – ", "–")]

    old = OLD["sec3-0080"]  # the exact scorer's list reading (issue 30)
    assert all(verdict(old, s) == (True, True) for s in spellings(old))
    typed = [r for r in ROWS if r["meta"]["kind"] == "ir_order" and r["scorer"] == "exact"]
    assert len(typed) == 9
    for row in typed:
        assert all(verdict(row, s) == (True, True) for s in spellings(row)), row["id"]


def test_state_rows_are_reachable_and_their_rule_is_stated() -> None:
    for row in (r for r in ROWS if r["meta"]["kind"] == "ir_state"):
        assert (
            "An action must wait until every action it depends on has been done." in row["prompt"]
        )
        table = INCIDENT.SCENARIOS[row["meta"]["scenario"]][1]
        done = set(row["meta"]["done"])
        for step in done:
            assert set(table[step][2]) | set(table[step][3]) <= done, (row["id"], step)
