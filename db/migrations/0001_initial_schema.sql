-- The initial schema: workloads and their uploads, devices, the compile cache, tuning jobs with
-- their candidates and measurements, vendor baselines, and the tuned results served to clients.
-- JSON values are stored as TEXT; times are UTC ISO-8601 text, which sorts in time order.

CREATE TABLE workloads (
  id          INTEGER PRIMARY KEY,
  signature   TEXT    NOT NULL UNIQUE,
  kind        TEXT    NOT NULL,
  rows        INTEGER NOT NULL,
  cols        INTEGER NOT NULL,
  nnz         INTEGER NOT NULL,
  features    TEXT    NOT NULL,  -- JSON object
  vector      TEXT    NOT NULL,  -- JSON array: the nearest-neighbour key
  description TEXT    NOT NULL DEFAULT '',
  created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX workloads_by_kind ON workloads(kind);

CREATE TABLE uploads (
  id          TEXT    PRIMARY KEY,
  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,
  content     BLOB    NOT NULL,  -- gzip Matrix Market
  bytes       INTEGER NOT NULL,
  created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX uploads_by_workload ON uploads(workload_id);

CREATE TABLE devices (
  id          INTEGER PRIMARY KEY,
  fingerprint TEXT    NOT NULL UNIQUE,
  name        TEXT    NOT NULL,
  details     TEXT    NOT NULL,  -- JSON object
  calibration TEXT,              -- JSON object; NULL until the device is calibrated
  created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE compiled_kernels (
  key             TEXT    PRIMARY KEY,  -- SHA-256 of (source, options, arch)
  arch            TEXT    NOT NULL,
  ok              INTEGER NOT NULL CHECK (ok IN (0, 1)),
  ptx             TEXT    NOT NULL,
  cubin           BLOB    NOT NULL,
  lowered_names   TEXT    NOT NULL,  -- JSON object: entry -> symbol
  usage           TEXT    NOT NULL,  -- JSON object: entry -> registers, shared, spills
  log             TEXT    NOT NULL,
  compile_seconds REAL    NOT NULL,
  created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE jobs (
  id               TEXT    PRIMARY KEY,
  dedup_key        TEXT    NOT NULL,
  state            TEXT    NOT NULL
                   CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  request          TEXT    NOT NULL,  -- JSON
  progress_done    INTEGER NOT NULL DEFAULT 0,
  progress_planned INTEGER NOT NULL DEFAULT 0,
  best             TEXT,              -- JSON tune answer so far
  error            TEXT,
  search_state     TEXT,              -- JSON, to resume the search after a restart
  created_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX jobs_by_dedup_key ON jobs(dedup_key, state);
CREATE INDEX jobs_by_state ON jobs(state, created_at);
CREATE INDEX jobs_by_created_at ON jobs(created_at);

CREATE TABLE candidates (
  id           INTEGER PRIMARY KEY,
  job_id       TEXT    NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  workload_id  INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,
  kernel       TEXT    NOT NULL,
  dtype        TEXT    NOT NULL,
  device_id    INTEGER REFERENCES devices(id) ON DELETE SET NULL,  -- NULL in model-only runs
  config       TEXT    NOT NULL,  -- JSON object
  config_key   TEXT    NOT NULL,  -- canonical text of config
  -- compiled_kernels.key, without a foreign key: the compile cache may be pruned on its own.
  kernel_key   TEXT,
  predicted_us REAL,
  UNIQUE (job_id, config_key)
);
CREATE INDEX candidates_by_workload ON candidates(workload_id);
CREATE INDEX candidates_by_device ON candidates(device_id);

CREATE TABLE measurements (
  id            INTEGER PRIMARY KEY,
  candidate_id  INTEGER NOT NULL REFERENCES candidates(id) ON DELETE CASCADE,
  status        TEXT    NOT NULL CHECK (status IN
                  ('ok', 'compile_error', 'verify_failed', 'fault', 'timeout', 'skipped')),
  median_us     REAL,  -- NULL unless the candidate ran
  iqr_us        REAL,
  count         INTEGER NOT NULL DEFAULT 0,
  max_rel_error REAL,  -- NULL unless verification ran
  message       TEXT    NOT NULL DEFAULT '',
  hot           INTEGER NOT NULL DEFAULT 0 CHECK (hot IN (0, 1)),
  created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX measurements_by_candidate ON measurements(candidate_id);

CREATE TABLE baselines (
  id          INTEGER PRIMARY KEY,
  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,
  device_id   INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  kernel      TEXT    NOT NULL,
  dtype       TEXT    NOT NULL,
  vendor      TEXT    NOT NULL,  -- e.g. cusparse-csr-alg2
  median_us   REAL    NOT NULL,
  iqr_us      REAL    NOT NULL,
  count       INTEGER NOT NULL,
  created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX baselines_by_key ON baselines(workload_id, device_id, kernel, dtype);
CREATE INDEX baselines_by_device ON baselines(device_id);

CREATE TABLE results (
  id           INTEGER PRIMARY KEY,
  workload_id  INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,
  kernel       TEXT    NOT NULL,
  dtype        TEXT    NOT NULL,
  device_id    INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  config       TEXT    NOT NULL,  -- JSON object
  answer       TEXT    NOT NULL,  -- JSON: the full tune answer
  source       TEXT    NOT NULL CHECK (source IN ('model', 'measured')),
  predicted_us REAL    NOT NULL,
  measured_us  REAL,
  vendor       TEXT,              -- JSON: the baseline it was compared with
  provenance   TEXT    NOT NULL,  -- JSON
  job_id       TEXT    REFERENCES jobs(id) ON DELETE SET NULL,
  updated_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (workload_id, kernel, dtype, device_id)
);
CREATE INDEX results_by_kernel_device ON results(kernel, dtype, device_id);
CREATE INDEX results_by_device ON results(device_id);
CREATE INDEX results_by_job ON results(job_id);
