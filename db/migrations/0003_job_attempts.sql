-- How many times each job has started running. A job that was running when the daemon died is
-- resumed at the next start; one that keeps dying with it (a workload that exhausts memory, a
-- compiler that hangs) would otherwise hold the queue after every restart, so a job is resumed
-- only a few times. Jobs stored before count as never started.
ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
