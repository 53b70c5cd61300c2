"""Chemistry tables shared by the science generators: standard atomic masses as prompts state
them, balanced reactions (coefficient, formula, name), and formula arithmetic.

``REACTIONS`` is the table eval-science-v2 draws from; it must keep its order and content so
that generator stays byte-identical. Further reactions go in ``EXTRA_REACTIONS``.
"""

from __future__ import annotations

import re
from fractions import Fraction

MASSES = {
    "H": "1.008",
    "C": "12.011",
    "N": "14.007",
    "O": "15.999",
    "Na": "22.990",
    "Mg": "24.305",
    "Al": "26.982",
    "Cl": "35.45",
    "K": "39.098",
    "Ca": "40.078",
    "Fe": "55.845",
    "Zn": "65.38",
}
REACTIONS = (  # (reactants, products) as (coefficient, formula, name)
    (((2, "H2", "hydrogen"), (1, "O2", "oxygen")), ((2, "H2O", "water"),)),
    (((1, "N2", "nitrogen"), (3, "H2", "hydrogen")), ((2, "NH3", "ammonia"),)),
    (
        ((1, "CH4", "methane"), (2, "O2", "oxygen")),
        ((1, "CO2", "carbon dioxide"), (2, "H2O", "water")),
    ),
    (
        ((1, "C3H8", "propane"), (5, "O2", "oxygen")),
        ((3, "CO2", "carbon dioxide"), (4, "H2O", "water")),
    ),
    (((2, "Al", "aluminium"), (3, "Cl2", "chlorine")), ((2, "AlCl3", "aluminium chloride"),)),
    (
        ((1, "Fe2O3", "iron(III) oxide"), (3, "CO", "carbon monoxide")),
        ((2, "Fe", "iron"), (3, "CO2", "carbon dioxide")),
    ),
    (((4, "Fe", "iron"), (3, "O2", "oxygen")), ((2, "Fe2O3", "iron(III) oxide"),)),
    (((2, "Na", "sodium"), (1, "Cl2", "chlorine")), ((2, "NaCl", "sodium chloride"),)),
    (((2, "Mg", "magnesium"), (1, "O2", "oxygen")), ((2, "MgO", "magnesium oxide"),)),
    (
        ((1, "Zn", "zinc"), (2, "HCl", "hydrogen chloride")),
        ((1, "ZnCl2", "zinc chloride"), (1, "H2", "hydrogen")),
    ),
    (
        ((4, "NH3", "ammonia"), (5, "O2", "oxygen")),
        ((4, "NO", "nitrogen monoxide"), (6, "H2O", "water")),
    ),
    (
        ((1, "C2H6O", "ethanol"), (3, "O2", "oxygen")),
        ((2, "CO2", "carbon dioxide"), (3, "H2O", "water")),
    ),
    (
        ((2, "C2H6", "ethane"), (7, "O2", "oxygen")),
        ((4, "CO2", "carbon dioxide"), (6, "H2O", "water")),
    ),
    (
        ((1, "CaCO3", "calcium carbonate"), (2, "HCl", "hydrogen chloride")),
        ((1, "CaCl2", "calcium chloride"), (1, "CO2", "carbon dioxide"), (1, "H2O", "water")),
    ),
    (
        ((2, "K", "potassium"), (2, "H2O", "water")),
        ((2, "KOH", "potassium hydroxide"), (1, "H2", "hydrogen")),
    ),
)


def atoms(formula: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for sym, n in re.findall(r"([A-Z][a-z]?)(\d*)", formula):
        counts[sym] = counts.get(sym, 0) + int(n or 1)
    return counts


def molar_mass(formula: str) -> Fraction:
    return sum((Fraction(MASSES[s]) * n for s, n in atoms(formula).items()), Fraction(0))


def equation(reaction: tuple) -> str:
    side = lambda terms: " + ".join(f"{c if c > 1 else ''}{f}" for c, f, _ in terms)  # noqa: E731
    return f"{side(reaction[0])} -> {side(reaction[1])}"


def mass_note(reaction: tuple) -> str:
    symbols = sorted({s for side in reaction for _, f, _ in side for s in atoms(f)})
    return "Molar masses in g/mol: " + ", ".join(f"{s} = {MASSES[s]}" for s in symbols) + "."


#: more balanced reactions (for balancing questions); coefficients are re-derived by the proofs
EXTRA_REACTIONS = (
    (((4, "Al", "aluminium"), (3, "O2", "oxygen")), ((2, "Al2O3", "aluminium oxide"),)),
    (((2, "Fe", "iron"), (3, "Cl2", "chlorine")), ((2, "FeCl3", "iron(III) chloride"),)),
    (((2, "SO2", "sulfur dioxide"), (1, "O2", "oxygen")), ((2, "SO3", "sulfur trioxide"),)),
    (((1, "P4", "phosphorus"), (5, "O2", "oxygen")), ((1, "P4O10", "phosphorus pentoxide"),)),
    (
        ((2, "KClO3", "potassium chlorate"),),
        ((2, "KCl", "potassium chloride"), (3, "O2", "oxygen")),
    ),
    (((2, "N2O5", "dinitrogen pentoxide"),), ((4, "NO2", "nitrogen dioxide"), (1, "O2", "oxygen"))),
    (
        ((2, "C4H10", "butane"), (13, "O2", "oxygen")),
        ((8, "CO2", "carbon dioxide"), (10, "H2O", "water")),
    ),
    (
        ((4, "NH3", "ammonia"), (3, "O2", "oxygen")),
        ((2, "N2", "nitrogen"), (6, "H2O", "water")),
    ),
    (
        ((1, "C6H12O6", "glucose"), (6, "O2", "oxygen")),
        ((6, "CO2", "carbon dioxide"), (6, "H2O", "water")),
    ),
    (
        ((2, "Al", "aluminium"), (6, "HCl", "hydrogen chloride")),
        ((2, "AlCl3", "aluminium chloride"), (3, "H2", "hydrogen")),
    ),
    (
        ((2, "Fe2O3", "iron(III) oxide"), (3, "C", "carbon")),
        ((4, "Fe", "iron"), (3, "CO2", "carbon dioxide")),
    ),
    (
        ((2, "C2H2", "ethyne"), (5, "O2", "oxygen")),
        ((4, "CO2", "carbon dioxide"), (2, "H2O", "water")),
    ),
    (
        ((3, "CuO", "copper(II) oxide"), (2, "NH3", "ammonia")),
        ((3, "Cu", "copper"), (1, "N2", "nitrogen"), (3, "H2O", "water")),
    ),
    (
        ((2, "Na", "sodium"), (2, "H2O", "water")),
        ((2, "NaOH", "sodium hydroxide"), (1, "H2", "hydrogen")),
    ),
)
