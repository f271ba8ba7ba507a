"""bench.ubongo's SimCord part runs: four seats placing at once, timed against four refused clicks
and against a button making only a placement's requests, drawing one image per changed DM."""

from __future__ import annotations

from bench import ubongo


def test_the_four_seat_batch_runs_against_both_floors_and_draws_each_changed_dm_once():
    rows = {metric: result for metric, result, _ in ubongo.dm_rows(single=2, batches=2)}
    ratios = [k for k in rows if "ratio" in k and ("4 refused clicks" in k or "request floor" in k)]
    assert len(ratios) == 3, rows.keys()
    assert all(rows[k].endswith("x") and float(rows[k][:-1]) > 0 for k in ratios)
    drawn = rows["images drawn per 4-placement batch (mean) / surfaces whose image changed"]
    assert drawn == "4.00 / 4.00", "each seat's DM drawn once, at its latest state"
    assert rows["  images drawn identical to what a surface already showed"] == "0"
