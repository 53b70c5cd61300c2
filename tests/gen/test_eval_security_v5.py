"""eval-security-v5: every row's family proof re-run on the committed bytes, every probe judged by
the row's own scorer, the log answers recomputed a third way (the log lines split by hand, not by
the family's regular expressions), and issue 30's shortcut replayed: in eval-security-v4 the
candidate named on most log lines was the answer of every "which address/user/path ... most"
row; here it is right no more often than a blind pick, on the committed rows and pooled with the
audit's fresh instances. Both datasets share v4's layout and seed, so sec4-NNNN and sec5-NNNN
are the same (family, level, form) cell, and every row outside log forensics is v4's own.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from stages.datasets.pooled import SEEDS
from stages.datasets.regen import FRESH_SEED_ENV
from tests.gen._checks import (
    Successor,
    assert_letters_balanced,
    assert_option_verdicts_single_out_gold,
    assert_regenerates_in_process,
    assert_same_cells,
    echo_hits,
    gold_text,
    load_generator,
    pooled_rows,
    probe_failures,
)

V5 = Successor("eval-security-v5", "eval-security-v4")
ROWS, OLD, GEN, new = V5.rows, V5.old, V5.gen, V5.new
OLD_GEN = load_generator("eval-security-v4")
LOGS = [r for r in ROWS if r["category"] == "log_forensics"]
#: The issue's rows: the "which ... most" questions of eval-security-v4.
MOST = [f"sec4-{n:04d}" for n in (4, 9, 19, 24, 29, 109, 114, 119)]
#: Each "which" question and the field of a log line that names its candidates.
FIELD = {
    "top_ip": "ip",
    "top_user": "user",
    "breacher_ip": "ip",
    "breached_user": "user",
    "top_404_path": "path",
    "top_denied_ip": "ip",
    "top_bytes_ip": "ip",
}


def _which(row: dict[str, Any]) -> bool:
    return row["category"] == "log_forensics" and row["meta"]["question"] in FIELD


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_family_proof_holds_on_committed_row(row: dict[str, Any]) -> None:
    GEN.prove(row)


def test_rows_and_probes_regenerate_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-security-v5")


def test_layout_as_v4_and_only_log_rows_changed() -> None:
    assert_letters_balanced(ROWS, overall=15, per_category=3)
    assert_same_cells(ROWS, list(OLD.values()))
    kept = [r["id"] for r in OLD.values() if _same(r, new(r["id"]))]
    changed = [r for r in OLD.values() if r["id"] not in kept]
    assert len(kept) == 99  # the 96 rows of the other families and the 3 web numeric rows
    assert {r["category"] for r in changed} == {"log_forensics"} and len(changed) == 21


def _same(old: dict[str, Any], row: dict[str, Any]) -> bool:
    return {k: v for k, v in old.items() if k != "id"} == {
        k: v for k, v in row.items() if k != "id"
    }


def test_every_probe_is_judged_as_the_generator_says() -> None:
    assert probe_failures(ROWS) == []
    assert echo_hits(ROWS) == []


def test_option_verdicts_are_the_family_proofs_and_single_out_the_gold() -> None:
    assert_option_verdicts_single_out_gold(GEN, ROWS)


# ---- the third way: the log read by splitting its lines ----------------------------------------
def _lines(row: dict[str, Any]) -> list[str]:
    return [line for line in row["prompt"].split("\n\n")[1].split("\n") if line]


def _fields(line: str) -> dict[str, Any]:
    """An sshd line: ok, user, ip, time; a web line: ip, path, status, size."""
    words = line.split()
    if " sshd[" in line:
        at = words.index("from")
        return {"ok": words[3] == "Accepted", "user": words[at - 1], "ip": words[at + 1],
                "time": words[0][11:19]}  # fmt: skip
    request, status, size = line.split('"')[1], *line.split('"')[2].split()
    return {"ip": words[0], "path": request.split()[1], "status": int(status), "size": int(size)}


def _solve(row: dict[str, Any]) -> str:
    """The answer of a log row from the split lines alone."""
    parsed, question = [_fields(line) for line in _lines(row)], row["meta"]["question"]
    if question in ("top_404_path", "top_denied_ip", "top_bytes_ip"):
        tally: Counter[str] = Counter()
        for p in parsed:
            if question == "top_404_path" and p["status"] == 404:
                tally[p["path"]] += 1
            elif question == "top_denied_ip" and p["status"] in (401, 403):
                tally[p["ip"]] += 1
            elif question == "top_bytes_ip":
                tally[p["ip"]] += p["size"]
        return tally.most_common(1)[0][0]
    if row["meta"]["kind"] == "web":
        ip, path = row["meta"]["ip"], row["meta"]["path"]
        if question == "status_count":
            return str(sum(p["ip"] == ip and p["status"] == 404 for p in parsed))
        if question == "bytes_to_ip":
            return str(sum(p["size"] for p in parsed if p["ip"] == ip))
        return str(len({p["ip"] for p in parsed if p["path"] == path}))
    fails = [p for p in parsed if not p["ok"]]
    spread = {ip: {p["user"] for p in fails if p["ip"] == ip} for ip in {p["ip"] for p in fails}}
    (breach,) = [p for p in parsed if p["ok"] and len(spread.get(p["ip"], ())) >= 2]
    return {
        "top_ip": lambda: Counter(p["ip"] for p in fails).most_common(1)[0][0],
        "top_user": lambda: Counter(p["user"] for p in fails).most_common(1)[0][0],
        "breached_user": lambda: breach["user"],
        "breacher_ip": lambda: breach["ip"],
        "breach_time": lambda: breach["time"],
        "fail_count": lambda: str(len(fails)),
        "fail_ips": lambda: str(len(spread)),
        "fails_before_breach": lambda: str(
            sum(p["ip"] == breach["ip"] and p["time"] < breach["time"] for p in fails)
        ),
    }[question]()


@pytest.mark.parametrize("row", LOGS, ids=[r["id"] for r in LOGS])
def test_log_answers_recomputed_from_split_lines(row: dict[str, Any]) -> None:
    assert _solve(row) == gold_text(row)


# ---- issue 30: the candidate named on most log lines -------------------------------------------
def _most_lines(row: dict[str, Any]) -> tuple[float, float]:
    """(expected accuracy of replying the candidate on most lines, ties split; chance): among the
    options of an mc row, among every candidate of the log for an exact row."""
    field = FIELD[row["meta"]["question"]]
    counts = Counter(_fields(line)[field] for line in _lines(row))
    pool = list(row["choices"]) if row["scorer"] == "mc" else list(counts)
    best = max(counts[c] for c in pool)
    top = [c for c in pool if counts[c] == best]
    return (gold_text(row) in top) / len(top), 1 / len(pool)


def _tally(rows: list[dict[str, Any]]) -> tuple[int, float, float]:
    hits = [_most_lines(r) for r in rows]
    return len(rows), round(sum(h for h, _ in hits), 2), round(sum(c for _, c in hits), 2)


def test_v4_most_rows_are_answered_by_the_candidate_on_most_lines() -> None:
    rows = [OLD[i] for i in MOST]
    assert [r["meta"]["question"] for r in rows] == [
        "top_ip", "top_user", "top_404_path", "top_denied_ip", "top_bytes_ip",
        "top_denied_ip", "top_bytes_ip", "top_404_path",
    ]  # fmt: skip
    assert [_most_lines(r)[0] for r in rows] == [1, 1, 1, 1, 0.5, 1, 1, 1]  # sec4-0029: a tie
    assert _tally(rows) == (8, 7.5, 1.86)
    assert _tally([new(i) for i in MOST]) == (8, 1.0, 1.87)  # only sec5-0029


def test_v5_which_rows_put_the_most_lines_candidate_at_chance() -> None:
    """All seventeen "which" rows (the breach rows leant the same way): the mc rows exactly at a
    quarter, the exact rows below 1/k."""
    old = [r for r in OLD.values() if _which(r)]
    mc = [r for r in LOGS if _which(r) and r["scorer"] == "mc"]
    exact = [r for r in LOGS if _which(r) and r["scorer"] == "exact"]
    assert _tally([r for r in old if r["scorer"] == "mc"]) == (12, 5.83, 3.0)
    assert _tally([r for r in old if r["scorer"] == "exact"]) == (5, 2.5, 0.75)
    assert _tally(mc) == (12, 3.0, 3.0)
    assert _tally(exact) == (5, 0.0, 0.7)


def test_pooled_with_fresh_instances_the_most_lines_candidate_stays_at_chance() -> None:
    """Committed rows and the audit's three fresh instances (48 mc and 20 exact "which" rows)."""
    old = pooled_rows(OLD_GEN, "eval-security-v4", _which)
    rows = pooled_rows(GEN, "eval-security-v5", _which)
    assert _tally([r for r in old if r["scorer"] == "mc"]) == (48, 24.17, 12.0)
    assert _tally([r for r in old if r["scorer"] == "exact"]) == (20, 10.2, 3.0)
    assert _tally([r for r in rows if r["scorer"] == "mc"]) == (48, 12.0, 12.0)
    assert _tally([r for r in rows if r["scorer"] == "exact"]) == (20, 0.0, 2.74)


