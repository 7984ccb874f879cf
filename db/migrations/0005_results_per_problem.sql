-- Results are kept per problem (a family's parameters, e.g. SpMM's dense width k, in canonical
-- JSON; SpMV has none: '{}'), so that SpMM with k = 32 and k = 128 do not overwrite each other,
-- and carry the version of their family's templates (a hash), so that editing one family's
-- kernels makes only its own answers stale. SQLite cannot change a table's UNIQUE constraint:
-- the table is rebuilt, every row carried over unchanged. Rows stored before carry version ''
-- until ktuned confirms them (server/legacy_answers.h).
CREATE TABLE results_by_problem (
  id             INTEGER PRIMARY KEY,
  workload_id    INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,
  kernel         TEXT    NOT NULL,
  problem        TEXT    NOT NULL DEFAULT '{}',  -- canonical JSON of the problem's parameters
  dtype          TEXT    NOT NULL,
  device_id      INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
  kernel_version TEXT    NOT NULL DEFAULT '',    -- the family's template hash
  config         TEXT    NOT NULL,
  answer         TEXT    NOT NULL,
  source         TEXT    NOT NULL CHECK (source IN ('model', 'measured')),
  predicted_us   REAL    NOT NULL,
  measured_us    REAL,
  vendor         TEXT,
  provenance     TEXT    NOT NULL,
  job_id         TEXT    REFERENCES jobs(id) ON DELETE SET NULL,
  updated_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (workload_id, kernel, problem, dtype, device_id)
);
INSERT INTO results_by_problem (id, workload_id, kernel, problem, dtype, device_id, kernel_version, config, answer,
                                source, predicted_us, measured_us, vendor, provenance, job_id, updated_at)
  SELECT id, workload_id, kernel, '{}', dtype, device_id, '', config, answer, source, predicted_us, measured_us,
         vendor, provenance, job_id, updated_at
  FROM results;
DROP TABLE results;
ALTER TABLE results_by_problem RENAME TO results;
CREATE INDEX results_by_kernel_device ON results(kernel, problem, dtype, device_id);
CREATE INDEX results_by_device ON results(device_id);
CREATE INDEX results_by_job ON results(job_id);
