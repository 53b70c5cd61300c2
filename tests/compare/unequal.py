"""Issue 34: Monte Carlo designs the issue-18 simulation did not use — heavy-tailed cluster sizes,
graded scores (sparse 0/1-heavy, and clustered), clustered category tables — in two model
families; ``unequal_stats.py`` applies the project's statistics to it, vectorised over replicates.

Families (the truth is exact in both):

* **copy** (the issue-18 model, :mod:`simulation`): a cluster draws one seed outcome and each of
  its records copies it with probability rho, else draws its own; binary pairs from the four cell
  probabilities, graded pairs from a mixture that is mostly exact 0s and 1s (F1-like): A scores 0
  w.p. 0.5, 1 w.p. 0.3, else uniform; B keeps A's score except w.p. ``changed`` (0.3, or 0.15 for
  the sparse cells), where it draws afresh from a mixture whose mean is higher by
  delta / changed.
* **latent** (latent-normal): record i of cluster g has an ability L = sqrt(rho) u_g +
  sqrt(1 - rho) w_i (standard normals) and each revision adds its own noise s e; binary: right
  when L + s e exceeds a threshold set by the accuracy; graded: clip(mu + sigma (L + s e), 0, 1),
  a censored normal with many exact 0s and 1s, whose mean has a closed form.

Cluster sizes are drawn uniformly from {1, 2, 3, 5, 8, 20, 40} (``HEAVY``), a few draws per cell,
or are all equal (``equal4``). Categories are record positions modulo 3, as in :mod:`simulation`.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import simulation as sim
from numpy.typing import NDArray
from scipy import optimize
from scipy import stats as sps

Array = NDArray[np.float64]
HEAVY = (1, 2, 3, 5, 8, 20, 40)
#: Size vectors drawn per cell (the replicates are split among them).
DRAWS = 4
RHO = {"copy": 0.7, "latent": 0.5}
NOISE = 0.7
"""s: the revision's own noise beside the record's ability (latent family)."""
SIGMA, MU_A = 0.5, 0.45
"""Graded latent scores: clip(mu + sigma (L + s e), 0, 1)."""


@dataclass(frozen=True)
class Cell:
    family: str
    """``copy`` or ``latent``."""
    sizes: str
    """``heavy``, ``equal4`` or ``independent``."""
    groups: int
    p: float = 0.5
    """Accuracy at A (binary cells)."""
    changed: float = 0.3
    """Share of graded items whose score B draws afresh (copy family)."""

    def rng(self, *salt: object) -> np.random.Generator:
        key = repr((self.family, self.sizes, self.groups, self.p, self.changed, salt)).encode()
        return np.random.default_rng(zlib.crc32(key))

    def size_vectors(self) -> list[NDArray[np.int64]]:
        if self.sizes == "independent":
            return [np.ones(self.groups, dtype=np.int64)]
        if self.sizes == "equal4":
            return [np.full(self.groups, 4, dtype=np.int64)]
        rng = self.rng("sizes")
        return [rng.choice(np.array(HEAVY), self.groups) for _ in range(DRAWS)]


def mask(sizes: NDArray[np.int64]) -> NDArray[np.bool_]:
    return np.arange(int(sizes.max()))[None, :] < sizes[:, None]


def _latent(rng: np.random.Generator, shape: tuple[int, ...], m: int) -> tuple[Array, Array]:
    """(L + s e_A, L + s e_B) of shape ``shape + (G, m)``; ``shape`` ends with G."""
    rho = RHO["latent"]
    u = rng.standard_normal((*shape, 1))
    ability = np.sqrt(rho) * u + np.sqrt(1 - rho) * rng.standard_normal((*shape, m))
    noise = NOISE * rng.standard_normal((2, *shape, m))
    return ability + noise[0], ability + noise[1]


def binary_codes(cell: Cell, rng: np.random.Generator, shape: tuple[int, ...], m: int,
                 delta: float | Array) -> NDArray[np.int8]:  # fmt: skip
    """Cell codes (2 A + B: 0 both wrong, 1 wrong->right, 2 right->wrong, 3 both right)."""
    if cell.family == "copy":
        design = sim.Design("unequal", m, RHO["copy"])
        return sim.draw(rng, shape[:-1], shape[-1], design, sim.cell_probabilities(cell.p, delta))
    a, b = _latent(rng, shape, m)
    spread = np.sqrt(1 + NOISE**2)
    high = np.asarray(cell.p + np.asarray(delta), dtype=float)[..., None, None]
    right_a = a > -spread * sps.norm.ppf(cell.p)
    right_b = b > -spread * sps.norm.ppf(high)
    return (2 * right_a + right_b).astype(np.int8)


def censored_mean(mu: float, sigma: float) -> float:
    """E clip(X, 0, 1) for X ~ N(mu, sigma^2): sigma (psi(mu/sigma) - psi((mu - 1)/sigma)),
    psi(z) = z Phi(z) + phi(z) (E max(X, 0) less E max(X - 1, 0))."""

    def psi(z: float) -> float:
        return float(z * sps.norm.cdf(z) + sps.norm.pdf(z))

    return sigma * (psi(mu / sigma) - psi((mu - 1) / sigma))


def latent_mu_b(delta: float) -> float:
    """mu at B for a true graded difference ``delta`` (latent family)."""
    total = SIGMA * np.sqrt(1 + NOISE**2)
    target = censored_mean(MU_A, total) + delta
    return float(optimize.brentq(lambda mu: censored_mean(mu, total) - target, -2.0, 3.0))


def _mixture(rng: np.random.Generator, shape: tuple[int, ...], ones: float) -> Array:
    """Scores that are 1 w.p. ``ones``, 0 w.p. 0.8 - ``ones``, else uniform on (0, 1)."""
    zeros = 0.8 - ones
    u = rng.random(shape)
    return np.where(u < zeros, 0.0, np.where(u < 0.8, 1.0, rng.random(shape)))


def graded_scores(cell: Cell, rng: np.random.Generator, shape: tuple[int, ...], m: int,
                  delta: float) -> tuple[Array, Array]:  # fmt: skip
    """Scores of A and B in [0, 1], shape ``shape + (G, m)``, whose true mean difference is
    ``delta`` (module docstring)."""
    if cell.family == "latent":
        a, b = _latent(rng, shape, m)
        return np.clip(MU_A + SIGMA * a, 0, 1), np.clip(latent_mu_b(delta) + SIGMA * b, 0, 1)
    full = (*shape, m)

    def pairs(count: tuple[int, ...]) -> tuple[Array, Array]:
        a = _mixture(rng, count, 0.3)
        fresh = _mixture(rng, count, 0.3 + delta / cell.changed)
        return a, np.where(rng.random(count) < cell.changed, fresh, a)

    own_a, own_b = pairs(full)
    seed_a, seed_b = pairs((*shape, 1))
    copy = rng.random(full) < RHO["copy"]
    return np.where(copy, seed_a, own_a), np.where(copy, seed_b, own_b)
