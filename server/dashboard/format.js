// Numbers and labels as the page shows them.
export function micros(v) {
  if (v == null || !Number.isFinite(v)) return '–';
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

export function times(v) {
  return v == null || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`;
}

export function seconds(v) {
  if (v == null || !Number.isFinite(v)) return '–';
  return v >= 90 ? `${Math.round(v / 60)} min` : `${v.toFixed(v >= 10 ? 0 : 1)} s`;
}

export function count(v) {
  return v == null ? '–' : Number(v).toLocaleString('en');
}

// A workload named by a tune request: the generator and its sizes, the path, or the upload;
// a dense kernel's request names none: its problem is its shape.
export function workloadOfRequest(request, uploadNames) {
  if (!request?.workload && request?.problem) {
    return Object.entries(request.problem).map(([k, v]) => `${k}=${v}`).join(',');
  }
  const w = request?.workload ?? {};
  if (w.generator) {
    const sizes = Object.entries(w).filter(([k]) => k !== 'generator').map(([k, v]) => `${k}=${k === 'of' ? '…' : v}`);
    return `${w.generator}(${sizes.join(',')})`;
  }
  if (w.path) return w.path;
  if (w.upload) return uploadNames.get(w.upload) ?? w.upload;
  return '?';
}

// A report row's workload: its name, or the start of its signature when it has none.
export function workloadOfResult(row) {
  return row.workload || row.signature.slice(0, 12);
}

export function clock(iso) {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, '') : '–';
}

// A request's dtype as answers write it: "f32", or "input:accumulate:output".
export function dtypeText(d) {
  if (d == null) return '';
  return typeof d === 'string' ? d : [d.input, d.accumulate, d.output].join(':');
}
