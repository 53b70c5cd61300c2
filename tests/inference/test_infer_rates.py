"""A rerun that sends nothing keeps the wall-clock rates of the run that did the sending."""

from __future__ import annotations

import json
from pathlib import Path

from stages.serving.stage import _keep_wall_clock_rates


def _metrics(run_key: str, requests: int = 12) -> dict[str, object]:
    return {
        "run_key": run_key,
        "requests": requests,
        "requests_per_s": None,
        "output_tokens_per_s": {"aggregate": None},
    }


def test_rates_are_carried_over_for_the_same_run(tmp_path: Path) -> None:
    previous = tmp_path / "w.serving.json"
    previous.write_text(
        json.dumps(
            {
                "run_key": "k1",
                "requests": 12,
                "requests_per_s": 0.343,
                "output_tokens_per_s": {"aggregate": 24.355, "per_request_p50": 9.7},
            }
        )
    )
    metrics = _metrics("k1")
    _keep_wall_clock_rates(metrics, previous)
    assert metrics == {
        "run_key": "k1",
        "requests": 12,
        "requests_per_s": 0.343,
        "output_tokens_per_s": {"aggregate": 24.355},
        "server": None,  # the previous file had no /metrics figures to carry over
    }


def test_rates_of_another_run_or_no_file_stay_null(tmp_path: Path) -> None:
    previous = tmp_path / "w.serving.json"
    previous.write_text(json.dumps({"run_key": "k0", "requests_per_s": 9.0}))
    other = _metrics("k1")
    _keep_wall_clock_rates(other, previous)
    assert other == _metrics("k1")
    missing = _metrics("k1")
    _keep_wall_clock_rates(missing, tmp_path / "absent.json")
    assert missing == _metrics("k1")


def test_rates_measured_over_other_records_stay_null(tmp_path: Path) -> None:
    """Same run_key, but the previous rates covered 12 records and this run has 3 (or none):
    carrying them over would mix figures of two runs in one file."""
    previous = tmp_path / "w.serving.json"
    previous.write_text(json.dumps({"run_key": "k1", "requests": 12, "requests_per_s": 9.0}))
    for requests in (3, 0):
        metrics = _metrics("k1", requests)
        _keep_wall_clock_rates(metrics, previous)
        assert metrics == _metrics("k1", requests)
