"""The learned answer-free baseline (issue 19): it catches each planted shortcut, never dilutes
one format over another, and, proved by a seeded simulation, rarely fails a shortcut-free format
while always failing a moderate one."""

from __future__ import annotations

import random

import pytest

from stages.datasets.learned import MAX_MARGIN, learn, learn_formats, units
from stages.datasets.option_features import NAMES, option_features
from tests.datasets import planted


def test_the_option_agreeing_most_place_by_place_is_caught() -> None:
    learned = learn(planted.centroid_mc(24, seed=3))
    assert learned.fails
    assert learned.overall.accuracy == 1.0 and learned.overall.chance == 0.25
    assert learned.explain[0] == ("places high", 1.0)
    assert "families over chance: order 1.00 vs 0.25" in learned.describe()


def test_the_type_the_stem_names_twice_is_caught() -> None:
    learned = learn(planted.twice_mc(24, seed=4))
    assert learned.fails
    assert learned.explain[0] == ("stem_count high", pytest.approx(23 / 24))


def test_a_clean_format_passes_though_luck_puts_it_over_five_points() -> None:
    learned = learn(planted.clean_mc(48, seed=1))
    assert learned.overall.chance == 0.25
    assert learned.overall.accuracy == pytest.approx(0.3160, abs=1e-4)
    assert learned.overall.margin > MAX_MARGIN  # +6.6 points by luck, which 48 rows cannot
    assert learned.overall.low < learned.overall.chance  # tell from chance: reported, not failed
    assert not learned.fails


def test_a_format_is_audited_on_its_own_rows() -> None:
    # 24 mc rows whose gold is the centroid, among 72 clean numeric rows: averaged over all 96
    # rows the shortcut would be a quarter of its size; per format it is whole.
    rows = planted.centroid_mc(24, seed=3) + planted.clean_numeric(72, seed=2)
    found = learn_formats(rows)
    assert sorted(found) == ["mc", "numeric"]
    assert found["mc"].fails and found["mc"].overall.rows == 24
    assert not found["numeric"].fails and found["numeric"].overall.rows == 72


def test_an_open_family_whose_answer_never_varies_fails() -> None:
    rows = [
        planted.open_row(f"c-{i}", "either", f"Case {i}: keep it or not?", "Either", "exact")
        for i in range(4)
    ]
    learned = learn(rows)
    assert learned.constant == ["either"] and learned.fails


def test_option_features_read_no_answer() -> None:
    row = planted.centroid_mc(1, seed=3)[0]
    other = dict(row, answer="D")
    assert option_features(row) == option_features(other)
    assert len(option_features(row)[0]) == len(NAMES)
    assert [u.labels.tolist() for u in units([row])] == [[True, False, False, False]]


def _null_or_planted(seed: int, rows: int, shortcut: float) -> list[dict[str, object]]:
    """mc rows of random words in two families; with probability ``shortcut`` a row's gold is
    its longest option (otherwise the gold letter is uniform)."""
    rng = random.Random(seed)
    out = []
    for i in range(rows):
        choices = [" ".join(rng.sample(planted.WORDS, rng.randint(1, 4))) for _ in range(4)]
        gold = rng.randrange(4)
        if rng.random() < shortcut:
            gold = max(range(4), key=lambda j: (len(choices[j]), -j))
        out.append(planted.mc(f"r{i}", f"f{i % 2}", f"Item {i}?", choices, gold))
    return out


def test_seeded_simulation_false_failures_and_power() -> None:
    # 96 rows: the size of a 24-row mc format pooled with its three fresh instances. Each
    # verdict is a one-sided Bonferroni test at 2.5 % over the format's comparisons, but a
    # shortcut-free sample can itself be skewed (a letter gold in 10 of 16 rows), which the
    # audit rightly reports: 1 false failure in 40, where "+5 points over chance" alone would
    # fail about one in four at this size.
    null = [learn(_null_or_planted(seed, 96, 0.0)) for seed in range(40)]
    assert sum(n.overall.margin > MAX_MARGIN for n in null) == 10
    assert sum(n.fails for n in null) == 1
    # A moderate shortcut: the longest option is the gold in 40 % + 60 % / 4 = 55 % of rows.
    power = sum(learn(_null_or_planted(seed, 96, 0.4)).fails for seed in range(10))
    assert power == 9
