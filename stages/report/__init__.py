"""Reports: summary metrics, report.md and a self-contained report.html."""
