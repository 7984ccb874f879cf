"""Python client of ktuned, the GPU-kernel tuning daemon (docs/api.md), standard library only."""

from ktune import workloads
from ktune.client import JobFailed, KtuneClient, KtuneError, NotFound, Refused, Unavailable
from ktune.launch import CompiledAnswer, CupyRequired, LaunchError, launch
from ktune.progress import ProgressLine

__all__ = ["CompiledAnswer", "CupyRequired", "JobFailed", "KtuneClient", "KtuneError",
           "LaunchError", "NotFound", "ProgressLine", "Refused", "Unavailable", "launch",
           "workloads"]
