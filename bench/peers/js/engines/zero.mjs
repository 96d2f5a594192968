// Zero (@rocicorp/zero): its query engine run in-process through the
// zqlite export: tables in an in-memory SQLite database, one materialized
// view per query, changes pushed into the table source (which writes them
// to SQLite and through the view's operators). Zero's query language has
// no GROUP BY or aggregates; its join is a relationship (related()), each
// t row carrying its u row.
import { createSchema, table, number, string, relationships, createBuilder } from '@rocicorp/zero';
import { Database, QueryDelegate } from '@rocicorp/zero/zqlite';
import { LogContext } from '@rocicorp/logger';
import { Unsupported } from '../workload.mjs';

const tSchema = table('t').columns({ id: number(), grp: number(), k: number(), val: number(), pad: string() }).primaryKey('id');
const uSchema = table('u').columns({ id: number(), name: string(), region: string() }).primaryKey('id');
const rels = relationships(tSchema, ({ one }) => ({ u: one({ sourceField: ['k'], destField: ['id'], destSchema: uSchema }) }));
const schema = createSchema({ tables: [tSchema, uSchema], relationships: [rels] });

export function make() {
  const lc = new LogContext('error');
  let db, delegate, zql, src, view, d;
  return {
    name: 'Zero (zqlite)',
    load(data) {
      d = data;
      db = new Database(lc, ':memory:');
      db.exec(`CREATE TABLE t (id INTEGER NOT NULL, grp INTEGER NOT NULL, k INTEGER NOT NULL, val INTEGER NOT NULL, pad TEXT NOT NULL);
               CREATE UNIQUE INDEX t_pk ON t (id);
               CREATE TABLE u (id INTEGER NOT NULL, name TEXT NOT NULL, region TEXT NOT NULL);
               CREATE UNIQUE INDEX u_pk ON u (id);`);
      db.transaction(() => {
        const ins = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?)');
        for (let id = 1; id <= d.n; id++) ins.run(id, d.grp[id], d.k(id), d.val[id], d.tRow(id).pad);
        const insU = db.prepare('INSERT INTO u VALUES (?, ?, ?)');
        for (let id = 1; id <= d.nu; id++) insU.run(id, `name-${id}`, `region-${id % 10}`);
      });
      delegate = new QueryDelegate(lc, db, schema);
      zql = createBuilder(schema);
      src = delegate.getSource('t');
    },
    createView(v) {
      let q;
      switch (v.name) {
        case 'filter': q = zql.t.where('val', '<', 100000); break;
        case 'join': q = zql.t.related('u'); break;
        case 'topk': q = zql.t.where('grp', '<', 500).orderBy('val', 'desc').orderBy('id', 'asc').limit(50); break;
        default: throw new Unsupported('no GROUP BY or aggregates in Zero\'s query language');
      }
      view = delegate.materialize(q);
    },
    apply(_v, batch) {
      delegate.batchViewUpdates(() => {
        for (const c of batch) {
          const old = d.tRow(c.id);
          old.grp = c.old.grp; old.val = c.old.val;
          const row = { ...old, grp: c.neu.grp, val: c.neu.val };
          for (const _ of src.push([2, row, old])) { /* drain the stream */ }
        }
      });
    },
    answer(v) {
      const rows = view.data;
      switch (v.name) {
        case 'join': return rows.map((r) => [String(r.id), String(r.val), r.u ? r.u.name : 'NULL']);
        default: return rows.map((r) => [String(r.id), String(r.grp), String(r.val)]);
      }
    },
    dropView() { view.destroy(); view = null; },
    close() { db.close(); },
  };
}
