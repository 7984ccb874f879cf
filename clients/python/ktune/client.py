"""The HTTP client of ktuned's REST API (docs/api.md) and the errors it raises."""

from __future__ import annotations

import http.client
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable

from ktune.progress import FINISHED_STATES, ProgressLine

JobCallback = Callable[[dict], None]


class KtuneError(Exception):
    """A request the daemon refused or failed, or a daemon that could not be reached."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{message} (HTTP {status})" if status else message)
        self.status = status  # 0: the daemon could not be reached
        self.message = message  # the daemon's "error" text, or why it was unreachable


class Refused(KtuneError):
    """The daemon refused the request (HTTP 4xx): the message says what to change."""


class NotFound(Refused):
    """No such job, upload, device or route (HTTP 404)."""


class Unavailable(KtuneError):
    """The daemon is unreachable (status 0) or cannot serve now (HTTP 503): try later."""


class JobFailed(Exception):
    """A job that tune_and_wait followed ended failed or cancelled."""

    def __init__(self, job: dict) -> None:
        reason = job.get("error") or "no reason given"
        super().__init__(f"job {job.get('id')} {job.get('state')}: {reason}")
        self.job = job


def _error_for(status: int, message: str) -> KtuneError:
    if status == 404:
        return NotFound(status, message)
    if status == 503:
        return Unavailable(status, message)
    if 400 <= status < 500:
        return Refused(status, message)
    return KtuneError(status, message)


def _segment(name: str | int) -> str:
    """An id as one path segment (a device fingerprint has spaces)."""
    return urllib.parse.quote(str(name), safe="")


def _dtype_text(dtype: str | dict) -> str:
    """A dtype as lookups write it: "f32", or "bf16:f32:bf16" for input, accumulate, output."""
    if isinstance(dtype, dict):
        return f"{dtype['input']}:{dtype['accumulate']}:{dtype['output']}"
    return dtype


class KtuneClient:
    """One daemon's REST API; every method answers the daemon's JSON (dicts and lists)."""

    def __init__(self, url: str = "http://127.0.0.1:8077", token: str | None = None,
                 timeout: float = 60.0) -> None:
        """`token` (default $KTUNE_TOKEN) is sent as a bearer token; `timeout` bounds a request."""
        self.url = url.rstrip("/")
        self.token = token if token is not None else os.environ.get("KTUNE_TOKEN") or None
        self.timeout = timeout

    def request(self, method: str, path: str, body: bytes | dict | None = None,
                query: dict | None = None, timeout: float | None = None) -> Any:
        """Sends one request: parsed JSON back for a JSON answer, else its text."""
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {}
        if isinstance(body, dict):
            body = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif body is not None:
            # The daemon detects gzip by its magic bytes; a form content type would be capped.
            headers["Content-Type"] = "application/octet-stream"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as res:
                return self._decode(res.headers.get_content_type(), res.read())
        except urllib.error.HTTPError as e:
            answer = self._decode(e.headers.get_content_type(), e.read())
            message = answer.get("error") if isinstance(answer, dict) else None
            raise _error_for(e.code, message or str(answer).strip() or e.reason) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as e:
            reason = getattr(e, "reason", e)
            raise Unavailable(0, f"cannot reach ktuned at {self.url}: {reason}") from None

    @staticmethod
    def _decode(content_type: str, data: bytes) -> Any:
        text = data.decode("utf-8", errors="replace")
        return json.loads(text) if content_type == "application/json" and text else text

    def upload(self, matrix: str | os.PathLike | bytes, name: str | None = None) -> dict:
        """Uploads a Matrix Market file (a path, or its bytes), plain or gzip, sent as is.

        Answers {"id", "signature", "features", "rows", "cols", "nnz"}; the same matrix
        uploaded again keeps its id. `name` (default: the file's name) labels it in reports.
        """
        if isinstance(matrix, (bytes, bytearray)):
            data = bytes(matrix)
        else:
            with open(matrix, "rb") as f:
                data = f.read()
            name = name or os.path.basename(matrix)
        return self.request("POST", "/v1/matrices", data, {"name": name})

    def delete_upload(self, upload_id: str) -> dict:
        """Removes a stored upload (its answers stay); Refused (409) while a job needs it."""
        return self.request("DELETE", f"/v1/matrices/{_segment(upload_id)}")

    def tune(self, kernel: str, workload: dict, dtype: str | dict = "f32",
             problem: dict | None = None, budget: dict | None = None, wait: bool = False,
             wait_seconds: float | None = None, target_speedup: float | None = None,
             hot: bool = False, force: bool = False) -> dict:
        """Submits a tune; `workload` is a dict of ktune.workloads.

        Answers the tune answer (a stored one at once, or with `wait` once the job is done), or
        a ticket {"job", "state", "joined", "poll"} to follow with job() or tune_and_wait().
        `hot` times with a warm L2 instead of flushing it; `force` tunes again even when an
        answer is stored. The other fields are docs/api.md's ("Tune requests").
        """
        body: dict[str, Any] = {"kernel": kernel, "dtype": dtype, "workload": workload,
                                "wait": wait}
        optional = {"problem": problem, "budget": budget, "wait_seconds": wait_seconds,
                    "target_speedup": target_speedup, "hot": hot or None, "force": force or None}
        body.update({k: v for k, v in optional.items() if v is not None})
        # A waiting tune holds the connection for up to wait_seconds (the daemon caps it).
        waited = wait_seconds if wait_seconds is not None else 600
        timeout = waited + self.timeout if wait else None
        return self.request("POST", "/v1/tune", body, timeout=timeout)

    def tune_and_wait(self, kernel: str, workload: dict, dtype: str | dict = "f32",
                      progress: JobCallback | bool = True, poll_seconds: float = 0.5,
                      timeout: float | None = None, **options: Any) -> dict:
        """Tunes and follows the job to its end; answers the tune answer.

        `progress` is called with the job (GET /v1/jobs/{id}) after every poll; True writes a
        progress line on stderr, False nothing. Raises JobFailed if the job fails or is
        cancelled, TimeoutError after `timeout` seconds (the job goes on). Other keyword
        arguments are tune()'s.
        """
        reply = self.tune(kernel, workload, dtype, wait=False, **options)
        if "job" not in reply:
            return reply  # a stored answer
        report = ProgressLine() if progress is True else progress or None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            job = self.job(reply["job"])
            if report:
                report(job)
            if job["state"] == "done":
                return job["best"]
            if job["state"] in FINISHED_STATES:
                raise JobFailed(job)
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"job {job['id']} still {job['state']} after {timeout} s")
            time.sleep(poll_seconds)

    def job(self, job_id: str) -> dict:
        """A job: {"id", "state", "progress", "best", "error", "request"}."""
        return self.request("GET", f"/v1/jobs/{_segment(job_id)}")

    def jobs(self, state: str | None = None, limit: int | None = None) -> dict:
        """{"jobs": [...]}, newest first, without their answers; `state` may be "active"."""
        return self.request("GET", "/v1/jobs", query={"state": state, "limit": limit})

    def candidates(self, job_id: str) -> dict:
        """Every configuration the job tried, in order, with its prediction and measurement."""
        return self.request("GET", f"/v1/jobs/{_segment(job_id)}/candidates")

    def cancel(self, job_id: str) -> dict:
        """Cancels a queued or running job; Refused (409) once it has finished."""
        return self.request("DELETE", f"/v1/jobs/{_segment(job_id)}")

    def lookup(self, kernel: str, signature: str, dtype: str | dict = "f32",
               problem: dict | None = None, features: list[float] | None = None,
               device: str | None = None) -> dict:
        """The stored answer for a workload signature: its "match" is exact, nearest or default.

        `features` (an upload's ["features"]["vector"]) finds the nearest neighbour of a
        signature the daemon has not seen; `device` a fingerprint other than the daemon's.
        """
        query = {"kernel": kernel, "signature": signature, "dtype": _dtype_text(dtype),
                 "device": device, "problem": json.dumps(problem) if problem is not None else None,
                 "features": ",".join(repr(float(x)) for x in features) if features else None}
        return self.request("GET", "/v1/configs", query=query)

    def report(self, text: bool = False) -> dict | str:
        """The tuned results, {"results": [...]}, or with `text` the daemon's aligned table."""
        return self.request("GET", "/v1/report", query={"format": "text"} if text else None)

    def kernels(self) -> dict:
        """{"kernels": [...]}: the families with their problems, dtypes and parameter spaces."""
        return self.request("GET", "/v1/kernels")

    def devices(self) -> dict:
        """This daemon's device and the devices it knows."""
        return self.request("GET", "/v1/devices")

    def device(self, device_id: str | int = "this") -> dict:
        """One device with its calibration: "this", an id from devices(), or a fingerprint."""
        return self.request("GET", f"/v1/devices/{_segment(device_id)}")

    def calibrate(self, device_id: str | int = "this") -> dict:
        """Measures the daemon's GPU (about a minute); Refused (409) on a model-only daemon."""
        path = f"/v1/devices/{_segment(device_id)}/calibrate"
        return self.request("POST", path, b"", timeout=900)

    def metrics(self) -> str:
        """The Prometheus metrics text."""
        return self.request("GET", "/metrics")

    def healthy(self) -> bool:
        """Whether the daemon answers /healthz (which needs no token)."""
        try:
            return self.request("GET", "/healthz").strip() == "ok"
        except KtuneError:
            return False
