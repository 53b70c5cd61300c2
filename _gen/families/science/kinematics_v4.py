"""eval-science-v4 kinematics: the -v3 family (``kinematics``) with the range choice of
``priors_v4`` (the winning launch's place among the four speeds drawn uniformly, so the median
speed no longer names it). Forms and proofs are -v3's."""

from __future__ import annotations

from families.science import kinematics, priors_v4

FORMS = kinematics.FORMS
BUILD = {**kinematics.BUILD, "range_choice": priors_v4.range_choice}
PROVE = kinematics.PROVE
