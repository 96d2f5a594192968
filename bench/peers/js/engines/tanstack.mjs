// TanStack DB: local-only collections for t and u, one live query
// collection per view (compiled by TanStack DB to its differential
// dataflow, @tanstack/db-ivm). Changes go through collection.update; the
// live query is updated synchronously.
import {
  createCollection, localOnlyCollectionOptions, createLiveQueryCollection,
  eq, lt, count, sum, min, max, BTreeIndex,
} from '@tanstack/db';

const queries = {
  filter: (t) => (q) => q.from({ t }).where(({ t }) => lt(t.val, 100000))
    .select(({ t }) => ({ id: t.id, grp: t.grp, val: t.val })),
  groupby: (t) => (q) => q.from({ t }).groupBy(({ t }) => t.grp)
    .select(({ t }) => ({ grp: t.grp, n: count(t.id), total: sum(t.val), lo: min(t.val), hi: max(t.val) })),
  groupcount: (t) => (q) => q.from({ t }).groupBy(({ t }) => t.grp)
    .select(({ t }) => ({ grp: t.grp, n: count(t.id) })),
  join: (t, u) => (q) => q.from({ t }).join({ u }, ({ t, u }) => eq(t.k, u.id), 'inner')
    .select(({ t, u }) => ({ id: t.id, val: t.val, name: u.name })),
  topk: (t) => (q) => q.from({ t }).where(({ t }) => lt(t.grp, 500))
    .orderBy(({ t }) => t.val, 'desc').orderBy(({ t }) => t.id, 'asc').limit(50)
    .select(({ t }) => ({ id: t.id, grp: t.grp, val: t.val })),
};

const columns = {
  filter: ['id', 'grp', 'val'], groupby: ['grp', 'n', 'total', 'lo', 'hi'], groupcount: ['grp', 'n'],
  join: ['id', 'val', 'name'], topk: ['id', 'grp', 'val'],
};

let seq = 0;

export function make() {
  let t, u, live, d;
  return {
    name: 'TanStack DB',
    load(data) {
      d = data;
      const rows = new Array(d.n);
      for (let id = 1; id <= d.n; id++) rows[id - 1] = d.tRow(id);
      const urows = [];
      for (let id = 1; id <= d.nu; id++) urows.push(d.uRow(id));
      seq++;
      t = createCollection(localOnlyCollectionOptions({ id: 't' + seq, getKey: (r) => r.id, initialData: rows }));
      u = createCollection(localOnlyCollectionOptions({ id: 'u' + seq, getKey: (r) => r.id, initialData: urows }));
      // The indexes TanStack DB asks for: join key, ordering and filter columns.
      t.createIndex((r) => r.k, { indexType: BTreeIndex });
      t.createIndex((r) => r.val, { indexType: BTreeIndex });
      t.createIndex((r) => r.grp, { indexType: BTreeIndex });
    },
    createView(v) {
      live = createLiveQueryCollection({ startSync: true, query: queries[v.name](t, u) });
      if (live.status !== 'ready') throw new Error('live query not ready synchronously: ' + live.status);
    },
    apply(_v, batch) {
      if (batch.length === 1) {
        const c = batch[0];
        t.update(c.id, (r) => { r.grp = c.neu.grp; r.val = c.neu.val; });
        return;
      }
      const cs = collapseLast(batch);
      t.update(cs.map((c) => c.id), (rs) => { rs.forEach((r, i) => { r.grp = cs[i].neu.grp; r.val = cs[i].neu.val; }); });
    },
    answer(v) {
      const cols = columns[v.name];
      return live.toArray.map((r) => cols.map((c) => String(r[c])));
    },
    dropView() { live.cleanup(); live = null; },
    close() {},
  };
}

function collapseLast(batch) {
  const m = new Map();
  for (const c of batch) m.set(c.id, c);
  return [...m.values()];
}
