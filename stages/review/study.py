"""A review study: ``review/studies/<name>.yaml`` and where its files live.

Two kinds share one workflow (export sheets, import verdicts): a *responses* study has reviewers
score model outputs of workloads (the Kouman identity and translation tracks, spec 000); an
*audit* study draws a stratified sample from a corpus file and runs two blind passes (spec 002).

Layout, relative to the repository root:

* ``review/studies/<study>.yaml`` — this configuration (committed);
* ``review/verdicts/<study>/<reviewer>.pass<N>.json`` and ``adjudication.pass<N>.json`` —
  what reviewers and the adjudicator type (committed);
* ``review/packages/<study>/<reviewer>/`` — read-only reading packages (git-ignored);
* ``results/review/<study>/key.json`` — the blind-id key, never inside a package;
* ``metrics/review.<study>.json`` — the study's figures, for ``dvc metrics diff``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from stages.errors import AtlasError
from stages.names import checked
from stages.review.rubrics import BUILTIN, Rubric
from stages.yaml_doc import load_yaml, validate

NAME = r"^[a-z0-9][a-z0-9-]*$"
"""Reviewer names (study names follow :mod:`stages.names`)."""


class _Strict(BaseModel):
    # strict: `seed: true` or `reviewers: [1, 2]` are errors, not coerced (issue 24)
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True
    )


class Track(_Strict):
    """A reviewed track: the responses of one workload, scored with one rubric."""

    workload: str
    """Workload name in params.yaml whose responses are reviewed."""
    rubric: str
    """Rubric name (built-in or under ``rubrics:``)."""
    group_by: str | None = None
    """Row ``meta`` key the results are also split by, e.g. ``direction``."""


class GeneralTrack(_Strict):
    """The automatically scored multiple-choice track (no review)."""

    workload: str
    """Workload name of the imported multiple-choice dataset."""


class AuditPass(_Strict):
    """What one audit pass shows and asks."""

    rubric: str
    """Rubric name for this pass."""
    show: list[str] = Field(min_length=1)
    """Corpus fields shown on the sheet, in order."""
    only_with: str | None = None
    """Corpus field that must be non-empty for an item to enter this pass (e.g. the rewrite)."""


class Outcome(_Strict):
    """The event whose rate the audit estimates."""

    field: str
    """Rubric field, e.g. ``converts``."""
    label: str
    """Label counted as the event, e.g. ``no`` (does not convert)."""


class Audit(_Strict):
    """A blind two-pass audit of a corpus (spec 002)."""

    corpus: str
    """JSONL file with one object per corpus item: ``id``, the stratum field and shown fields."""
    stratum_field: str = "stratum"
    """Field naming each item's stratum."""
    take: dict[str, int] = Field(min_length=1)
    """Items drawn per stratum; small strata are over-drawn on purpose."""
    population: dict[str, int] | None = None
    """Stratum sizes in the corpus, when the file holds only part of it; default: counted."""
    score_field: str | None = None
    """Numeric field the threshold analysis runs over (e.g. the re-score)."""
    band: tuple[float, float] | None = Field(default=None, strict=False)
    """Inclusive score band of the threshold analysis, e.g. ``[4, 7]``."""
    outcome: Outcome
    """Event whose rate is reported per stratum, reweighted and per score."""
    pass1: AuditPass
    """The first, blind pass."""
    pass2: AuditPass | None = None
    """The second pass, exported per reviewer only once that reviewer's pass one is complete."""


class Study(_Strict):
    """``review/studies/<name>.yaml``."""

    seed: int
    """Seed of blind ids, reading orders and the audit sample."""
    reviewers: list[str] = Field(min_length=2)
    """Reviewer names (lower case, digits, hyphens); one sheet each."""
    demo: bool = False
    """True for the worked example: its verdicts are synthetic and every report says so."""
    tracks: dict[str, Track] = Field(default_factory=dict)
    """Reviewed tracks of a responses study, by track name."""
    general: GeneralTrack | None = None
    """Multiple-choice track reported beside the reviewed ones (Kouman general knowledge)."""
    audit: Audit | None = None
    """Set for an audit study instead of ``tracks``."""
    rubrics: dict[str, Rubric] = Field(default_factory=dict)
    """Extra rubrics by name, beside the built-in ones."""

    @model_validator(mode="after")
    def _shape(self) -> Study:
        if bool(self.tracks) == (self.audit is not None):
            raise ValueError("a study has either tracks (responses) or audit, not both")
        for name in self.reviewers:
            if not _is_name(name):
                raise ValueError(f"reviewer {name!r}: use lower case letters, digits, hyphens")
        if len(set(self.reviewers)) != len(self.reviewers):
            raise ValueError("a reviewer is listed twice")
        for rubric in self.rubric_names():
            if rubric not in BUILTIN and rubric not in self.rubrics:
                raise ValueError(f"unknown rubric {rubric!r}")
        return self

    def rubric_names(self) -> list[str]:
        names = [t.rubric for t in self.tracks.values()]
        if self.audit:
            names += [p.rubric for p in (self.audit.pass1, self.audit.pass2) if p]
        return names

    def rubric(self, name: str) -> Rubric:
        return self.rubrics.get(name) or BUILTIN[name]

    def rubric_for(self, track: str, pass_no: int) -> Rubric:
        """The rubric items of ``track`` are judged with in pass ``pass_no``."""
        if self.audit is not None:
            audit_pass = self.audit.pass1 if pass_no == 1 else self.audit.pass2
            if audit_pass is None:
                raise AtlasError(f"this audit has no pass {pass_no}")
            return self.rubric(audit_pass.rubric)
        return self.rubric(self.tracks[track].rubric)

    @property
    def passes(self) -> list[int]:
        return [1, 2] if self.audit and self.audit.pass2 else [1]


def _is_name(text: str) -> bool:
    return re.fullmatch(NAME, text) is not None


@dataclass(frozen=True)
class StudyPaths:
    """Every path of one study (relative to the repository root)."""

    name: str

    @property
    def config(self) -> Path:
        return Path("review/studies") / f"{self.name}.yaml"

    @property
    def verdicts(self) -> Path:
        return Path("review/verdicts") / self.name

    def verdict_file(self, reviewer: str, pass_no: int) -> Path:
        return self.verdicts / f"{reviewer}.pass{pass_no}.json"

    def adjudication_file(self, pass_no: int) -> Path:
        return self.verdicts / f"adjudication.pass{pass_no}.json"

    def package(self, reviewer: str) -> Path:
        return Path("review/packages") / self.name / reviewer

    @property
    def results(self) -> Path:
        return Path("results/review") / self.name

    @property
    def key(self) -> Path:
        return self.results / "key.json"

    @property
    def metrics(self) -> Path:
        return Path("metrics") / f"review.{self.name}.json"


def load_study(name: str) -> tuple[Study, StudyPaths]:
    """Read and validate ``review/studies/<name>.yaml``."""
    checked(name, "study")  # it names review/studies/<name>.yaml and the study's folders
    paths = StudyPaths(name)
    if not paths.config.is_file():
        raise AtlasError(f"{paths.config}: no such study file")
    doc = load_yaml(paths.config)  # duplicate keys and bad YAML name the line
    if not isinstance(doc.data, dict):
        raise AtlasError(f"{paths.config}: expected a mapping at the top level")
    return validate(Study, doc), paths
