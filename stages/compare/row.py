"""One line of a comparison (issue 18): the figures, the test, the interval, the power and the
verdict of one workload, category or measure. ``atlas compare --json`` prints ``asdict(Row)``."""

from __future__ import annotations

from dataclasses import dataclass, field

BETTER, WORSE, SAME = "B better", "B worse", "no detectable difference"
NOT_TESTED = "not tested"
ALPHA = 0.05
#: Fewest *effective* clusters, (sum m_g)^2 / sum m_g^2, for a clustered figure when items share
#: clusters (Cameron and Miller 2015 call 20-50 "few"; the lower end, with a small-sample t
#: quantile). Counting clusters alone let 20 clusters, one of 40 items beside many of 1, pass.
MIN_CLUSTERS = 20
#: Fewest effective shared clusters for a printed MDE: from 20 to 29 the design effect is too
#: uncertain to tell the power (measured 71 % at a printed MDE with 20 clusters of 10).
MIN_PLAN_CLUSTERS = 30


@dataclass(frozen=True)
class Row:
    """One line of the comparison of B against A."""

    workload: str
    category: str | None
    """None for a workload row."""
    measure: str
    """``accuracy``, a graded measure (``f1``, ``chrf``, ``score``, a review track), or
    ``pass@k`` / ``pass^k`` (k = the repeats every item has)."""
    role: str
    """``primary`` (workload rows: one family), ``category`` or ``secondary`` (pass@k, pass^k):
    the last two are tested only under a significant primary row of their workload."""
    n: int
    """Paired records (items x repeats x instances)."""
    items: int
    """Distinct paired items (an item of a fresh instance counts apart from the public one)."""
    clusters: int
    """Independent units G: clusters of items (an item's repeats share its cluster)."""
    a: float | None
    """Mean at A (share correct for accuracy); None when n = 0."""
    b: float | None
    delta: float | None
    """b - a, the mean paired difference."""
    se: float | None
    """Cluster-robust (CR2; CR1 when clusters have equal sizes) standard error of ``delta``;
    None where not computable."""
    ci95: tuple[float, float] | None
    """95 % interval of ``delta`` (see ``test``); None with ``note`` saying why."""
    p: float | None
    """Two-sided p before multiplicity; None when the row cannot be tested."""
    p_adjusted: float | None = None
    """p after multiplicity (Holm over primary rows, inherited by the rest); None: not tested."""
    test: str = "none"
    """``mcnemar-exact`` (independent binary), ``rao-scott-score-t`` (clustered binary),
    ``score-t-cr2`` (graded, pass@k: the score test on fractional flips), ``none``."""
    df: float | None = None
    """Degrees of freedom of the row's t reference (clustered binary rows, graded rows): the
    smaller of the Bell–McCaffrey and the clusters' Satterthwaite df; None for McNemar's test."""
    mde: float | None = None
    """Smallest true |delta| the row detects with 80 % power; None where no verdict is possible."""
    mde_capped: bool = False
    """True: not even ``mde`` (the cap) is detectable with 80 % power."""
    verdict: str = SAME
    failed_a: int = 0
    """Failed requests among the paired records at A."""
    failed_b: int = 0
    carried_by_failures: bool = False
    """The verdict disappears when the pairs with a failed request are left out."""
    right_to_wrong: list[str] = field(default_factory=list)
    wrong_to_right: list[str] = field(default_factory=list)
    scale: tuple[float, float] = (0.0, 1.0)
    """Range of one record's value (accuracy and F1 0-1, chrF++ 0-100)."""
    level: str | None = None
    """Load level of the records (None: the main pass)."""
    note: str | None = None
    """Why a figure is missing, or what to keep in mind."""

    @property
    def p_holm(self) -> float | None:
        """The adjusted p (name kept from the first version of ``atlas compare``)."""
        return self.p_adjusted

    @property
    def family(self) -> str:
        return "primary" if self.role == "primary" else f"{self.role} rows of {self.workload}"
