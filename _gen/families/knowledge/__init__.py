"""Knowledge families of eval-knowledge-v2 and -v3: chemical elements, the Gregorian calendar,
units with exact definitions, SI prefixes and Roman numerals (each with its v2 forms and
proofs), how both versions lay them out (``forms``), and what -v3 rebuilt: the choice rows
(``choice``), prefix counts of units that exist (``prefix_counts``) and the near misses of every
kind (``near_misses``).
"""
