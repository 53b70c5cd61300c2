"""Science families of eval-science-v2, -v3 and -v4 (``base``: their shared item helpers;
``chem``: the chemistry tables; ``stated`` and the ``*_stated`` families: -v4's assumptions
stated in every row; ``near_misses``: -v4's probes).
"""
