"""Human-reviewed tracks: review sheets, verdict import, agreement statistics, audits."""
