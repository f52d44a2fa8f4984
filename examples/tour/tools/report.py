"""Summaries for the nightly report."""


def summarize(rows):
    """Count rows per state."""
    counts = {}
    for row in rows:
        counts[row["state"]] = counts.get(row["state"], 0) + 1
    return counts
