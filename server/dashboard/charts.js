// The page's charts, drawn by uPlot (the global from uPlot.iife.min.js, vendored in uplot/).
// Each function replaces whatever chart its element held.
import { micros } from './format.js';

export const colours = { ktune: '#3566c6', vendor: '#e07b28', best: '#2e9a59', guide: '#8a93a3', alt: '#b0499a' };

const charts = new Map();  // element id -> its uPlot

function place(element, options, data) {
  charts.get(element.id)?.destroy();
  element.replaceChildren();
  const chart = new uPlot({ width: Math.max(element.clientWidth, 320), height: 260, ...options }, data, element);
  charts.set(element.id, chart);
  return chart;
}

export function clear(element) {
  charts.get(element.id)?.destroy();
  charts.delete(element.id);
  element.replaceChildren();
}

// Charts follow their element's width when the window changes.
addEventListener('resize', () => {
  for (const [id, chart] of charts) {
    const element = document.getElementById(id);
    if (element) chart.setSize({ width: Math.max(element.clientWidth, 320), height: 260 });
  }
});

// uPlot leaves the ticks between powers of ten it does not label as null.
function logAxis(label) {
  return { label, values: (u, ticks) => ticks.map((v) => (v == null ? '' : micros(v))) };
}

// Times spanning a decade or more read best on a log scale, closer ones on a linear one.
function spansDecade(values) {
  const positive = values.filter((v) => v > 0);
  return positive.length > 1 && Math.max(...positive) / Math.min(...positive) >= 10;
}

function shorten(label) {
  return label.length > 20 ? `${label.slice(0, 19)}…` : label;
}

// Bars per category (a workload, a resource); one or two series side by side, each
// {label, colour, values, format} (format: how the legend writes a value). Bars of times
// (`times`) go on a log scale when they span a decade; others start at zero.
export function bars(element, labels, series, { xLabel, yLabel, times = false }) {
  const xs = labels.map((_, i) => i);
  const align = series.length === 1 ? [0] : [-1, 1];
  const log = times && spansDecade(series.flatMap((s) => s.values));
  const fromZero = (u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1];
  return place(element, {
    scales: { x: { time: false, range: () => [-0.5, labels.length - 0.5] }, y: log ? { distr: 3 } : { range: fromZero } },
    axes: [
      { splits: () => xs, values: (u, ticks) => ticks.map((i) => shorten(labels[i] ?? '')), rotate: labels.length > 6 ? -30 : 0,
        size: labels.length > 6 ? 90 : 40 },
      log ? logAxis(yLabel) : { label: yLabel },
    ],
    series: [
      { label: xLabel, value: (u, i) => (i == null ? '' : labels[i]) },
      ...series.map((s, j) => ({
        label: s.label, stroke: s.colour, fill: `${s.colour}c0`, width: 1, points: { show: false }, value: (u, v) => s.format(v),
        paths: uPlot.paths.bars({ size: [0.7 / series.length, 64], align: align[j] }),
      })),
    ],
  }, [xs, ...series.map((s) => s.values)]);
}

// Each candidate's time in the order the search tried them, and the best so far.
export function convergence(element, times, { yLabel, vendorUs }) {
  const xs = times.map((_, i) => i + 1);
  let best = Infinity;
  const bestSoFar = times.map((t) => (t == null ? (best === Infinity ? null : best) : (best = Math.min(best, t))));
  const series = [
    { label: 'candidate' },
    { label: 'tried', stroke: colours.ktune, width: 0, paths: () => null, points: { show: true, size: 6, fill: colours.ktune },
      value: (u, v) => micros(v) },
    { label: 'best so far', stroke: colours.best, width: 2, paths: uPlot.paths.stepped({ align: 1 }), points: { show: false },
      value: (u, v) => micros(v) },
  ];
  const data = [xs, times, bestSoFar];
  if (vendorUs != null) {
    series.push({ label: 'vendor', stroke: colours.vendor, width: 1.5, dash: [6, 4], points: { show: false },
      value: (u, v) => micros(v) });
    data.push(xs.map(() => vendorUs));
  }
  const log = spansDecade([...times, vendorUs]);
  return place(element, {
    scales: { x: { time: false }, y: log ? { distr: 3 } : {} },
    axes: [{ label: 'candidates tried' }, log ? logAxis(yLabel) : { label: yLabel }],
    series,
  }, data);
}

// Measured against predicted time on equal ranges, with the line where they agree drawn across.
export function accuracy(element, pairs) {
  const sorted = [...pairs].sort((a, b) => a.predicted - b.predicted);
  const all = sorted.flatMap((p) => [p.predicted, p.measured]);
  const log = spansDecade(all);
  const [lo, hi] = [Math.min(...all), Math.max(...all)];
  const pad = (hi - lo) * 0.08 || lo * 0.1;
  const ends = log ? [lo / 1.25, hi * 1.25] : [Math.max(0, lo - pad), hi + pad];
  const scale = log ? { distr: 3, range: () => ends } : { range: () => ends };
  const xs = [ends[0], ...sorted.map((p) => p.predicted), ends[1]];
  const axis = (label) => (log ? logAxis(label) : { label });
  return place(element, {
    scales: { x: { time: false, ...scale }, y: scale },
    axes: [axis('predicted µs'), axis('measured µs')],
    series: [
      { label: 'predicted µs', value: (u, v) => micros(v) },
      { label: 'measured µs', stroke: colours.ktune, width: 0, paths: () => null,
        points: { show: true, size: 7, fill: colours.ktune }, value: (u, v) => micros(v) },
      { label: 'measured = predicted', stroke: colours.guide, width: 1, dash: [4, 4], points: { show: false } },
    ],
  }, [xs, [null, ...sorted.map((p) => p.measured), null], xs]);
}
