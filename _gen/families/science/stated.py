"""The assumptions eval-science-v4 states in every row that relies on them (issue 19).

eval-science-v3 left some unstated where sibling rows state them: the easy kettle never said that
all of its electrical energy reaches the water (its medium and hard siblings give 70-90 %), the
Boyle's-law rows (syringe, rising bubbles) never said the air behaves as an ideal gas (every
other gas-law row does), and the terminal-voltage row never said that the wires have no
resistance (every other circuit row does). The -v4 families build the -v3 question and insert
the missing sentence at a fixed place; their proofs assert it is there.
"""

from __future__ import annotations

FULL_EFFICIENCY = "All of its electrical energy reaches the water."
IDEAL_AIR = "Treat the air as an ideal gas."
NO_WIRE_RESISTANCE = "The wires have no resistance."


def insert(question: str, anchor: str, sentence: str) -> str:
    """``question`` with `` sentence`` right after its one occurrence of ``anchor``."""
    assert question.count(anchor) == 1, (anchor, question)
    assert sentence not in question, (sentence, question)
    return question.replace(anchor, f"{anchor} {sentence}")


def check_stated(row: dict, sentence: str) -> None:
    """The row's question states ``sentence`` once."""
    assert row["prompt"].count(sentence) == 1, (row["id"], sentence)
