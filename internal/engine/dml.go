package engine

import (
	"slices"
	"strconv"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

func (e *Engine) execInsert(ins *sql.Insert) (Result, error) {
	if ins.View != nil {
		return e.execViewInsert(ins)
	}
	if ins.Auto != nil && ins.Auto.Instead != nil {
		return e.execInsteadInsert(ins)
	}
	t, err := e.writable(ins.Table, "insert into")
	if err != nil {
		return Result{}, err
	}
	gen := e.catalogGen // for follow
	defer e.setWithin(ins.Table, ins.Partition)()
	upsert := ins.OnConflict != nil && !ins.OnConflict.DoNothing
	// The arbiters are found before anything runs, as PostgreSQL infers
	// them at parse analysis: a target no index matches fails before a
	// trigger fires or a default draws from its sequence.
	var arbiters []*uniqueIndex
	var exclArbiter *exclusion // ON CONFLICT ON CONSTRAINT naming an EXCLUDE constraint
	if oc := ins.OnConflict; oc != nil {
		if exclArbiter = t.exclusionNamed(oc.Constraint); exclArbiter != nil && oc.Constraint != "" {
			if !oc.DoNothing {
				return Result{}, pgerr.New(pgerr.WrongObjectType, "ON CONFLICT DO UPDATE not supported with exclusion constraints")
			}
		} else if arbiters, err = t.arbiters(oc); err != nil {
			return Result{}, err
		}
	}
	tf := e.fireFor(t)
	if tf != nil {
		if err := tf.beforeStatement(sql.TriggerInsert); err != nil {
			return Result{}, err
		}
		if upsert {
			tf.set = ins.OnConflict.SetCols
			if err := tf.beforeStatement(sql.TriggerUpdate); err != nil {
				return Result{}, err
			}
		}
	}
	mark := len(e.tx.log)
	defer e.beginQuery()()
	stream := streamOf(ins.Source)
	rows, err := stream.rows(e.queryBudget(e.dmlSource()))
	if err != nil {
		return Result{}, err
	}
	if oc := ins.OnConflict; oc != nil {
		if len(rows) > 0 {
			if exclArbiter == nil {
				if err := t.deferrableArbiter(arbiters); err != nil {
					return Result{}, err
				}
			}
			if err := t.deferrableExclusionArbiter(exclArbiter, arbiters == nil && oc.Constraint == ""); err != nil {
				return Result{}, err
			}
		}
	}
	res := Result{Columns: ins.RetCols, HasRows: len(ins.Returning) > 0}
	ret := returner{plan: ins.RetPlan, exprs: ins.Returning, view: ins.Auto, sys: ins.RetSystem}
	touched := map[uint64]bool{} // rows this statement inserted or updated
	written := e.changed(t)      // rows the other parts of its statement changed
	checks := rowChecker{c: ins.Checks}
	// A function the statement calls may rename the table (a trigger, a
	// RETURNING item): the later rows go to it under its new name.
	follow := func() error {
		if !e.follow(&gen, &t, tf) || ins.OnConflict == nil {
			return nil
		}
		var err error
		if exclArbiter = t.exclusionNamed(ins.OnConflict.Constraint); exclArbiter == nil || ins.OnConflict.Constraint == "" {
			arbiters, err = t.arbiters(ins.OnConflict)
		}
		return err
	}
	n := 0
	for i, row := range rows {
		if err := e.interruptPoint(); err != nil {
			return Result{}, err
		}
		if err := follow(); err != nil {
			return Result{}, err
		}
		if row, err = stream.row(i, row); err != nil {
			return Result{}, err
		}
		if tf != nil {
			var ok bool
			if row, ok, err = tf.beforeRow(sql.TriggerInsert, nil, row); err != nil {
				return Result{}, err
			} else if !ok {
				continue
			}
			if err := follow(); err != nil {
				return Result{}, err
			}
		}
		// Row-level security's checks come before the constraints.
		if err := checks.rowOf(t, row); err != nil {
			return Result{}, err
		}
		if oc := ins.OnConflict; oc != nil {
			// PostgreSQL checks NOT NULL and CHECK on the proposed row
			// (routed to its partition first) before it looks for a
			// conflict.
			if t.def.PartitionBy != nil {
				if err := e.partitionCheck(t, nil, row); err != nil {
					return Result{}, err
				}
			} else if err := t.check(row); err != nil {
				return Result{}, err
			}
			var id uint64
			var found bool
			switch {
			case exclArbiter != nil:
				if found, err = t.excluded(row, exclArbiter.x.Name); err != nil {
					return Result{}, err
				}
			case arbiters != nil:
				for _, a := range arbiters {
					if id, found = a.lookup(row); found {
						break
					}
				}
			default:
				_, id, found = t.conflict(row)
				if !found && t.excl != nil {
					// Without a target, DO NOTHING skips a row that an
					// EXCLUDE constraint refuses too.
					if found, err = t.excluded(row, ""); err != nil {
						return Result{}, err
					}
				}
			}
			if found {
				if oc.DoNothing {
					continue
				}
				if touched[id] || written[id] {
					return Result{}, pgerr.New(pgerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
						WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
				}
				old, _ := t.rows.Get(id)
				both := append(slices.Clone(old), row...)
				var newRow value.Row
				if oc.Rows != nil {
					var ok bool
					if newRow, ok, err = e.conflictRow(oc, both, mark); err != nil {
						return Result{}, err
					} else if !ok {
						continue
					}
				} else {
					if oc.Where != nil {
						v, err := oc.Where.Eval(both)
						if err != nil {
							return Result{}, err
						}
						if v.IsNull() || !v.Bool() {
							continue
						}
					}
					if newRow, err = assign(old, oc.Set, both); err != nil {
						return Result{}, err
					}
				}
				// Row-level security's check of the existing row comes
				// after WHERE, as PostgreSQL's.
				if !ins.ConflictChecks.Empty() {
					if err := sql.CheckRow(ins.ConflictChecks.Exprs, old); err != nil {
						return Result{}, err
					}
				}
				if tf != nil {
					var ok bool
					if newRow, ok, err = tf.beforeRow(sql.TriggerUpdate, old, newRow); err != nil {
						return Result{}, err
					} else if !ok {
						continue
					}
					if err := follow(); err != nil {
						return Result{}, err
					}
				}
				if !ins.UpdateChecks.Empty() {
					if err := t.generate(newRow); err != nil {
						return Result{}, err
					}
					if err := sql.CheckRow(ins.UpdateChecks.Exprs, newRow); err != nil {
						return Result{}, err
					}
				}
				if t.def.PartitionBy != nil {
					if err := samePartition(t, old, newRow); err != nil {
						return Result{}, err
					}
				}
				newID, err := e.updateRow(t, id, old, newRow)
				if err != nil {
					return Result{}, err
				}
				if err := e.autoCheck(ins.Auto, newRow, mark); err != nil {
					return Result{}, err
				}
				if tf != nil {
					if err := tf.afterRow(sql.TriggerUpdate, old, newRow); err != nil {
						return Result{}, err
					}
				}
				touched[newID] = true
				if err := ret.addID(e, &res, newRow, newID, wroteUpsert); err != nil {
					return Result{}, err
				}
				n++
				continue
			}
		}
		id, err := e.insertRow(t, row)
		if err != nil {
			return Result{}, err
		}
		if err := e.autoCheck(ins.Auto, row, mark); err != nil {
			return Result{}, err
		}
		if tf != nil {
			if err := tf.afterRow(sql.TriggerInsert, nil, row); err != nil {
				return Result{}, err
			}
		}
		touched[id] = true
		if err := ret.addID(e, &res, row, id, wroteInsert); err != nil {
			return Result{}, err
		}
		n++
	}
	if tf != nil {
		if upsert {
			if err := tf.afterStatement(sql.TriggerUpdate); err != nil {
				return Result{}, err
			}
		}
		if err := tf.afterStatement(sql.TriggerInsert); err != nil {
			return Result{}, err
		}
		if err := tf.fire(); err != nil {
			return Result{}, err
		}
	}
	if err := checks.finish(e, mark); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("INSERT 0 ", n)
	return res, nil
}

// writable returns the stored table a DML statement writes. The binder
// sees system views as tables, so they are refused here.
func (e *Engine) writable(name, verb string) (*table, error) {
	t, ok := e.tables[name]
	if !ok {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot %s system view %q", verb, name).
			WithHint("system views are computed from the engine's own figures and are read-only")
	}
	if t.def.ChangeStream {
		return nil, changeStreamDML(t, verb)
	}
	return t, nil
}

func sameCols(a, b []int) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// assign returns a copy of old with the SET expressions, evaluated over
// env, applied.
func assign(old value.Row, set []sql.Assign, env value.Row) (value.Row, error) {
	out := slices.Clone(old)
	for _, a := range set {
		v, err := a.Expr.Eval(env)
		if err != nil {
			return nil, err
		}
		out[a.Col] = v
	}
	return out, nil
}

func returning(res *Result, exprs []expr.Expr, row value.Row) error {
	if len(exprs) == 0 {
		return nil
	}
	out := make(value.Row, len(exprs))
	for i, x := range exprs {
		v, err := x.Eval(row)
		if err != nil {
			return err
		}
		out[i] = v
	}
	res.Rows = append(res.Rows, out)
	return nil
}

// updateRow replaces old, the row with id, by newRow, in place: the row
// keeps its id, and the log records the old row's retraction and the new
// one's assertion under it.
func (e *Engine) updateRow(t *table, id uint64, old, newRow value.Row) (uint64, error) {
	t = e.current(t)
	if t.def.PartitionBy != nil {
		if err := e.partitionCheck(t, old, newRow); err != nil {
			return 0, err
		}
	} else if err := t.checkRow(old, newRow); err != nil {
		return 0, err
	}
	if u, dup := t.conflictExcept(old, newRow, id, 0); dup {
		return 0, uniqueViolation(u, t, newRow)
	}
	if t.excl != nil {
		if err := t.checkExclusions(newRow, id, true, len(e.tx.log)); err != nil {
			return 0, err
		}
	}
	e.rewrote(t, id)
	t.replace(id, old, newRow)
	t.stat.upd++
	// Both rows are in the cache now, and rarely when the commit of a
	// big batch consolidates them.
	e.tx.log = append(e.tx.log, change{t: t, id: id, row: old, w: -1, pre: zset.PrefixOf(old)},
		change{t: t, id: id, row: newRow, w: 1, pre: zset.PrefixOf(newRow)})
	return id, nil
}

// replaceRow is updateRow for a row found by its primary key, which
// newRow keeps (Session.Replace): old is not read here, its bytes are
// owed to the table until the commit reads it (table.replaceByKey), and
// its prefix is taken then.
func (e *Engine) replaceRow(t *table, id uint64, old, newRow value.Row) error {
	if t.def.PartitionBy != nil {
		if err := e.partitionCheck(t, nil, newRow); err != nil {
			return err
		}
	} else if err := t.check(newRow); err != nil {
		return err
	}
	if u, dup := t.conflictExcept(old, newRow, id, 1); dup {
		return uniqueViolation(u, t, newRow)
	}
	if t.excl != nil {
		if err := t.checkExclusions(newRow, id, true, len(e.tx.log)); err != nil {
			return err
		}
	}
	t.replaceByKey(id, old, newRow)
	e.tx.log = append(e.tx.log, change{t: t, id: id, row: old, w: -1, owes: true},
		change{t: t, id: id, row: newRow, w: 1, pre: zset.PrefixOf(newRow)})
	return nil
}

// target is a row a DML statement acts on, with the FROM/USING row it
// matched (nil without FROM).
type target struct {
	id  uint64
	row value.Row
	env value.Row
}

// targets finds the rows of t that where (over the row, followed by a row
// of from when given) accepts. With from, the first matching from row is
// used, as PostgreSQL uses an arbitrary one.
func (e *Engine) targets(t *table, from plan.Node, where expr.Expr) ([]target, error) {
	var fromRows []value.Row
	if from != nil {
		var err error
		if fromRows, err = exec.Run(from, e.queryBudget(e.dmlSource())); err != nil {
			return nil, err
		}
	}
	var out []target
	if from == nil {
		found, usable, err := keyTarget(t, where)
		if err != nil {
			return nil, err
		}
		if usable {
			t.stat.fetched(int64(len(found)))
			// Filtered in place: found is this call's own.
			out = found[:0]
			for _, tg := range found {
				ok, err := accepts(where, tg.row)
				if err != nil {
					return nil, err
				}
				if ok {
					out = append(out, tg)
				}
			}
			return out, nil
		}
	}
	var err error
	n := int64(0)
	defer func() { t.stat.scanned(n) }()
	t.scan(func(id uint64, row value.Row) bool {
		n++
		if err = e.interruptPoint(); err != nil {
			return false
		}
		if from == nil {
			ok, e2 := accepts(where, row)
			if e2 != nil {
				err = e2
				return false
			}
			if ok {
				out = append(out, target{id: id, row: row, env: row})
			}
			return true
		}
		for _, fr := range fromRows {
			if err = e.interruptPoint(); err != nil {
				return false
			}
			env := append(slices.Clone(row), fr...)
			ok, e2 := accepts(where, env)
			if e2 != nil {
				err = e2
				return false
			}
			if ok {
				out = append(out, target{id: id, row: row, env: env})
				break
			}
		}
		return true
	})
	return out, err
}

func accepts(where expr.Expr, row value.Row) (bool, error) {
	if where == nil {
		return true, nil
	}
	v, err := where.Eval(row)
	if err != nil {
		return false, err
	}
	return !v.IsNull() && v.Bool(), nil
}

func (e *Engine) execUpdate(up *sql.Update) (Result, error) {
	if len(up.Inherited) > 0 {
		return e.execUpdateInherited(up)
	}
	if up.View != nil {
		return e.execViewUpdate(up)
	}
	t, err := e.writable(up.Table, "update")
	if err != nil {
		return Result{}, err
	}
	gen := e.catalogGen // for follow
	defer e.setWithin(up.Table, up.Partition)()
	tf := e.fireFor(t)
	if tf != nil {
		tf.set = up.SetCols
		if err := tf.beforeStatement(sql.TriggerUpdate); err != nil {
			return Result{}, err
		}
	}
	if up.Rows != nil {
		return e.execUpdateRows(t, up, tf)
	}
	mark := len(e.tx.log)
	defer e.beginQuery()()
	ts, err := e.targets(t, up.From, up.Where)
	if err != nil {
		return Result{}, err
	}
	if up.From == nil {
		heapOrderTargets(t, ts, up.Where)
	}
	ts = e.skipChanged(t, ts)
	res := Result{Columns: up.RetCols, HasRows: len(up.Returning) > 0}
	ret := returner{plan: up.RetPlan, exprs: up.Returning, sys: up.RetSystem}
	checks := rowChecker{c: up.Checks}
	// Compute every new row before changing any, so that SET expressions
	// see the rows as they were; but a SET calling a user function is
	// computed as its row is written, so that a volatile function sees
	// the rows changed before, as PostgreSQL's (funcsnapshot.go).
	perRow := slices.ContainsFunc(up.Set, func(a sql.Assign) bool { return callsTableRoutine(a.Expr) })
	newRows := make([]value.Row, len(ts))
	for i, tg := range ts {
		if perRow {
			break
		}
		if err := e.interruptPoint(); err != nil {
			return Result{}, err
		}
		if newRows[i], err = assign(tg.row, up.Set, tg.env); err != nil {
			return Result{}, err
		}
	}
	n := 0
	for i, tg := range ts {
		if err := e.interruptPoint(); err != nil {
			return Result{}, err
		}
		// A function the statement calls may rename the table.
		e.follow(&gen, &t, tf)
		if perRow {
			if newRows[i], err = assign(tg.row, up.Set, tg.env); err != nil {
				return Result{}, err
			}
		}
		old, newRow := tg.row, newRows[i]
		if tf != nil {
			var ok bool
			if old, ok = t.rows.Get(tg.id); !ok {
				continue // a trigger deleted it
			}
			if newRow, ok, err = tf.beforeRow(sql.TriggerUpdate, old, newRow); err != nil {
				return Result{}, err
			} else if !ok {
				continue
			}
			e.follow(&gen, &t, tf)
		}
		if err := checks.rowOf(t, newRow); err != nil {
			return Result{}, err
		}
		if _, err := e.updateRow(t, tg.id, old, newRow); err != nil {
			return Result{}, err
		}
		if tf != nil {
			if err := tf.afterRow(sql.TriggerUpdate, old, newRow); err != nil {
				return Result{}, err
			}
		}
		n++
		env := newRow
		if up.From != nil {
			env = append(slices.Clone(newRow), tg.env[len(t.cols):]...)
		}
		if err := ret.addID(e, &res, env, tg.id, wroteUpdate); err != nil {
			return Result{}, err
		}
	}
	if err := tf.end(sql.TriggerUpdate); err != nil {
		return Result{}, err
	}
	if err := checks.finish(e, mark); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("UPDATE ", n)
	return res, nil
}

func (e *Engine) execDelete(del *sql.Delete) (Result, error) {
	if len(del.Inherited) > 0 {
		return e.execDeleteInherited(del)
	}
	if del.View != nil {
		return e.execViewDelete(del)
	}
	t, err := e.writable(del.Table, "delete from")
	if err != nil {
		return Result{}, err
	}
	gen := e.catalogGen // for follow
	defer e.setWithin(del.Table, del.Partition)()
	tf := e.fireFor(t)
	if tf != nil {
		if err := tf.beforeStatement(sql.TriggerDelete); err != nil {
			return Result{}, err
		}
	}
	if del.Rows != nil {
		return e.execDeleteRows(t, del, tf)
	}
	mark := len(e.tx.log)
	defer e.beginQuery()()
	lazy := lazyWhere(del.Where) // dml_delete_where.go
	var ts []target
	var using []value.Row
	if lazy {
		ts, using, err = e.deleteCandidatesUsing(t, del.Using, del.Where)
	} else {
		ts, err = e.targets(t, del.Using, del.Where)
	}
	if err != nil {
		return Result{}, err
	}
	if del.Using == nil {
		heapOrderTargets(t, ts, del.Where)
	}
	ts = e.skipChanged(t, ts)
	res := Result{Columns: del.RetCols, HasRows: len(del.Returning) > 0}
	ret := returner{plan: del.RetPlan, exprs: del.Returning, sys: del.RetSystem}
	n := 0
	for _, tg := range ts {
		e.follow(&gen, &t, tf) // a function the statement calls may rename the table
		if lazy {
			if ok, err := stillAccepted(t, &tg, using, del.Using != nil, del.Where); err != nil {
				return Result{}, err
			} else if !ok {
				continue
			}
		}
		if ok, err := e.deleteTarget(t, tf, tg.id, tg.row); err != nil {
			return Result{}, err
		} else if !ok {
			continue
		}
		n++
		if err := ret.addID(e, &res, tg.env, tg.id, wroteDelete); err != nil {
			return Result{}, err
		}
	}
	if err := tf.end(sql.TriggerDelete); err != nil {
		return Result{}, err
	}
	if err := ret.finish(e, &res, mark); err != nil {
		return Result{}, err
	}
	res.Tag = countTag("DELETE ", n)
	return res, nil
}

// deleteTarget deletes row id (old) of t as a DELETE statement does: at
// a cancellation point, through t's BEFORE and AFTER ROW triggers (tf, nil
// without), which may skip it (false).
func (e *Engine) deleteTarget(t *table, tf *trigFire, id uint64, old value.Row) (bool, error) {
	if err := e.interruptPoint(); err != nil {
		return false, err
	}
	if tf != nil {
		var ok bool
		var err error
		gen := e.catalogGen
		if old, ok, err = tf.deleting(id); err != nil || !ok {
			return false, err
		}
		e.follow(&gen, &t, tf)
	}
	e.deleteRow(t, id)
	if tf != nil {
		if err := tf.afterRow(sql.TriggerDelete, old, nil); err != nil {
			return false, err
		}
	}
	return true, nil
}

// countTag is a command tag with its row count, "UPDATE 1": the tags of
// one row, a prepared statement's usual count, cost no allocation.
func countTag(verb string, n int) string {
	if n == 1 {
		switch verb {
		case "INSERT 0 ":
			return "INSERT 0 1"
		case "UPDATE ":
			return "UPDATE 1"
		case "DELETE ":
			return "DELETE 1"
		}
	}
	return verb + strconv.Itoa(n)
}
