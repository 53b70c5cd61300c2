"""The hidden tests of an eval-code-v4 row and the verdict on every generic mutant (issue 30).

The tests are -v3's, then the family's seeded inputs (``inputs``); the expected values are the
reference solution's results (the generator proves them against the family's oracle). Every
mutant runs on the tests (``differential``):

* a hand-written mutant must fail one (as in -v3);
* a generic mutant that returns a wrong value or raises on one is *killed*;
* one that runs past ``differential.CALL_STEPS`` loop passes on a test (a loop that never ends)
  or past ``HIDDEN_STEPS`` over them all *times out*: the sandbox's time limit rejects it, so it
  fails the tests too, but it is listed apart and the check does not spend that limit on it;
* one that passes every test runs on the equivalence pool, ``inputs.POOL`` more draws of the
  same generator. If no pool input tells it from the reference it is *equivalent* and listed
  apart; one that tells it only under some hash seeds leaves it *unstable*. Otherwise the pool
  input that kills the most such mutants (the shortest call among equals) joins the tests, until
  each is killed or times out (``added`` counts them: inputs the seeded ones missed).

Adding a test can make an earlier killed mutant time out; a last run over the final tests
sorts every mutant again.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from families.code import differential
from families.code.assertions import call_text, canonical
from families.code.ast_mutants import GenericMutant
from families.code.base import Task
from families.code.inputs import Args

#: Loop passes a program may make over all hidden tests (a second or two of CPU; the sandbox
#: allows 5 s), and over the pool (only ``differential.CALL_STEPS`` a call counts there); the
#: references stay under a tenth of it.
HIDDEN_STEPS = 3_000_000
POOL_STEPS = 10**12


@dataclass
class Selection:
    """The hidden tests and what they do to the generic mutants."""

    args: list[Args]
    expected: list[Any]
    killed: list[GenericMutant] = field(default_factory=list)
    timeouts: list[GenericMutant] = field(default_factory=list)
    equivalent: list[GenericMutant] = field(default_factory=list)
    unstable: list[GenericMutant] = field(default_factory=list)
    added: int = 0
    pool: int = 0


def _calls(task: Task, args: list[Args]) -> list[str]:
    return [call_text(task.entry, canonical(a)) for a in args]


def _expected(run: differential.Run) -> list[Any]:
    assert not run.raised, "the reference raised on an input its statement allows"
    return [canonical(value) for value in run.expected]


def _cover(open_: dict[str, frozenset[int]], size: list[int]) -> list[int]:
    """Pool inputs that kill every mutant of ``open_`` (name -> inputs that kill it): greedily
    the one that kills the most, the shortest call among equals."""
    picks: list[int] = []
    while open_:
        counts: dict[int, int] = {}
        for found in open_.values():
            for i in found:
                counts[i] = counts.get(i, 0) + 1
        pick = min(counts, key=lambda i: (-counts[i], size[i], i))
        picks.append(pick)
        open_ = {name: found for name, found in open_.items() if pick not in found}
    return picks


def _pool_verdicts(
    task: Task, survivors: list[GenericMutant], pool: list[Args], chosen: Selection
) -> dict[str, str]:
    """Run the mutants that passed every test on the pool: equivalent or unstable ones get their
    verdict; for the others, pool inputs that kill them (or that they hang on) join the tests."""
    calls = _calls(task, pool)
    run = differential.run(task.reference, [m.code for m in survivors], calls, POOL_STEPS)
    values = _expected(run)
    verdicts: dict[str, str] = {}
    open_: dict[str, frozenset[int]] = {}
    for mutant, outcome in zip(survivors, run.candidates, strict=True):
        if outcome.differs:
            open_[mutant.name] = outcome.differs
        elif outcome.hang is not None:
            open_[mutant.name] = frozenset([outcome.hang])
        else:
            verdicts[mutant.name] = "unstable" if outcome.sometimes else "equivalent"
    for pick in _cover(open_, [len(c) for c in calls]):
        chosen.args.append(pool[pick])
        chosen.expected.append(values[pick])
        chosen.added += 1
    return verdicts


def select(
    task: Task, hand: list[str], generic: list[GenericMutant], tests: list[Args], pool: list[Args]
) -> Selection:
    """Run the reference, the hand-written and the generic mutants on ``tests``, and the
    survivors on ``pool`` (module rules)."""
    codes = [*hand, *(m.code for m in generic)]
    first = differential.run(task.reference, codes, _calls(task, tests), HIDDEN_STEPS)
    assert first.steps <= HIDDEN_STEPS // 10, (task.entry, first.steps)
    chosen = Selection(list(tests), _expected(first), pool=len(pool))
    survivors = [m for m, o in zip(generic, first.candidates[len(hand) :], strict=True)
                 if o.hang is None and not o.differs]  # fmt: skip
    verdicts = _pool_verdicts(task, survivors, pool, chosen) if survivors else {}
    # Every mutant that has not timed out yet, on the final tests: an added input may kill it
    # only by outlasting its loop count, or make it time out.
    rerun = [i for i, o in enumerate(first.candidates) if o.hang is None]
    if chosen.added:
        calls = _calls(task, chosen.args)
        final = differential.run(task.reference, [codes[i] for i in rerun], calls, HIDDEN_STEPS)
        assert _expected(final) == chosen.expected
    else:
        final = dataclasses.replace(first, candidates=[first.candidates[i] for i in rerun])
    outcomes = dict(zip(rerun, final.candidates, strict=True))
    for i in range(len(hand)):
        assert i in outcomes and outcomes[i].hang is None and outcomes[i].differs, task.entry
    for i, mutant in enumerate(generic, start=len(hand)):
        if mutant.name not in verdicts:
            hang = i not in outcomes or outcomes[i].hang is not None
            assert hang or outcomes[i].differs, mutant.name
            verdicts[mutant.name] = "timeouts" if hang else "killed"
    for mutant in generic:
        getattr(chosen, verdicts[mutant.name]).append(mutant)
    return chosen
