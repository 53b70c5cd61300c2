"""The model judge of rubric tracks and its calibration against human verdicts (issue 21)."""
