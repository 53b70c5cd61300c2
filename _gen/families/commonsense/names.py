"""Names shared by the eval-commonsense-v3 families (the people in errands, riddles and lists)."""

from __future__ import annotations

NAMES = (
    "Aiko",
    "Bram",
    "Carmen",
    "Dmitri",
    "Esme",
    "Farid",
    "Greta",
    "Hamid",
    "Ilse",
    "Jonah",
    "Kemal",
    "Lucia",
    "Mateus",
    "Nadia",
    "Omar",
    "Petra",
    "Quentin",
    "Rhea",
    "Stefan",
    "Tala",
)
GIRLS = ("Aiko", "Carmen", "Esme", "Greta", "Ilse", "Lucia", "Nadia", "Petra", "Rhea", "Tala")
