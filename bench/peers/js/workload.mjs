// The workload of `deltaview bench`, the twin of bench/workload.go and
// bench/system.go: the same generator, data, changes, views and
// measurement loop, so that every figure is comparable with the Go side's.

export class Rand {
  constructor(seed) { this.a = seed >>> 0; }
  next() { // mulberry32
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  intN(n) { return this.next() % n; }
}

export const SEED = 20240607;

export const pad = (id) => 'padding-' + String(id).padStart(12, '0');
export const name = (id) => 'name-' + id;
export const region = (id) => 'region-' + (id % 10);

// Data holds t's mutable columns and, as changes are applied, the oracle.
export class Data {
  constructor(n) {
    this.n = n;
    this.grp = new Int32Array(n + 1);
    this.val = new Int32Array(n + 1);
    this.rand = new Rand(SEED);
    for (let id = 1; id <= n; id++) {
      this.grp[id] = id % 1000;
      this.val[id] = this.rand.intN(1000000);
    }
  }
  get nu() { return Math.floor(this.n / 10); }
  k(id) { return 1 + (id % Math.floor(this.n / 10)); }
  tRow(id) { return { id, grp: this.grp[id], k: this.k(id), val: this.val[id], pad: pad(id) }; }
  uRow(id) { return { id, name: name(id), region: region(id) }; }
  next() {
    const id = 1 + this.rand.intN(this.n);
    const c = { id, old: { grp: this.grp[id], val: this.val[id] }, neu: { grp: this.rand.intN(1000), val: this.rand.intN(1000000) } };
    this.grp[id] = c.neu.grp;
    this.val[id] = c.neu.val;
    return c;
  }
  batch(n) { const out = new Array(n); for (let i = 0; i < n; i++) out[i] = this.next(); return out; }

