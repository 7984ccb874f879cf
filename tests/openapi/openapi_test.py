"""Real responses of a running ktuned (model-only) against docs/openapi.yaml: every route, its
successes and its typical errors, each body validated against the schema documented for its
status. Also: every route server/http_api.cpp registers is in the spec and every operation of
the spec was exercised, and the dashboard test's recorded measured answers fit it too.
ctest runs it with Debian's python3 (python3-jsonschema, python3-yaml); KTUNED names the binary."""
import gzip
import json
import os
import re
import threading
import unittest

from ktuned_process import Ktuned, wait_for
from openapi_spec import OpenApiSpec

SOURCE_DIR = os.environ.get("KTUNE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
MATRICES = os.path.join(SOURCE_DIR, "data", "matrices")
TOKEN = "openapi-test-token-0123456789"
# Long enough to hold the daemon's one job thread (all 126 SpMV configurations emulated on 8M
# entries) while the tests queue behind it; always cancelled.
SLOW_TUNE = {"kernel": "spmv", "dtype": "f32", "wait": False, "budget": {"compiles": 1000},
             "workload": {"generator": "rmat", "scale": 19, "edge_factor": 16, "seed": 7}}


def matrix(name):
    with open(os.path.join(MATRICES, name), "rb") as f:
        return f.read()


class OpenApiTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.spec = OpenApiSpec(os.path.join(SOURCE_DIR, "docs", "openapi.yaml"))
        broken = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"ktune-openapi-broken-{os.getpid()}.mtx")
        with open(broken, "w") as f:
            f.write("this is not a Matrix Market file\n")
        cls.daemon = Ktuned("--max-body-mb", "4", "--queue", "2",
                            data_files=[os.path.join(MATRICES, "hammond.mtx.gz"), broken])
        os.remove(broken)
        token_file = os.path.join(cls.daemon.dir, "token")
        with open(token_file, "w") as f:
            f.write(TOKEN)
        cls.guarded = Ktuned("--auth-token-file", token_file)
        cls.hammond = cls.call("POST", "/v1/matrices?name=hammond", matrix("hammond.mtx.gz"), expect=201)
        cls.answer = cls.call("POST", "/v1/tune", {"kernel": "spmv", "dtype": "f32", "wait": True,
                                                    "workload": {"upload": cls.hammond["id"]}}, expect=200)

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.guarded.stop()
        missed = cls.spec.operations() - cls.spec.exercised
        if missed:
            raise AssertionError(f"operations of docs/openapi.yaml no test requested: {sorted(missed)}")

    @classmethod
    def call(cls, method, path, body=None, expect=None, daemon=None, headers=None):
        """Requests, checks the response against the spec, returns its decoded body."""
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        status, response_headers, raw = (daemon or cls.daemon).request(method, path, body, headers)
        decoded = cls.spec.check(method, path, status, response_headers, raw)
        if expect is not None and status != expect:
            raise AssertionError(f"{method} {path}: expected {expect}, got {status}: {raw[:300]!r}")
        return decoded

    def job_state(self, job):
        return self.call("GET", f"/v1/jobs/{job}", expect=200)["state"]

    def test_health_metrics_and_dashboard_files(self):
        self.assertEqual(self.call("GET", "/healthz", expect=200), "ok\n")
        self.assertIn("ktune_http_requests_total", self.call("GET", "/metrics", expect=200))
        self.assertIn("<html", self.call("GET", "/", expect=200))
        for name in ("app.js", "style.css", "uPlot.iife.min.js"):
            self.call("GET", f"/dashboard/{name}", expect=200)
        self.call("GET", "/dashboard/missing.js", expect=404)

    def test_uploads(self):
        created = self.call("POST", "/v1/matrices?name=gemat12", matrix("gemat12.mtx.gz"), expect=201)
        self.assertEqual(self.call("POST", "/v1/matrices", matrix("gemat12.mtx.gz"), expect=200)["id"], created["id"])
        plain = gzip.decompress(matrix("wathenSmall.mtx.gz"))
        wathen = self.call("POST", "/v1/matrices", plain, expect=201)
        self.call("POST", "/v1/matrices", b"", expect=400)
        self.call("POST", "/v1/matrices", b"%%MatrixMarket matrix nonsense\n", expect=400)
        self.call("POST", "/v1/matrices", b"%" * (5 << 20), expect=413)  # --max-body-mb 4
        self.assertTrue(self.call("DELETE", f"/v1/matrices/{wathen['id']}", expect=200)["deleted"])
        self.call("DELETE", f"/v1/matrices/{wathen['id']}", expect=404)

    def test_tune_answers_and_refusals(self):
        again = self.call("POST", "/v1/tune", {"kernel": "spmv", "workload": {"upload": self.hammond["id"]}}, expect=200)
        self.assertEqual(again["match"], "exact")
        from_path = self.call("POST", "/v1/tune", {"kernel": "spmv", "dtype": "f64", "wait": True,
                                                   "workload": {"path": "hammond.mtx.gz"}}, expect=200)
        self.assertEqual(from_path["dtype"], "f64")
        spmm = {"kernel": "spmm", "dtype": "f32", "problem": {"k": 16}, "workload": {"generator": "stencil2d", "n": 30}}
        ticket = self.call("POST", "/v1/tune", spmm, expect=202)
        wait_for(lambda: self.job_state(ticket["job"]) == "done", what="the SpMM job")
        refused = [
            ({"kernel": "nope", "workload": {"generator": "stencil2d", "n": 8}}, 400),
            ({"kernel": "spmv", "workload": {"generator": "stencil2d", "n": 8}, "colour": 1}, 400),
            ({"kernel": "spmv", "workload": {"path": "../outside.mtx"}}, 403),
            ({"kernel": "spmv", "workload": {"path": "missing.mtx"}}, 404),
            ({"kernel": "spmv", "workload": {"upload": "m0123456789abcdef0123"}}, 404),
        ]
        for request, status in refused:
            self.call("POST", "/v1/tune", request, expect=status)
        self.call("POST", "/v1/tune", b"{not json", expect=400)
        # Failures of the job itself name it.
        failed = self.call("POST", "/v1/tune", {"kernel": "spmv", "wait": True, "workload": {
            "path": f"ktune-openapi-broken-{os.getpid()}.mtx"}}, expect=400)
        self.assertIn("job", failed)
        too_big = self.call("POST", "/v1/tune", {"kernel": "spmv", "wait": True, "workload": {
            "generator": "rmat", "scale": 20, "edge_factor": 16, "seed": 1}}, expect=413)
        self.assertIn("error", too_big)

    def test_jobs_queue_cancel_and_candidates(self):
        slow = self.call("POST", "/v1/tune", SLOW_TUNE, expect=202)["job"]
        wait_for(lambda: self.job_state(slow) == "running", what="the slow job to run")
        # The one job thread is busy: what comes next queues (two places, --queue 2).
        szd = self.call("POST", "/v1/matrices?name=szdMat", matrix("szdMat.mtx.gz"), expect=201)
        queued = self.call("POST", "/v1/tune", {"kernel": "spmv", "workload": {"upload": szd["id"]}}, expect=202)["job"]
        self.call("DELETE", f"/v1/matrices/{szd['id']}", expect=409)
        waiting = {}
        waiter = threading.Thread(target=lambda: waiting.update(answer=self.call(
            "POST", "/v1/tune", {"kernel": "spmv", "wait": True, "workload": {"generator": "stencil2d", "n": 50}},
            expect=409)))
        waiter.start()
        second = wait_for(lambda: [j["id"] for j in self.call("GET", "/v1/jobs?state=queued", expect=200)["jobs"]
                                   if j["request"]["workload"].get("n") == 50], what="the waiting tune to queue")[0]
        full = self.call("POST", "/v1/tune", {"kernel": "spmv", "workload": {"generator": "stencil2d", "n": 51}},
                         expect=503)
        self.assertIn("error", full)

        listed = self.call("GET", "/v1/jobs?state=active&limit=10", expect=200)["jobs"]
        self.assertEqual({j["id"] for j in listed}, {slow, queued, second})
        self.assertEqual(len(self.call("GET", "/v1/jobs?limit=1", expect=200)["jobs"]), 1)
        running = self.call("GET", f"/v1/jobs/{slow}", expect=200)
        self.assertEqual(running["state"], "running")
        self.call("GET", f"/v1/jobs/{slow}/candidates", expect=200)

        self.assertEqual(self.call("DELETE", f"/v1/jobs/{second}", expect=200)["state"], "cancelled")
        waiter.join(timeout=60)
        self.assertEqual(waiting["answer"]["job"], second)  # the waiting client heard 409 with its job
        for job in (queued, slow):
            self.assertEqual(self.call("DELETE", f"/v1/jobs/{job}", expect=200)["state"], "cancelled")
        self.call("DELETE", f"/v1/jobs/{slow}", expect=409)
        self.call("DELETE", "/v1/jobs/jnosuchjob", expect=404)
        for bad in ("state=bogus", "limit=0", "limit=201", "limit=ten"):
            self.call("GET", f"/v1/jobs?{bad}", expect=400)

    def test_a_finished_job_and_its_candidates(self):
        job = self.answer["provenance"]["job"]
        done = self.call("GET", f"/v1/jobs/{job}", expect=200)
        self.assertEqual(done["best"]["config_key"], self.answer["config_key"])
        candidates = self.call("GET", f"/v1/jobs/{job}/candidates", expect=200)["candidates"]
        self.assertIn(self.answer["config_key"], [c["config_key"] for c in candidates])
        self.assertTrue(all(c["measurement"] is None for c in candidates))  # model-only
        self.call("GET", "/v1/jobs/jnosuchjob", expect=404)
        self.call("GET", "/v1/jobs/jnosuchjob/candidates", expect=404)

    def test_lookups(self):
        signature = self.hammond["signature"]
        self.assertEqual(self.call("GET", f"/v1/configs?kernel=spmv&signature={signature}&dtype=f32",
                                   expect=200)["match"], "exact")
        vector = ",".join(map(str, self.hammond["features"]["vector"]))
        nearest = self.call("GET", f"/v1/configs?kernel=spmv&signature=unseen&dtype=f32&features={vector}", expect=200)
        self.assertEqual((nearest["match"], nearest["neighbour"]), ("nearest", signature))
        default = self.call("GET", "/v1/configs?kernel=spmm&signature=unseen&dtype=f32&problem=%7B%22k%22%3A8%7D",
                            expect=200)
        self.assertEqual(default["source"], "default")
        for query in ("kernel=spmv&signature=x", "kernel=nope&signature=x&dtype=f32",
                      "kernel=spmv&signature=x&dtype=f32&features=1,a", "kernel=spmv&signature=x&dtype=f32&problem=%7B",
                      "kernel=spmm&signature=x&dtype=f32&problem=%7B%22k%22%3A0%7D"):
            self.call("GET", f"/v1/configs?{query}", expect=400)

    def test_kernels_devices_and_report(self):
        names = [k["name"] for k in self.call("GET", "/v1/kernels", expect=200)["kernels"]]
        self.assertIn("spmv", names)
        devices = self.call("GET", "/v1/devices", expect=200)
        self.assertEqual(devices["this"]["mode"], "model-only")
        self.assertTrue(self.call("GET", "/v1/devices/this", expect=200)["this"])
        self.call("GET", f"/v1/devices/{devices['known'][0]['id']}", expect=200)
        self.call("GET", "/v1/devices/999", expect=404)
        self.call("POST", "/v1/devices/this/calibrate", expect=409)  # no GPU
        self.call("POST", "/v1/devices/999/calibrate", expect=404)
        rows = self.call("GET", "/v1/report", expect=200)["results"]
        self.assertIn(self.answer["provenance"]["job"], [r["job"] for r in rows])
        self.assertIn("hammond", self.call("GET", "/v1/report?format=text", expect=200))
        self.assertIn("hammond", self.call("GET", "/v1/report", headers={"Accept": "text/plain"}, expect=200))

    def test_unknown_routes_answer_the_error_shape(self):
        status, _, body = self.daemon.request("GET", "/v1/nothing")
        self.assertEqual(status, 404)
        self.assertEqual(self.spec.errors(self.spec.schema("Error"), json.loads(body)), [])

    def test_a_daemon_with_a_token(self):
        for path in ("/v1/report", "/v1/jobs", "/metrics"):
            status, headers, body = self.guarded.request("GET", path)
            self.assertEqual(status, 401, path)
            self.assertEqual(headers.get("WWW-Authenticate"), "Bearer")
            self.spec.check("GET", path, status, headers, body)
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        self.call("GET", "/v1/report", daemon=self.guarded, headers=bearer, expect=200)
        for open_path in ("/healthz", "/", "/dashboard/app.js"):  # no token, no data
            self.call("GET", open_path, daemon=self.guarded, expect=200)

    def test_every_route_of_ktuned_is_in_the_spec(self):
        with open(os.path.join(SOURCE_DIR, "server", "http_api.cpp")) as f:
            source = f.read()
        registered = set()
        for method, pattern in re.findall(r'server\.(Get|Post|Put|Delete)\(\s*(?:R"\()?"?([^"\s,]+?)\)?"?\s*,', source):
            example = re.sub(r"\(\[[^]]+\]\+\)|\[[^]]+\]\+", "x1", pattern)  # a path the route takes
            registered.add((method.upper(), self.spec.template_of(example)))
        self.assertGreaterEqual(len(registered), 15)
        self.assertEqual(registered, self.spec.operations())

    def test_the_dashboard_fixture_fits_the_spec(self):
        with open(os.path.join(SOURCE_DIR, "tests", "dashboard", "measured_fixture.json")) as f:
            routes = json.load(f)["routes"]
        for path, body in routes.items():
            template = self.spec.template_of(path.split("?")[0])
            schema = self.spec.doc["paths"][template]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            self.assertEqual(self.spec.errors(schema, body), [], path)

    def test_closed_objects_refuse_undocumented_and_missing_fields(self):
        """The spec catches drift: what a response adds or drops at the top of a closed object."""
        for name, body in (("TuneAnswer", self.answer), ("Upload", self.hammond)):
            self.assertEqual(self.spec.errors(self.spec.schema(name), body), [])
            self.assertNotEqual(self.spec.errors(self.spec.schema(name), dict(body, surprise=1)), [])
            missing = dict(body)
            missing.pop("signature")
            self.assertNotEqual(self.spec.errors(self.spec.schema(name), missing), [])


if __name__ == "__main__":
    unittest.main()
