"""Mathematics families of eval-math-v2 and -v3: linear systems, modular arithmetic, counting,
probability, sequences and number theory (each with its v2 question forms and their proofs), how
both versions lay them out (``forms``), the choice rows -v3 rebuilt (``choice``) and the near
misses of every kind (``near_misses``).
"""
