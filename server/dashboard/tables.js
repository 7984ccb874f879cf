// The page's tables, built with textContent only: workload names come from clients.
import { clock, count, micros, seconds, times, workloadOfRequest, workloadOfResult } from './format.js';

function cell(row, text, number = false) {
  const td = row.insertCell();
  td.textContent = text;
  if (number) td.className = 'number';
  return td;
}

// Fills `table`'s body with one row per item (hidden, with its `empty` note shown, when none);
// a click on a row that names a job picks it.
function fill(table, empty, items, build, { jobOf, picked, onPick }) {
  const body = table.tBodies[0];
  body.replaceChildren();
  table.hidden = items.length === 0;
  empty.hidden = items.length > 0;
  for (const item of items) {
    const row = body.insertRow();
    build(row, item);
    const job = jobOf(item);
    if (!job) continue;
    row.classList.add('pickable');
    row.classList.toggle('picked', job === picked);
    row.dataset.job = job;
    row.addEventListener('click', () => onPick(job));
  }
}

export function fillRunning(jobs, uploadNames, pick) {
  fill(document.getElementById('running-table'), document.getElementById('running-empty'), jobs, (row, job) => {
    const p = job.progress;
    cell(row, job.id);
    cell(row, job.request.kernel ?? '?');
    cell(row, workloadOfRequest(job.request, uploadNames));
    cell(row, p.phase ?? job.state);
    const bar = document.createElement('progress');
    bar.max = Math.max(p.planned, 1);
    bar.value = Math.min(p.done, bar.max);
    cell(row, ` ${count(p.done)} / ${count(p.planned)}`).prepend(bar);
    cell(row, micros(p.best_us), true);
    cell(row, micros(p.vendor_us), true);
    cell(row, seconds(p.elapsed_s), true);
    cell(row, seconds(p.eta_s), true);
  }, { jobOf: (job) => job.id, ...pick });
}

export function fillWorkloads(results, pick) {
  fill(document.getElementById('workloads-table'), document.getElementById('workloads-empty'), results, (row, r) => {
    const vendor = (r.vendor ?? []).map((v) => v.median_us).filter(Number.isFinite);
    cell(row, workloadOfResult(r));
    cell(row, count(r.rows), true);
    cell(row, count(r.nnz), true);
    cell(row, r.kernel);
    cell(row, r.dtype);
    cell(row, r.schedule ?? '–');
    cell(row, r.source);
    cell(row, micros(r.predicted_us), true);
    cell(row, micros(r.measured_us), true);
    cell(row, micros(vendor.length ? Math.min(...vendor) : null), true);
    cell(row, times(r.speedup_vs_vendor), true);
    cell(row, r.device);
  }, { jobOf: (r) => r.job, ...pick });
}

export function fillRecent(jobs, uploadNames, pick) {
  fill(document.getElementById('recent-table'), document.getElementById('recent-empty'), jobs, (row, job) => {
    cell(row, job.id);
    cell(row, job.state);
    cell(row, job.request.kernel ?? '?');
    cell(row, workloadOfRequest(job.request, uploadNames));
    cell(row, micros(job.progress.best_us), true);
    cell(row, job.progress.stop ?? job.error ?? '–');
    cell(row, clock(job.created_at));
  }, { jobOf: (job) => job.id, ...pick });
}
