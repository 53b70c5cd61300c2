"""The run manifest ``results/<workload>/manifest.json`` (issue 3, "Run manifest").

What a reader needs to reproduce or compare the run: model name, revision and endpoint (no
credentials), decoding settings including the seed, the chat template as served, the dataset id
and the sha256 of its rows, package versions, the project's git commit, start and end times,
and counts. Scoring takes ``run_key`` from here to pick this run's journal records.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from importlib import metadata
from typing import Any

PACKAGES = ("aiohttp", "dvc", "httpx", "inference-atlas", "llama_cpp_python", "pydantic")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else "unknown"


def build_manifest(
    *,
    run_key: str,
    model: dict[str, str],
    decoding: dict[str, Any],
    dataset: dict[str, str],
    workload: dict[str, Any],
    ids: list[str],
    chat_template: str,
    started_at: str,
    counts: dict[str, Any],
) -> dict[str, Any]:
    return {
        "run_key": run_key,
        "model": model,
        "decoding": decoding,
        "dataset": dataset,
        "workload": workload,
        "ids": ids,
        "chat_template": chat_template,
        "packages": package_versions(),
        "git_commit": git_commit(),
        "started_at": started_at,
        "finished_at": now_iso(),
        "counts": counts,
    }
