"""How a job's progress is shown while a client waits (docs/api.md "Job progress")."""

from __future__ import annotations

import sys
from typing import TextIO

FINISHED_STATES = ("done", "failed", "cancelled")


def describe(job: dict) -> str:
    """One line for a job: "running: 12/40 done, best 45.20 us (key), eta 1m05s"."""
    progress = job.get("progress") or {}
    done, planned = progress.get("done", 0), progress.get("planned", 0)
    parts = [f"{job.get('state', '?')}: {done}/{planned} done"]
    if progress.get("best_us") is not None:
        config = f" ({progress['best_config']})" if progress.get("best_config") else ""
        parts.append(f"best {progress['best_us']:.2f} us{config}")
    eta = progress.get("eta_s")
    if eta and job.get("state") == "running":
        minutes, seconds = divmod(round(eta), 60)
        parts.append(f"eta {minutes}m{seconds:02d}s" if minutes else f"eta {seconds}s")
    return ", ".join(parts)


class ProgressLine:
    """A progress callback for KtuneClient.tune_and_wait.

    On a terminal it redraws one line; elsewhere (logs, CI) it writes a line only when the
    state or the done count changes, so that a log is not one line per poll.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.redraw = self.stream.isatty()
        self.last: tuple | None = None

    def __call__(self, job: dict) -> None:
        """Shows the job as polled; ends the line once it has finished."""
        finished = job.get("state") in FINISHED_STATES
        line = f"ktune: job {job.get('id')} {describe(job)}"
        if self.redraw:
            self.stream.write("\r\033[K" + line + ("\n" if finished else ""))
        else:
            key = (job.get("state"), (job.get("progress") or {}).get("done"))
            if key == self.last:
                return
            self.last = key
            self.stream.write(line + "\n")
        self.stream.flush()