  // expected recomputes view v: rows as arrays of strings.
  expected(v) {
    const out = [];
    const s = String;
    switch (v.name) {
      case 'filter':
        for (let id = 1; id <= this.n; id++) if (this.val[id] < 100000) out.push([s(id), s(this.grp[id]), s(this.val[id])]);
        break;
      case 'groupby': case 'groupcount': {
        const g = new Map();
        for (let id = 1; id <= this.n; id++) {
          const key = this.grp[id], x = this.val[id];
          let a = g.get(key);
          if (!a) g.set(key, a = { n: 0, sum: 0, lo: x, hi: x });
          a.n++; a.sum += x; a.lo = Math.min(a.lo, x); a.hi = Math.max(a.hi, x);
        }
        for (const [key, a] of g) out.push(v.name === 'groupcount' ? [s(key), s(a.n)] : [s(key), s(a.n), s(a.sum), s(a.lo), s(a.hi)]);
        break;
      }
      case 'join':
        for (let id = 1; id <= this.n; id++) out.push([s(id), s(this.val[id]), name(this.k(id))]);
        break;
      case 'topk': {
        const ids = [];
        for (let id = 1; id <= this.n; id++) if (this.grp[id] < 500) ids.push(id);
        ids.sort((a, b) => (this.val[b] - this.val[a]) || (a - b));
        for (const id of ids.slice(0, 50)) out.push([s(id), s(this.grp[id]), s(this.val[id])]);
        break;
      }
    }
    return out;
  }
}

export const VIEWS = [
  { name: 'filter' },
  { name: 'groupby' },
  { name: 'groupcount' },
  { name: 'join' },
  { name: 'topk', ordered: true },
];

export function compare(v, got, want) {
  const g = got.map((r) => r.join('|'));
  const w = want.map((r) => r.join('|'));
  if (!v.ordered) { g.sort(); w.sort(); }
  for (let i = 0; i < Math.min(g.length, w.length); i++) {
    if (g[i] !== w[i]) return `${v.name}: row ${i + 1} is (${g[i]}), want (${w[i]})`;
  }
  if (g.length !== w.length) return `${v.name}: ${g.length} rows, want ${w.length}`;
  return null;
}

export class Unsupported extends Error {}

// collapse keeps the last change of each row of a batch, for engines whose
// batch API takes one new row per key.
export function collapse(batch) {
  const m = new Map();
  for (const c of batch) {
    const prev = m.get(c.id);
    m.set(c.id, prev ? { id: c.id, old: prev.old, neu: c.neu } : c);
  }
  return [...m.values()];
}

// MEMORY_METHOD is how a view's memory is counted, as bench/system.go
// counts the Go heap: the V8 heap's used bytes after forced collections,
// read once the data is loaded and just before the view is created (so
// the baseline holds the tables and whatever earlier views left), and
// again right after the creation.
export const MEMORY_METHOD = 'V8 heap delta (after GC)';

// heapAfterGC returns the V8 heap's used bytes after full collections,
// repeated until a pass frees nothing more (what one pass frees can let
// go of more only in the next, through weak references and finalizers),
// or null when node runs without --expose-gc and the heap cannot be
// collected before it is read.
export function heapAfterGC() {
  if (typeof globalThis.gc !== 'function') return null;
  let used = Infinity;
  for (let i = 0; i < 8; i++) {
    globalThis.gc();
    const u = process.memoryUsage().heapUsed;
    if (u >= used) return u;
    used = u;
  }
  return used;
}

const kB = (b) => (b >= 1 << 20 ? (b / (1 << 20)).toFixed(1) + ' MB' : Math.round(b / 1024) + ' kB');

// memory sets cell c's memory from the heap read before and after the
// view's creation. A figure that cannot stand for the view's size (no
// forced collections, or a heap that shrank across the creation because
// more was freed than the view added) is not reported as a number: the
// cell is marked unmeasurable and memory_method says why.
export function memory(c, before, after) {
  c.memory_bytes = 0;
  c.memory_method = MEMORY_METHOD;
  if (before === null || after === null) {
    c.memory_unmeasurable = true;
    c.memory_method = MEMORY_METHOD + ': unmeasurable, node ran without --expose-gc, so the heap could not be collected before it was read';
  } else if (after < before) {
    c.memory_unmeasurable = true;
    c.memory_method = `${MEMORY_METHOD}: unmeasurable, the heap shrank by ${kB(before - after)} across the view's creation (more was freed than the view added)`;
  } else {
    c.memory_bytes = after - before;
  }
}

const nowNs = () => process.hrtime.bigint();
const usOf = (ns) => Number(ns) / 1e3;

// As bench/system.go's windowDone: a window of batches holds at least
// MIN_CHANGES_PER_ROW·N changes when the engine is fast enough to apply
// them in MAX_WINDOW_FACTOR windows.
const MIN_CHANGES_PER_ROW = 3, MAX_WINDOW_FACTOR = 4;
function windowDone(n, window, total, changes) {
  if (total < window) return false;
  const want = MIN_CHANGES_PER_ROW * n;
  const most = BigInt(MAX_WINDOW_FACTOR) * window;
  if (changes >= want || total >= most) return true;
  return Number(total) * want / changes > Number(most);
}

// runView measures one view on a loaded engine, as bench/system.go does.
export function runView(engine, d, v, opt) {
  const c = {
    system: engine.name, view: v.name, n: d.n, status: 'ok', note: '',
    cold_start_ms: 0, latency_median_us: 0, latency_p99_us: 0, latency_samples: 0,
    throughput: [], memory_bytes: 0, memory_method: MEMORY_METHOD, checks: 0,
  };
  const fail = (status, err) => {
    c.status = err instanceof Unsupported ? 'unsupported' : status;
    c.note = err instanceof Error ? err.message : String(err);
    return c;
  };
  const h0 = heapAfterGC();
  let t = nowNs();
  try { engine.createView(v); } catch (e) { return fail('error', e); }
  c.cold_start_ms = Number(nowNs() - t) / 1e6;
  memory(c, h0, heapAfterGC());
  try {
    let err = compare(v, engine.answer(v), d.expected(v));
    if (err) return fail('invalid', 'after creation: ' + err);
    c.checks++;
    for (let i = 0; i < 3; i++) engine.apply(v, d.batch(1));
    const lat = [];
    const begin = nowNs();
    const budget = BigInt(Math.round(opt.latencyMs * 1e6));
    while (lat.length < opt.latencyMax && (lat.length < opt.latencyMin || nowNs() - begin < budget)) {
      const b = d.batch(1);
      t = nowNs();
      engine.apply(v, b);
      lat.push(nowNs() - t);
    }
    lat.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    c.latency_samples = lat.length;
    c.latency_median_us = usOf(lat[lat.length >> 1]);
    c.latency_p99_us = usOf(lat[Math.min(lat.length - 1, Math.floor(lat.length * 99 / 100))]);
    let perChange = Number(lat[lat.length >> 1]);
    for (const size of opt.batches) {
      const th = { batch: size };
      const projected = perChange * size / 1e9;
      if (size > 1 && projected > opt.maxBatchSec) {
        th.note = `not run: one batch projected at ${projected.toFixed(0)} s`;
        c.throughput.push(th);
        continue;
      }
      // One batch untimed, as the Go harness does (bench/system.go).
      if (size > 1) engine.apply(v, d.batch(size));
      let total = 0n, batches = 0;
      // As the Go harness's Options.batchWindow: batchMs per 250,000 rows.
      const bt = BigInt(Math.round(opt.batchMs * Math.max(1, Math.floor(d.n / 250000)) * 1e6));
      while (batches === 0 || !windowDone(d.n, bt, total, batches * size)) {
        const b = d.batch(size);
        t = nowNs();
        engine.apply(v, b);
        total += nowNs() - t;
        batches++;
      }
      th.changes_per_sec = batches * size / (Number(total) / 1e9);
      th.batches = batches;
      th.seconds = Number(total) / 1e9;
      perChange = Number(total) / (batches * size);
      c.throughput.push(th);
    }
    err = compare(v, engine.answer(v), d.expected(v));
    if (err) return fail('invalid', 'at the end: ' + err);
    c.checks++;
  } catch (e) {
    return fail('error', e);
  } finally {
    try { engine.dropView(v); } catch { /* the next view starts anyway */ }
  }
  return c;
}

// preflight checks an engine's answer against the recomputation after
// every one of a few changes, at a small N, before anything is timed.
export function preflight(makeEngine, n, changes) {
  const problems = new Map();
  const d = new Data(n);
  const engine = makeEngine();
  engine.load(d);
  for (const v of VIEWS) {
    try {
      engine.createView(v);
    } catch (e) {
      problems.set(v.name, e);
      continue;
    }
    try {
      let err = compare(v, engine.answer(v), d.expected(v));
      for (let i = 0; i < changes && !err; i++) {
        engine.apply(v, d.batch(i % 10 === 9 ? 25 : 1));
        err = compare(v, engine.answer(v), d.expected(v));
      }
      if (err) problems.set(v.name, new Error('preflight at N=' + n + ': ' + err));
    } catch (e) {
      problems.set(v.name, e);
    }
    engine.dropView(v);
  }
  engine.close?.();
  return problems;
}
