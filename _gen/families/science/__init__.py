"""Science families of eval-science-v2 and -v3 (``base``: their shared item helpers; ``chem``:
the chemistry tables).
"""
