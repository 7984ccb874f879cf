"""KtuneClient against a real ktuned (model-only), started for these tests."""

from __future__ import annotations

import gzip
import os
import socket
import sys
import time
import unittest
from pathlib import Path
from unittest import mock

import ktune
from ktune import workloads
from daemon import HAMMOND, MATRICES, Ktuned
from test_launch import FakeArray, FakeCupy

daemon: Ktuned


def setUpModule() -> None:
    global daemon
    daemon = Ktuned()


def tearDownModule() -> None:
    daemon.stop()


def perturbed(path: Path) -> bytes:
    """The matrix without every 500th entry: a neighbour of it, with another exact signature."""
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    size = next(i for i, line in enumerate(lines) if not line.startswith("%"))
    rows, cols, _ = lines[size].split()
    entries = [line for i, line in enumerate(lines[size + 1:]) if i % 500 != 7]
    return "\n".join(lines[:size] + [f"{rows} {cols} {len(entries)}"] + entries + [""]).encode()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ClientTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = ktune.KtuneClient(daemon.url)

    def assert_launchable(self, answer: dict) -> None:
        """The answer's launches map onto its real kernels' parameters (a fake CuPy runs them)."""
        cupy = FakeCupy()
        steps = answer["launch"]
        names = {arg["buffer"] for step in steps for arg in step["args"] if "buffer" in arg}
        with mock.patch.dict(sys.modules, {"cupy": cupy}):
            ktune.launch(answer, {name: FakeArray(bytearray(4)) for name in names})
        self.assertEqual([launched[0] for launched in cupy.launches], [s["entry"] for s in steps])
        for (*_, args, _), step in zip(cupy.launches, steps):
            scalars = [type(a).__name__ for a, arg in zip(args, step["args"]) if "scalar" in arg]
            self.assertEqual(scalars, ["int32"] * len(scalars))  # SpMV's scalars are ints

    def test_upload_gives_one_id_per_matrix_gzip_or_plain(self) -> None:
        first = self.client.upload(HAMMOND)
        self.assertEqual((first["rows"], first["cols"], first["nnz"]), (4720, 4720, 32164))
        self.assertEqual(self.client.upload(HAMMOND)["id"], first["id"])
        plain = gzip.decompress(HAMMOND.read_bytes())
        self.assertEqual(self.client.upload(plain, name="hammond.mtx")["id"], first["id"])

    def test_tune_with_wait_answers_the_kernel_then_lookup_finds_it(self) -> None:
        upload = self.client.upload(HAMMOND)
        hammond = workloads.upload(upload["id"])
        answer = self.client.tune("spmv", hammond, wait=True, budget={"compiles": 4})
        self.assertEqual((answer["match"], answer["source"]), ("exact", "model"))
        self.assertEqual(answer["signature"], upload["signature"])
        self.assert_launchable(answer)
        stored = self.client.lookup("spmv", upload["signature"])
        self.assertEqual(stored["match"], "exact")
        self.assertEqual(stored["config_key"], answer["config_key"])
        # A stored answer comes back at once, also without waiting.
        self.assertEqual(self.client.tune("spmv", hammond)["match"], "exact")

    def test_tune_and_wait_reports_progress_until_done(self) -> None:
        seen: list[dict] = []
        answer = self.client.tune_and_wait("spmv", workloads.uniform(200000, seed=1),
                                           budget={"compiles": 40}, progress=seen.append,
                                           poll_seconds=0.05)
        done = [job["progress"]["done"] for job in seen]
        self.assertEqual(done, sorted(done))
        self.assertGreater(len(set(done)), 1, "no progress between the first poll and the end")
        self.assertEqual(seen[-1]["state"], "done")
        self.assertEqual(seen[-1]["progress"]["done"], seen[-1]["progress"]["planned"])
        self.assertEqual(answer, seen[-1]["best"])
        self.assert_launchable(answer)
        job_id = seen[-1]["id"]
        self.assertIn(job_id, [job["id"] for job in self.client.jobs(state="done")["jobs"]])
        self.assertTrue(self.client.candidates(job_id)["candidates"])

    def test_lookup_answers_nearest_for_a_neighbour_and_default_for_the_unknown(self) -> None:
        wathen = MATRICES / "wathenSmall.mtx.gz"
        tuned = self.client.upload(wathen)
        self.client.tune("spmv", workloads.upload(tuned["id"]), dtype="f64", wait=True,
                         budget={"compiles": 2})
        near = self.client.upload(perturbed(wathen), name="wathen-perturbed")
        self.assertNotEqual(near["signature"], tuned["signature"])
        hit = self.client.lookup("spmv", near["signature"], dtype="f64")
        self.assertEqual((hit["match"], hit["neighbour"]), ("nearest", tuned["signature"]))
        self.assertGreater(hit["distance"], 0)
        unseen = self.client.lookup("spmv", "0" * 64, dtype="f64",
                                    features=near["features"]["vector"])
        self.assertEqual(unseen["match"], "nearest")
        default = self.client.lookup("spmv", "0" * 64, dtype="f64")
        self.assertEqual(default["match"], "default")
        with self.assertRaises(ktune.LaunchError):
            ktune.launch(default, {})

    def test_cancel_stops_a_running_job_and_its_waiter(self) -> None:
        slow = workloads.uniform(200000, seed=2)
        budget = {"compiles": 40}
        with self.assertRaises(TimeoutError):
            self.client.tune_and_wait("spmv", slow, budget=budget, progress=False, timeout=0)
        cancelled: list[dict] = []

        def cancel_once_running(job: dict) -> None:
            if job["state"] == "running" and not cancelled:
                cancelled.append(self.client.cancel(job["id"]))

        # The same request joins the job that the timed-out wait left running.
        with self.assertRaises(ktune.JobFailed) as caught:
            self.client.tune_and_wait("spmv", slow, budget=budget, progress=cancel_once_running,
                                      poll_seconds=0.01)
        self.assertEqual(cancelled[0]["state"], "cancelled")
        self.assertEqual(caught.exception.job["state"], "cancelled")
        with self.assertRaises(ktune.Refused) as refused:
            self.client.cancel(cancelled[0]["id"])
        self.assertEqual(refused.exception.status, 409)

    def test_errors_carry_the_status_and_the_daemons_message(self) -> None:
        with self.assertRaises(ktune.NotFound) as caught:
            self.client.job("jnosuchjob")
        self.assertEqual(caught.exception.status, 404)
        with self.assertRaises(ktune.Refused) as caught:
            self.client.tune("spmv", {"generator": "nope"})
        self.assertEqual(caught.exception.status, 400)
        self.assertIn("unknown generator 'nope'", caught.exception.message)
        with self.assertRaises(ktune.Refused) as caught:
            self.client.request("POST", "/v1/tune", b"{not json")
        self.assertEqual(caught.exception.status, 400)
        self.assertEqual(caught.exception.message, "the request body is not valid JSON")
        with self.assertRaises(ktune.Refused) as caught:
            self.client.calibrate()
        self.assertEqual(caught.exception.status, 409)
        unreachable = ktune.KtuneClient(f"http://127.0.0.1:{closed_port()}")
        with self.assertRaises(ktune.Unavailable) as caught:
            unreachable.kernels()
        self.assertEqual(caught.exception.status, 0)
        self.assertFalse(unreachable.healthy())

    def test_delete_upload(self) -> None:
        upload = self.client.upload(MATRICES / "gemat12.mtx.gz")
        self.assertEqual(self.client.delete_upload(upload["id"]),
                         {"id": upload["id"], "deleted": True})
        with self.assertRaises(ktune.NotFound):
            self.client.delete_upload(upload["id"])
        with self.assertRaises(ktune.NotFound):
            self.client.tune("spmv", workloads.upload(upload["id"]))

    def test_kernels_devices_report_metrics_health(self) -> None:
        self.assertTrue(self.client.healthy())
        self.assertIn("spmv", [family["name"] for family in self.client.kernels()["kernels"]])
        devices = self.client.devices()
        self.assertEqual(devices["this"]["mode"], "model-only")
        self.assertEqual(self.client.device()["fingerprint"], devices["this"]["fingerprint"])
        self.assertTrue(self.client.device(devices["known"][0]["id"])["this"])
        with self.assertRaises(ktune.NotFound):
            self.client.device("nosuchdevice")
        self.client.tune("spmv", workloads.stencil2d(32), wait=True, budget={"compiles": 2})
        self.assertTrue(self.client.report()["results"])
        self.assertIn("schedule", self.client.report(text=True))
        self.assertIn("# TYPE", self.client.metrics())


class TokenTest(unittest.TestCase):
    TOKEN = "a-test-token-of-some-length"

    @classmethod
    def setUpClass(cls) -> None:
        cls.daemon = Ktuned(token=cls.TOKEN)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.daemon.stop()

    def test_requests_need_the_bearer_token(self) -> None:
        with mock.patch.dict(os.environ, {"KTUNE_TOKEN": ""}):
            anonymous = ktune.KtuneClient(self.daemon.url)
        with self.assertRaises(ktune.Refused) as caught:
            anonymous.kernels()
        self.assertEqual(caught.exception.status, 401)
        self.assertIn("bearer token", caught.exception.message)
        self.assertTrue(anonymous.healthy(), "/healthz needs no token")
        self.assertIn("kernels", ktune.KtuneClient(self.daemon.url, token=self.TOKEN).kernels())

    def test_the_token_defaults_to_the_environment(self) -> None:
        with mock.patch.dict(os.environ, {"KTUNE_TOKEN": self.TOKEN}):
            client = ktune.KtuneClient(self.daemon.url)
        self.assertEqual(client.upload(HAMMOND)["nnz"], 32164)


if __name__ == "__main__":
    unittest.main()
