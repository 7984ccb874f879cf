// The dashboard: loads what ktuned knows, draws it, and follows running jobs every two seconds.
import { AuthRequired, getJson, takeTokenFromAddress, useToken } from './api.js';
import { bars, clear, colours } from './charts.js';
import { micros, times, workloadOfResult } from './format.js';
import { showJob } from './job_view.js';
import { fillRecent, fillRunning, fillWorkloads } from './tables.js';

const POLL_MS = 2000;
const $ = (id) => document.getElementById(id);

const state = {
  results: [],
  uploadNames: new Map(),  // upload id -> the name its workload was stored with
  picked: null,            // the job shown in detail
  active: '',              // ids of the queued and running jobs, to notice when one ends
};

function pickOptions() {
  return { picked: state.picked, onPick: (id) => pick(id).catch(fail) };
}

function showWorkloads() {
  const rows = state.results;
  $('workloads-figure').hidden = rows.length === 0;
  fillWorkloads(rows, pickOptions());
  if (rows.length === 0) return clear($('workloads-chart'));
  const several = new Set(rows.map((r) => `${r.kernel} ${r.dtype}`)).size > 1;
  const labels = rows.map((r) => workloadOfResult(r) + (several ? ` ${r.kernel} ${r.dtype}` : ''));
  if (rows.some((r) => r.speedup_vs_vendor != null)) {
    $('workloads-caption').textContent = 'Speedup over the vendor library (measured times; above 1 is faster)';
    bars($('workloads-chart'), labels, [
      { label: 'speedup', colour: colours.ktune, values: rows.map((r) => r.speedup_vs_vendor ?? null), format: times },
    ], { xLabel: 'workload', yLabel: '× vendor' });
  } else {
    $('workloads-caption').textContent = 'Tuned time per workload, measured or else predicted (no vendor baseline ' +
      'was measured: a daemon without a GPU answers with the model\'s predictions)';
    bars($('workloads-chart'), labels, [
      { label: 'time µs', colour: colours.ktune, values: rows.map((r) => r.measured_us ?? r.predicted_us), format: micros },
    ], { xLabel: 'workload', yLabel: 'µs', times: true });
  }
}

async function pick(id) {
  state.picked = id;
  for (const row of document.querySelectorAll('tr[data-job]')) row.classList.toggle('picked', row.dataset.job === id);
  await showJob(id, state.uploadNames);
}

async function loadAll() {
  const [devices, report, recent, active] = await Promise.all([
    getJson('/v1/devices'), getJson('/v1/report'), getJson('/v1/jobs?limit=20'), getJson('/v1/jobs?state=active'),
  ]);
  const d = devices.this;
  $('device').textContent = d.mode === 'gpu' ? `${d.name}: answers are measured on this GPU`
    : `${d.name}: no GPU, answers are the model's predictions`;
  state.results = report.results;
  // ktuned names an upload "m" and the first 20 characters of its signature (server/service.cpp).
  state.uploadNames = new Map(report.results.map((r) => [`m${r.signature.slice(0, 20)}`, workloadOfResult(r)]));
  state.picked ??= report.results.find((r) => r.job)?.job ?? recent.jobs[0]?.id ?? null;
  state.active = active.jobs.map((j) => j.id).join(' ');
  showWorkloads();
  fillRunning(active.jobs, state.uploadNames, pickOptions());
  fillRecent(recent.jobs, state.uploadNames, pickOptions());
  if (state.picked) await pick(state.picked);
}

async function poll() {
  const active = await getJson('/v1/jobs?state=active');
  const ids = active.jobs.map((j) => j.id).join(' ');
  if (ids !== state.active) {
    // A job started or ended: the report and both lists are redrawn together, so that a job
    // that left the running list is already in the recent one with its final state.
    await loadAll();
  } else {
    fillRunning(active.jobs, state.uploadNames, pickOptions());  // progress
    if (state.picked && active.jobs.some((j) => j.id === state.picked)) {
      await showJob(state.picked, state.uploadNames);  // live convergence of the job shown
    }
  }
  $('status').textContent = `updated ${new Date().toLocaleTimeString()}`;
}

function fail(error) {
  if (error instanceof AuthRequired) {
    $('token-form').hidden = false;
    $('status').textContent = `Not signed in: ${error.message}.`;
    document.body.dataset.state = 'auth';
    return;
  }
  $('status').textContent = error.message;
  $('status').className = 'error';
  document.body.dataset.state = 'error';
}

async function follow() {
  try {
    await poll();
    $('status').className = '';
  } catch (error) {
    fail(error);
    if (error instanceof AuthRequired) return;  // until a token is given
  }
  setTimeout(follow, POLL_MS);
}

async function start() {
  try {
    await loadAll();
    $('status').textContent = `updated ${new Date().toLocaleTimeString()}`;
    $('status').className = '';
    document.body.dataset.state = 'ready';
    setTimeout(follow, POLL_MS);
  } catch (error) {
    fail(error);
    if (!(error instanceof AuthRequired)) setTimeout(start, 5 * POLL_MS);  // the daemon may be back
  }
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  useToken($('token').value.trim());
  $('token-form').hidden = true;
  start();
});
takeTokenFromAddress();
start();
