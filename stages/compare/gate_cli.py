"""``atlas gate POLICY.yaml A B``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer


def gate(
    policy: Annotated[Path, typer.Argument(help="Policy file (YAML): alpha and rules.")],
    a: Annotated[
        str, typer.Argument(help="Baseline: a git revision, DVC experiment or 'workspace'.")
    ],
    b: Annotated[
        str, typer.Argument(help="Candidate: a git revision, DVC experiment or 'workspace'.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the decisions as JSON.")] = False,
) -> None:
    """Pass or fail a CI job on B against A: exit 0 pass, 1 fail, 3 inconclusive, 2 bad input.

    Example: atlas gate ci/policy.yaml origin/main HEAD
    """
    from stages.compare import gate as gating
    from stages.compare.policy import load_policy
    from stages.compare.run import compare

    rules = load_policy(policy)
    result = gating.evaluate(rules, compare(a, b))
    if as_json:
        typer.echo(json.dumps(gating.as_dict(result, rules), indent=2))
    else:
        typer.echo("\n".join(gating.lines(result, rules)))
    sys.exit(result.exit_code)
