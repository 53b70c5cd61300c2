"""eval-science-v4's choice forms whose option texts carry no prior (issue 19).

Before this module, the audit's learned answer-free baseline beat chance on eval-science-v4's mc
rows by 11 points on its committed rows and by 9 points pooled over fresh instances: the gold
could be told from its options' texts, learned from a family's other rows, without solving.

* ``most_energy``: v3 drew each store's numbers from fixed ranges, so a 48 V battery (up to
  17 MJ) nearly always held the most energy and a 3 V one never did: the words "48 V" named the
  gold. Here the four energies are drawn log-uniformly from one range (:data:`ENERGY`) and each
  store's numbers are derived from its energy (a car's speed from its mass, a load's height from
  its mass, the water's volume from its warming, a battery's ampere-hours from its voltage), so
  no single number tells which store is largest before the energies are worked out.
* ``range_choice``: v3 refused a winner that was the fastest launch (a surface rule), so the
  winner was mostly the second or third fastest: the option whose speed was the options' median
  won three times in four. Here the winner's place among the four distinct speeds is drawn
  first, uniformly (the fastest included), and launches are drawn until the winner holds it. At
  level 2 the winner is also not the angle nearest 45 degrees (v3's rule), so it cannot be the
  slowest (a faster launch nearer 45 degrees goes farther): there its place is one of the other
  three.
  At level 0 the four launches share one speed and the angle decides, as in v3, but the speed
  is drawn per row: v3's 20 m/s for every row made whole option texts recur as golds.
* ``which_gas``: v3 drew the four gases again whenever the flask would hold under 1 g, which
  happens to light golds more often, so heavy gases were the gold beyond their share. Here the
  gases stay and only the flask is drawn again.
* ``pressure_factor``: from v3's temperatures (-40 to 450 degrees C) the factor is nearly always
  between 0.5 and 2, while its slips (Celsius ratios, squares) fall far from it: a gold starting
  "1." was a prior of its own. Here the temperatures run from -150 to 900 degrees C (a cryogenic
  store to a furnace), so factors spread from about 0.1 to 10.

Every proof is v3's: it recomputes the answer from the row's meta and prompt.
"""

from __future__ import annotations

import functools
import math
import random

from families.science import energy, gases, kinematics
from families.science.base import Item

#: the energy (J) each store of a most-energy row is drawn with, log-uniformly
ENERGY = (300_000, 1_200_000)
#: draws of a row's free numbers before the builder gives up (the suite's redraw then retries);
#: a level-1 launch set whose slowest ball wins takes about 1,300 draws
TRIES = 40_000
#: the temperatures (degrees C) a pressure-factor row starts and ends at
FACTOR_TEMPS = ((-150, 300), (-150, 900))
VOLTS = (3, 12, 48)


def _energy(rng: random.Random) -> float:
    return math.exp(rng.uniform(math.log(ENERGY[0]), math.log(ENERGY[1])))


def _stores(rng: random.Random) -> tuple[tuple[int, int], ...] | None:
    """A car, a load, some water and a battery, each holding an energy drawn from ``ENERGY``
    (None when a derived number rounds to nothing)."""
    m_car, m_lift = rng.randint(1000, 2500), rng.randint(800, 2000)
    kmh = round(math.sqrt(2 * _energy(rng) / m_car) * 3.6)
    h = round(_energy(rng) / (float(energy.G) * m_lift))
    dt = rng.randint(10, 60)
    water = round(_energy(rng) / (float(energy.C_WATER) * dt))
    volts = rng.choice(VOLTS)
    amp_h = round(_energy(rng) / (volts * 3600))
    if min(h, water, amp_h) < 1:
        return None
    return (m_car, kmh), (m_lift, h), (water, dt), (volts, amp_h)


def most_energy(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    """v3's question and options; the stores drawn from one energy range (module docstring)."""
    assert slot is not None
    stores = _stores(rng)
    if stores is None:
        return None
    values = energy.stored(*stores)
    ranked = sorted(range(4), key=values.__getitem__)
    lead = values[slot] / values[ranked[-2]]
    if ranked[-1] != slot or not energy.MARGINS[level] <= lead <= 3:
        return None
    return energy.most_energy_item(*stores, slot)


def range_choice(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    """v3's question; the winner's place among the speeds drawn first (module docstring)."""
    assert slot is not None
    place = rng.randrange(4) if level < 2 else rng.randrange(1, 4)  # slowest first
    for _ in range(TRIES):
        if level == 0:
            launches = [(speed, a) for speed in [rng.randint(12, 30)] for a in _angles(rng)]
        else:
            launches = [(s, rng.choice(kinematics.ANGLES)) for s in rng.sample(range(12, 31), 4)]
        ranges = [kinematics.launch_range(launch) for launch in launches]
        order = sorted(range(4), key=ranges.__getitem__)
        best = launches[order[-1]]
        if ranges[order[-1]] < ranges[order[-2]] * 1.03:
            continue
        if level and sorted(s for s, _ in launches).index(best[0]) != place:
            continue
        if level == 2 and abs(best[1] - 45) == min(abs(a - 45) for _, a in launches):
            continue  # the angle nearest 45 degrees would win by a surface rule
        return kinematics.range_item(rng, launches, order, slot)
    return None


def _angles(rng: random.Random) -> list[int]:
    return rng.sample(kinematics.ANGLES, 4)


def which_gas(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    """v3's question and options; the gases kept while the flask is drawn again."""
    assert slot is not None
    picks = sorted(rng.sample(range(len(gases.GASES)), 4))
    for _ in range(TRIES):
        v, t, p = gases.flask(rng)
        grams = gases.gas_grams(picks[slot], v, t, p)
        if grams >= 1:
            return gases.which_gas_item(picks, slot, v, t, p, grams)
    return None


pressure_factor = functools.partial(gases.pressure_factor, temps=FACTOR_TEMPS)
