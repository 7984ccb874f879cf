// One job: how its search converged, how well the model predicted its candidates, and why its
// answer is fast (bottleneck and sensitivity).
import { getJson } from './api.js';
import { accuracy, bars, clear, colours, convergence } from './charts.js';
import { dtypeText, micros, workloadOfRequest } from './format.js';

const $ = (id) => document.getElementById(id);
const elasticity = (v) => (v == null ? '–' : v.toFixed(3));

// Spearman's rank correlation: does the model order candidates as the GPU does?
function rankCorrelation(xs, ys) {
  const ranks = (v) => {
    const order = v.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
    const r = new Array(v.length);
    order.forEach(([, i], rank) => { r[i] = rank; });
    return r;
  };
  const [a, b] = [ranks(xs), ranks(ys)];
  const mean = (a.length - 1) / 2;
  let num = 0, da = 0, db = 0;
  for (let i = 0; i < a.length; ++i) {
    num += (a[i] - mean) * (b[i] - mean);
    da += (a[i] - mean) ** 2;
    db += (b[i] - mean) ** 2;
  }
  return da && db ? num / Math.sqrt(da * db) : null;
}

function showConvergence(job, candidates) {
  const measuredRun = candidates.some((c) => c.measurement);
  const times = candidates.map((c) => (measuredRun
    ? (c.measurement?.status === 'ok' ? c.measurement.median_us : null)
    : c.predicted_us));
  $('convergence-caption').textContent = measuredRun
    ? 'Convergence: each candidate measured, and the best so far'
    : 'Convergence: each candidate predicted (no GPU measured them), and the best so far';
  if (!times.some((t) => t != null)) {
    clear($('convergence-chart'));
    $('convergence-caption').textContent += ': none stored (the answer came from the store)';
    return;
  }
  convergence($('convergence-chart'), times, {
    yLabel: measuredRun ? 'measured µs' : 'predicted µs', vendorUs: job.progress.vendor_us ?? null,
  });
}

function showAccuracy(candidates) {
  const pairs = candidates
    .filter((c) => c.predicted_us > 0 && c.measurement?.status === 'ok' && c.measurement.median_us > 0)
    .map((c) => ({ predicted: c.predicted_us, measured: c.measurement.median_us }));
  if (pairs.length === 0) {
    clear($('accuracy-chart'));
    $('accuracy-note').textContent = `No measurements: ${candidates.length} candidates were predicted only ` +
      '(a model-only daemon has no GPU to time them).';
    return;
  }
  const errors = pairs.map((p) => Math.abs(p.measured / p.predicted - 1)).sort((a, b) => a - b);
  const rho = rankCorrelation(pairs.map((p) => p.predicted), pairs.map((p) => p.measured));
  $('accuracy-note').textContent = `${pairs.length} candidates measured; median error ` +
    `${(100 * errors[Math.floor(errors.length / 2)]).toFixed(0)}%` +
    (rho == null ? '' : `, rank correlation ${rho.toFixed(2)}`) + '.';
  accuracy($('accuracy-chart'), pairs);
}

function showSensitivity(job) {
  const answer = job.state === 'done' ? job.best : null;  // a running job's best is not yet an answer
  const s = answer?.sensitivity;
  if (!s?.sensitivity) {
    clear($('sensitivity-chart'));
    $('bottleneck').textContent = !answer
      ? 'The answer and its sensitivity come when the job is done.'
      : 'This answer has no sensitivity vector (predicted by the first cost model, not the emulator).';
    return;
  }
  const b = answer.bottleneck ?? s.bottleneck;
  $('bottleneck').textContent = `${answer.schedule ?? 'answer'}: bottleneck ${b.resource} (${b.kind})` +
    (s.bottleneck?.elasticity != null ? `, elasticity ${s.bottleneck.elasticity.toFixed(2)}` : '') +
    `; ${micros(answer.predicted_us)} µs predicted` +
    (answer.measured_us != null ? `, ${micros(answer.measured_us)} µs measured` : '') + '.';
  // The resources the time depends on most, most first.
  const entries = Object.entries(s.sensitivity)
    .map(([resource, e]) => [resource, e.latency ?? 0, e.gap ?? 0])
    .sort((x, y) => Math.max(Math.abs(y[1]), Math.abs(y[2])) - Math.max(Math.abs(x[1]), Math.abs(x[2])))
    .slice(0, 8);
  bars($('sensitivity-chart'), entries.map((e) => e[0]), [
    { label: 'latency elasticity', colour: colours.ktune, values: entries.map((e) => e[1]), format: elasticity },
    { label: 'gap elasticity', colour: colours.alt, values: entries.map((e) => e[2]), format: elasticity },
  ], { xLabel: 'resource', yLabel: 'elasticity of time' });
}

export async function showJob(id, uploadNames) {
  const [job, listed] = await Promise.all([getJson(`/v1/jobs/${id}`), getJson(`/v1/jobs/${id}/candidates`)]);
  $('job-title').textContent = `Job ${job.id}: ${job.request.kernel ?? '?'} ${dtypeText(job.request.dtype)} ` +
    `on ${workloadOfRequest(job.request, uploadNames)}, ${job.state}`;
  $('job-empty').hidden = true;
  $('job-figures').hidden = false;
  showConvergence(job, listed.candidates);
  showAccuracy(listed.candidates);
  showSensitivity(job);
  return job;
}
