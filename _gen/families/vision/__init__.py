"""Images of eval-vision-v1 and -v2: the Pillow renderer, the pixel readers of the second proof,
the questions (``questions``), -v2's rebuilt choice rows (``choices``), its open questions with
answers drawn first (``planned``) and probes (``near_misses``)."""