def _by_instance(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``pooled_rows`` output cut back into the committed rows and each fresh instance."""
    size = len(rows) // (1 + len(SEEDS))
    return [rows[i : i + size] for i in range(0, len(rows), size)]


def _rank(row: dict[str, Any], value: Any) -> int:
    """The gold's rank (1 = highest) among the options by ``value(option)``, which no other
    option ties."""
    values = [value(c) for c in row["choices"]]
    mine = values["ABCD".index(row["answer"])]
    assert values.count(mine) == 1, row["id"]
    return 1 + sum(v > mine for v in values)


def test_every_instance_deals_each_rank_by_lines_three_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The plan: among the four options, the gold has the most lines in three "which" mc rows of
    every instance, the second most in three, ..., the fewest in three (so "fewest lines" is at
    chance too); ``freq_rank`` says so, the split lines agree, and the generator's own check of
    the plan passes under each instance's seed."""
    rows = pooled_rows(GEN, "eval-security-v5", lambda r: _which(r) and r["scorer"] == "mc")
    for seed, instance in zip((None, *SEEDS), _by_instance(rows), strict=True):
        if seed is not None:
            monkeypatch.setenv(FRESH_SEED_ENV, str(seed))
        GEN.logs_v5.check_plan(instance)
        ranks = []
        for row in instance:
            field = FIELD[row["meta"]["question"]]
            counts = Counter(_fields(line)[field] for line in _lines(row))
            ranks.append(_rank(row, counts.__getitem__))
            assert ranks[-1] == row["meta"]["freq_rank"], row["id"]
        assert Counter(ranks) == dict.fromkeys((1, 2, 3, 4), 3)


def _pick(row: dict[str, Any], value: Any, best: Any) -> float:
    """Expected accuracy of the option ``best`` (max or min) of ``value``, ties split."""
    values = [value(c) for c in row["choices"]]
    top = [i for i, v in enumerate(values) if v == best(values)]
    return ("ABCD".index(row["answer"]) in top) / len(top)


def test_pooled_log_options_leave_length_and_byte_cues_at_chance() -> None:
    """Over the 48 pooled "which" mc rows (chance 12): the longest and the shortest option (v3
    gave legitimate users the lowest-sorting, shortest addresses, so in a first draft of v5 the
    breacher was the longest option in 42 % of its rows); and in the 8 "most bytes" rows the
    client with the largest single response or the most 200 responses (ranks drawn per row;
    pooled over ten fresh instances v4's were right in 29 % and 58 % of those rows)."""
    rows = pooled_rows(GEN, "eval-security-v5", lambda r: _which(r) and r["scorer"] == "mc")
    longest = sum(_pick(r, len, max) for r in rows)
    shortest = sum(_pick(r, len, min) for r in rows)
    assert (len(rows), round(longest, 2), round(shortest, 2)) == (48, 10.83, 10.0)
    byte_rows = [r for r in rows if r["meta"]["question"] == "top_bytes_ip"]
    assert len(byte_rows) == 8
    hits = [0.0, 0.0]
    for row in byte_rows:
        parsed = [_fields(line) for line in _lines(row)]
        biggest = {ip: max(p["size"] for p in parsed if p["ip"] == ip) for ip in row["choices"]}
        pages = {ip: sum(p["ip"] == ip and p["status"] == 200 for p in parsed)
                 for ip in row["choices"]}  # fmt: skip
        got = [_rank(row, biggest.__getitem__), _rank(row, pages.__getitem__)]
        assert got == row["meta"]["cue_ranks"], row["id"]
        hits[0] += _pick(row, biggest.__getitem__, max)
        hits[1] += _pick(row, pages.__getitem__, max)
    assert hits == [0.0, 2.0]  # chance: 2 of 8 each


def test_the_log_story_holds_in_every_auth_row() -> None:
    """One guessing address gets in, once; legitimate addresses fail against one account at
    most; every login of a user who mistyped comes after the mistake."""
    for row in (r for r in LOGS if r["meta"]["kind"] == "auth"):
        parsed = [_fields(line) for line in _lines(row)]
        fails = [p for p in parsed if not p["ok"]]
        spread = {p["ip"]: {q["user"] for q in fails if q["ip"] == p["ip"]} for p in parsed}
        breaches = [p for p in parsed if p["ok"] and len(spread[p["ip"]]) >= 2]
        assert len(breaches) == 1, row["id"]
        for p in parsed:
            if p["ok"] and len(spread[p["ip"]]) == 1:
                assert all(q["time"] < p["time"] for q in fails if q["ip"] == p["ip"]), row["id"]


def test_over_twenty_more_fresh_seeds_the_exact_rows_stay_at_or_below_chance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The exact "which" rows draw the gold onto the most lines with probability 1/k only when
    the log allows it, so over many instances the shortcut scores at most 1/k a row: 100 rows
    of seeds 2001-2020 (v4's generator over the same seeds: far above)."""
    cells = [i for i, r in enumerate(ROWS) if _which(r) and r["scorer"] == "exact"]
    tallies = []
    for gen in (OLD_GEN, GEN):
        rows = []
        for seed in range(2001, 2021):
            monkeypatch.setenv(FRESH_SEED_ENV, str(seed))
            rows += [gen.generate(gen.lib.row_rng(gen.SEED, i), i) for i in cells]
        tallies.append(_tally(rows))
    assert tallies == [(100, 49.83, 15.31), (100, 9.0, 13.27)]
