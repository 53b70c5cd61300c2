"""What every generator shares (standard library only).

* ``lib``: the one module each generator imports: ``run`` (the command line), ``row_rng``,
  ``assert_unique``, token counts and buckets, the dataset card;
* ``canonical``: the canonical bytes of rows and cards;
* ``seeds``: each row's own random stream, and fresh seeds (``atlas dataset fresh``);
* ``fresh``: how a fresh instance redraws a rejected row;
* ``v2``: how a mixed-scorer suite (mc, exact, numeric) lays out its rows;
* ``mc_plan``: gold letters balanced exactly across a dataset, option sets that hide the gold;
* ``suite``: a -v3 suite composed from family modules of ``families/``.
"""
