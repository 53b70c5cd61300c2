"""The one rule for the names that become paths: workloads, review studies and output sets.

A workload name is a key of ``params.yaml``'s ``workloads:``, which ``dvc.yaml`` iterates with
``foreach``: DVC names the stages ``infer@<name>``, reads the parameter ``workloads.<name>`` (a
dot there is a path separator, so ``llama3.1-math`` would name the key ``1-math`` of
``workloads.llama3``), and the project writes ``results/<name>/``, ``metrics/<name>.json`` and
the lock ``.atlas/locks/infer-<name>.lock``. A study name becomes ``review/studies/<name>.yaml``
and an output set the record ``.atlas/commits/<set>.json``.

So a name is what DVC itself accepts as a stage name (``dvc stage add -n``: no ASCII punctuation
but ``-`` and ``_``), in ASCII, starting with a letter or digit (no hidden file, no name that
reads as a command-line option) and at most :data:`MAX_LENGTH` characters: never a path
separator, ``..``, a dot or a space. Names are checked where they enter: params.yaml (pydantic
validation), every command-line argument that names one, and every lock and output set.
"""

from __future__ import annotations

import re

from stages.errors import AtlasError

MAX_LENGTH = 64
PATTERN = rf"^[A-Za-z0-9][A-Za-z0-9_-]{{0,{MAX_LENGTH - 1}}}$"
RULE = (
    "a name is 1-64 ASCII letters, digits, '-' and '_', starting with a letter or digit "
    "(DVC's rule for stage names; no '.', '/', space or other punctuation)"
)


def problem(name: object) -> str | None:
    """Why ``name`` is not a valid name, or None when it is."""
    if not isinstance(name, str):
        return f"expected a string, got {type(name).__name__}"
    if re.fullmatch(PATTERN, name):
        return None
    return f"{name!r} is not a valid name: {RULE}"


def checked(name: str, field: str) -> str:
    """``name`` when valid; otherwise an :class:`AtlasError` naming ``field`` (``workload``,
    ``--study``, ``params.yaml: judge.study``)."""
    found = problem(name)
    if found is not None:
        raise AtlasError(f"{field}: {found}")
    return name


def pydantic_check(name: str) -> str:
    """The rule as a pydantic validator (the error is reported at the key or field)."""
    found = problem(name)
    if found is not None:
        raise ValueError(found)
    return name


def checked_file_name(name: str, what: str) -> str:
    """A lock or output-set name (``infer-<workload>-outputs``, ``score-<workload>``): built
    from valid names, so the same characters and no length limit. A bug elsewhere that let a
    path through stops here, before ``.atlas/locks/`` or ``.atlas/commits/`` is written."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        raise AtlasError(f"{what} {name!r}: not a valid name ({RULE})")
    return name


VERDICT_KINDS = ("review", "judge")
"""Verdict sets beside a workload's own: ``metrics/verdicts/<w>.review.jsonl`` (the humans'
final labels) and ``<w>.judge.jsonl`` (the model judge's grades)."""


def checked_verdict_set(name: str, field: str) -> str:
    """A name ``atlas compare`` pairs: a workload, or ``<workload>.review`` / ``.judge``."""
    stem, dot, kind = name.partition(".")
    if dot and kind in VERDICT_KINDS:
        if problem(stem) is None:
            return name
    elif problem(name) is None:
        return name
    raise AtlasError(
        f"{field}: {name!r} is not a valid name: a workload name, or one followed by .review "
        f"or .judge; {RULE}"
    )
