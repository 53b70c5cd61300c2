"""The policy file of ``atlas gate POLICY.yaml A B`` (issue 18): the rules a revision B must
keep against A for a CI job to pass.

```yaml
alpha: 0.05                 # family-wise error over every statistical decision of the policy
rules:
  - check: no_worse         # no workload significantly worse (its accuracy, else its graded row)
    workloads: all
    max_mde: 10             # optional, points: a row that could not see a 10-point loss is
                            # inconclusive instead of passing
  - check: non_inferior     # B is at most `margin` points below A, at 1 - alpha confidence
    workloads: [math]
    margin: 2
  - check: no_new_failures  # no item whose request failed at B but not at A
```
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from stages.yaml_doc import load_yaml, validate


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Rule(_Strict):
    """One rule of the policy."""

    check: Literal["no_worse", "non_inferior", "no_new_failures"]
    """What B must keep: no significant loss, a loss below ``margin``, no new failed request."""
    workloads: Literal["all"] | list[str] = "all"
    """The workloads the rule covers: ``all`` compared ones, or a list of names."""
    name: str | None = None
    """How the rule is named in the output (default: built from check and workloads)."""
    margin: float | None = Field(default=None, gt=0)
    """non_inferior: the largest acceptable loss, in points (accuracy %, chrF++ points)."""
    max_mde: float | None = Field(default=None, gt=0)
    """no_worse: rows whose minimum detectable loss exceeds this many points are inconclusive."""
    measure: str = "accuracy"
    """The row judged: ``accuracy``, a graded measure (``f1``, ``chrf``, ...) or ``exhausted``
    (no_worse only: fails when B runs out while thinking significantly more often)."""

    @model_validator(mode="after")
    def _fields_of_the_check(self) -> Rule:
        if self.check == "non_inferior" and self.margin is None:
            raise ValueError("non_inferior needs a margin (points)")
        if self.check != "non_inferior" and self.margin is not None:
            raise ValueError(f"margin applies to non_inferior, not {self.check}")
        if self.check != "no_worse" and self.max_mde is not None:
            raise ValueError(f"max_mde applies to no_worse, not {self.check}")
        if self.check == "non_inferior" and self.measure == "exhausted":
            raise ValueError("measure exhausted (a rise is the loss) is judged by no_worse only")
        return self

    @property
    def title(self) -> str:
        if self.name:
            return self.name
        scope = "all workloads" if self.workloads == "all" else ", ".join(self.workloads)
        extra = f" by more than {self.margin:g} points" if self.margin is not None else ""
        text = {"no_worse": "not worse", "non_inferior": "not worse",
                "no_new_failures": "no new failures"}[self.check]  # fmt: skip
        return f"{scope}: {text}{extra}"


class Policy(_Strict):
    """A gate policy file."""

    alpha: float = Field(default=0.05, gt=0, lt=0.5)
    """Family-wise error rate over all statistical decisions of the policy."""
    rules: list[Rule] = Field(min_length=1)


def load_policy(path: Path) -> Policy:
    """Read and check a policy file; every problem names the file, the line and the field."""
    policy: Policy = validate(Policy, load_yaml(path))
    return policy
