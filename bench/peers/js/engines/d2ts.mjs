// d2ts (@electric-sql/d2ts): a differential dataflow graph per view, built
// from its operators (filter, map, reduce, innerJoin, topK); every
// transaction is one version: the batch's retractions and assertions, then
// the frontier moves past it and the graph runs. The view's rows are the
// accumulated output.
import { D2, MultiSet, MessageType, filter, map, reduce, innerJoin, topK, output } from '@electric-sql/d2ts';

const row = (d, id, grp, val) => [id, grp, d.k(id), val];

function aggregate(vals, withAggs) {
  const w = new Map(); // the group's values may arrive unconsolidated
  for (const [x, m] of vals) w.set(x, (w.get(x) ?? 0) + m);
  let n = 0, sum = 0, lo = Infinity, hi = -Infinity;
  for (const [x, m] of w) {
    if (m === 0) continue;
    n += m; sum += x * m;
    lo = Math.min(lo, x); hi = Math.max(hi, x);
  }
  if (n === 0) return []; // the group is gone
  return [[withAggs ? [n, sum, lo, hi] : [n], 1]];
}

const pipelines = {
  filter: (t) => t.pipe(filter((r) => r[3] < 100000), map((r) => [r[0], r[1], r[3]])),
  groupby: (t) => t.pipe(map((r) => [r[1], r[3]]), reduce((vals) => aggregate(vals, true)), map(([g, a]) => [g, ...a])),
  groupcount: (t) => t.pipe(map((r) => [r[1], r[3]]), reduce((vals) => aggregate(vals, false)), map(([g, a]) => [g, ...a])),
  join: (t, u) => t.pipe(map((r) => [r[2], [r[0], r[3]]]), innerJoin(u.pipe(map((x) => [x[0], x[1]]))),
    map(([, [[id, val], name]]) => [id, val, name])),
  topk: (t) => t.pipe(filter((r) => r[1] < 500), map((r) => ['all', [r[0], r[1], r[3]]]),
    topK((a, b) => (b[2] - a[2]) || (a[0] - b[0]), { limit: 50 }), map(([, r]) => r)),
};

export function make() {
  let d, graph, tIn, uIn, version, acc;
  return {
    name: 'd2ts',
    load(data) { d = data; },
    createView(v) {
      graph = new D2({ initialFrontier: 0 });
      tIn = graph.newInput();
      uIn = graph.newInput();
      acc = new Map();
      pipelines[v.name](tIn, uIn).pipe(output((msg) => {
        if (msg.type !== MessageType.DATA) return;
        for (const [r, m] of msg.data.collection.getInner()) {
          const key = JSON.stringify(r);
          const w = (acc.get(key) ?? 0) + m;
          if (w === 0) acc.delete(key); else acc.set(key, w);
        }
      }));
      graph.finalize();
      const ts = [];
      for (let id = 1; id <= d.n; id++) ts.push([row(d, id, d.grp[id], d.val[id]), 1]);
      const us = [];
      for (let id = 1; id <= d.nu; id++) us.push([[id, `name-${id}`], 1]);
      version = 0;
      tIn.sendData(0, new MultiSet(ts));
      uIn.sendData(0, new MultiSet(us));
      this.step();
    },
    step() {
      version++;
      tIn.sendFrontier(version);
      uIn.sendFrontier(version);
      graph.run();
    },
    apply(_v, batch) {
      const ch = [];
      for (const c of batch) {
        ch.push([row(d, c.id, c.old.grp, c.old.val), -1]);
        ch.push([row(d, c.id, c.neu.grp, c.neu.val), 1]);
      }
      tIn.sendData(version, new MultiSet(ch));
      this.step();
    },
    answer(v) {
      const out = [];
      for (const [key, w] of acc) {
        if (w !== 1) throw new Error(`${v.name}: row ${key} has weight ${w}`);
        out.push(JSON.parse(key).map(String));
      }
      if (v.ordered) out.sort((a, b) => (Number(b[2]) - Number(a[2])) || (Number(a[0]) - Number(b[0])));
      return out;
    },
    // Every reference to the graph goes, so that it is garbage before the
    // next view is created (and measured).
    dropView() { graph = tIn = uIn = acc = null; },
    close() {},
  };
}
