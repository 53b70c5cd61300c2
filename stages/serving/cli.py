"""``atlas infer`` and ``atlas merge`` (issues 3, 11, 15, 23): the infer stage and its shards.

Only typer is imported here; the inference and serving modules (the HTTP wire, pydantic models)
load inside the commands so that ``atlas --help`` and ``atlas infer --help`` start fast.
"""

from __future__ import annotations

import atexit
import gc
import sys
from typing import Annotated

import typer

from stages.names import checked


def infer(
    workload: Annotated[str, typer.Argument(help="Workload name from params.yaml.")],
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            min=1,
            help="Send only N items (a perf workload's N spread over the dataset); overrides "
            "the workload's and run.limit.",
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Print the plan (items, input tokens by bucket, what the journal holds, time "
            "estimate from the last run) and send nothing.",
        ),
    ] = False,
    keep_failed: Annotated[
        bool,
        typer.Option(
            "--keep-failed", help="Keep journaled failures as results instead of re-sending them."
        ),
    ] = False,
    resend_on_drift: Annotated[
        bool,
        typer.Option(
            "--resend-on-drift/--no-resend-on-drift",
            help="When the endpoint's chat template, engine or fingerprint changed since answers "
            "were journaled: send them again, or stop with exit code 4.",
        ),
    ] = True,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            metavar="I/N",
            help="Send only shard I of N (0 <= I < N): every Nth planned request from the Ith, "
            "and every Nth load level, journaled under results/W/shards/I-of-N/; join the shards "
            "with `atlas merge W`.",
        ),
    ] = None,
) -> None:
    """Send a workload's requests to the model and journal every response.

    A rerun sends only what is missing, what failed, and answers the endpoint
    made under another chat template, engine or fingerprint.

    Exit codes: 0 done; 2 bad input (params, dataset changed or empty,
    endpoint unreachable); 3 more failed requests than run.max_failed_share
    (a rerun sends only those); 4 endpoint changed and --no-resend-on-drift;
    130 interrupted.

    Example: atlas infer math --limit 5 --dry-run
    """
    checked(workload, "WORKLOAD")  # it names results/<workload>/: never a path
    if dry_run:
        from stages.inference.dry_run import describe
        from stages.inference.plan import plan_workload
        from stages.inference.run import RESULTS_DIR
        from stages.serving.stage import METRICS_DIR

        plan = plan_workload(workload, limit=limit)
        typer.echo(describe(plan, RESULTS_DIR, METRICS_DIR, keep_failed))
        return
    from stages.inference.rerun import RerunPolicy
    from stages.inference.run import RESULTS_DIR, journal_lock
    from stages.inference.shards import parse_shard
    from stages.locks import exclusive
    from stages.serving.stage import infer_workload

    part = parse_shard(shard)

    # At exit, the interpreter's last garbage collections walk every object left (modules,
    # dataset, journal records): ~100 ms of a 2,000-request run. Freezing them skips that work;
    # memory is returned to the OS with the process anyway.
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    try:
        journal = str(RESULTS_DIR / workload / "responses.jsonl")
        from stages.params import workload as workload_params

        workload_params(workload)  # an unknown workload or a params error before the lock
        rerun = RerunPolicy(keep_failed, resend_on_drift)
        if part is not None:  # a shard has its own lock and folder; fresh instances are not split
            infer_workload(workload, rerun, limit, part)
            return
        with exclusive(journal_lock(workload), journal):  # main pass and fresh instances alike
            infer_workload(workload, rerun, limit)
            from stages.datasets.fresh_run import infer_fresh  # workloads.<w>.fresh_seeds (#13)

            infer_fresh(workload)
    except KeyboardInterrupt:
        sys.stderr.write(
            f"atlas: interrupted; finished responses are kept in results/{workload}/ "
            "and a rerun sends only the rest\n"
        )
        raise typer.Exit(130) from None


def merge(
    workload: Annotated[str, typer.Argument(help="Workload name from params.yaml.")],
) -> None:
    """Join a workload's shard journals (atlas infer W --shard I/N) into the journal scoring reads.

    Refuses shards of different run keys or datasets, a missing or unfinished
    shard, and shards of another run than params.yaml describes now. Merging
    twice changes nothing.

    Example: atlas merge math
    """
    checked(workload, "WORKLOAD")
    from stages.serving.merge import merge_workload

    merge_workload(workload)
