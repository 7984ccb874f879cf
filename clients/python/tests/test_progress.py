"""The progress line that tune_and_wait shows by default."""

from __future__ import annotations

import io
import unittest

from ktune import ProgressLine
from ktune.progress import describe


def job(state: str, done: int, planned: int = 40, **progress: object) -> dict:
    return {"id": "j1", "state": state, "progress": {"done": done, "planned": planned, **progress}}


class ProgressTest(unittest.TestCase):
    def test_describe_shows_done_planned_best_and_eta(self) -> None:
        self.assertEqual(describe(job("queued", 0, 0)), "queued: 0/0 done")
        running = job("running", 12, best_us=45.204, best_config="block=128", eta_s=65.4)
        self.assertEqual(describe(running),
                         "running: 12/40 done, best 45.20 us (block=128), eta 1m05s")
        self.assertEqual(describe(job("done", 40, best_us=45.2, eta_s=0)),
                         "done: 40/40 done, best 45.20 us")

    def test_a_log_gets_a_line_per_change_not_per_poll(self) -> None:
        out = io.StringIO()
        line = ProgressLine(out)
        for polled in [job("running", 3), job("running", 3, eta_s=2.0), job("running", 9),
                       job("done", 40)]:
            line(polled)
        self.assertEqual(out.getvalue().splitlines(), ["ktune: job j1 running: 3/40 done",
                                                       "ktune: job j1 running: 9/40 done",
                                                       "ktune: job j1 done: 40/40 done"])


if __name__ == "__main__":
    unittest.main()
