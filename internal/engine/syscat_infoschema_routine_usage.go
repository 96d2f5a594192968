package engine

import (
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// information_schema.routine_column_usage, routine_table_usage,
// routine_routine_usage and routine_sequence_usage keep no state: when a
// statement reads them, the body of each function written in SQL-standard
// form (RETURN expr, BEGIN ATOMIC … END), which PostgreSQL binds at CREATE
// and records the dependencies of, is bound again, recording what it
// reads. A body given as a string (AS '…') and a PL/pgSQL one list
// nothing, as in PostgreSQL. What the bodies of the SQL functions it
// calls read is not its own, as PostgreSQL records a body's direct
// dependencies only (sql.BodyNames).

// routineUses is what one routine's body reads.
type routineUses struct {
	specific, schema, name string
	cols                   []colUse
	rels, seqs             []string
	funcs                  []string // the signatures of the functions of statements it calls
}

// atomicRoutineUses binds the SQL-standard body of each routine of o.
func atomicRoutineUses(o *catalogObjects) []routineUses {
	var out []routineUses
	for _, p := range o.procs {
		f := o.e.routineByKey(p.name, p.key)
		if f == nil || !f.Atomic {
			continue
		}
		rec := &recorder{cat: o.e, seen: map[string]bool{}}
		log := &sql.RefLog{}
		if err := sql.FunctionBodyRefs(rec, f, log); err != nil {
			continue
		}
		sc, name := o.e.splitObject(p.name)
		// Only what the body itself names: binding it inlined the
		// bodies of the SQL functions it calls.
		fnNames, relNames := sql.BodyNames(f)
		named := func(key string) bool { _, n := o.e.splitObject(key); return slices.Contains(relNames, n) }
		u := routineUses{specific: name + "_" + strconv.FormatUint(uint64(p.oid), 10), schema: sc, name: name,
			rels: slices.DeleteFunc(slices.Clone(rec.direct), func(k string) bool { return !named(k) }),
			seqs: slices.DeleteFunc(slices.Clone(rec.seqs), func(k string) bool { return !named(k) })}
		for _, sig := range rec.calledFunctions() {
			if _, n := o.e.splitObject(sig[:max(strings.IndexByte(sig, '('), 0)]); slices.Contains(fnNames, n) {
				u.funcs = append(u.funcs, sig)
			}
		}
		for _, r := range append(sql.OwnRefs(f, log), log.Using...) {
			if c := (colUse{r.Table, r.Col}); r.Table != "" && r.Col >= 0 && named(r.Table) && !slices.Contains(u.cols, c) {
				u.cols = append(u.cols, c)
			}
		}
		out = append(out, u)
	}
	return out
}

// routineUsageRow is the columns naming the routine of a usage row.
func (u *routineUses) row(pairs ...any) []any {
	return append([]any{"specific_catalog", DatabaseName, "specific_schema", u.schema, "specific_name", u.specific,
		"routine_catalog", DatabaseName, "routine_schema", u.schema, "routine_name", u.name}, pairs...)
}

func infoRoutineColumnUsage(o *catalogObjects, r *catRows) {
	for _, u := range atomicRoutineUses(o) {
		for _, c := range u.cols {
			if t := o.relKeyed(c.rel); t != nil && c.col < len(t.cols) && (t.kind == 'r' || t.kind == 'v' || t.kind == 'p') {
				r.add(u.row("table_catalog", DatabaseName, "table_schema", t.schema, "table_name", t.name, "column_name", t.cols[c.col].name)...)
			}
		}
	}
}

func infoRoutineTableUsage(o *catalogObjects, r *catRows) {
	for _, u := range atomicRoutineUses(o) {
		for _, key := range u.rels {
			if t := o.relKeyed(key); t != nil && (t.kind == 'r' || t.kind == 'v' || t.kind == 'p') {
				r.add(u.row("table_catalog", DatabaseName, "table_schema", t.schema, "table_name", t.name)...)
			}
		}
	}
}

func infoRoutineSequenceUsage(o *catalogObjects, r *catRows) {
	for _, u := range atomicRoutineUses(o) {
		for _, key := range u.seqs {
			if t := o.relKeyed(key); t != nil && t.kind == 'S' {
				r.add(u.row("sequence_catalog", DatabaseName, "sequence_schema", t.schema, "sequence_name", t.name)...)
			}
		}
	}
}

// infoRoutineRoutineUsage lists the functions each body calls; as in
// PostgreSQL, specific_* name the caller and routine_* the function
// called, its routine_name being its specific name.
func infoRoutineRoutineUsage(o *catalogObjects, r *catRows) {
	for _, u := range atomicRoutineUses(o) {
		for _, sig := range u.funcs {
			for _, p := range o.procs {
				if p.key != sig {
					continue
				}
				sc, name := o.e.splitObject(p.name)
				r.add("specific_catalog", DatabaseName, "specific_schema", u.schema, "specific_name", u.specific,
					"routine_catalog", DatabaseName, "routine_schema", sc, "routine_name", name+"_"+strconv.FormatUint(uint64(p.oid), 10))
			}
		}
	}
}

func init() {
	const routine = "specific_catalog:sql_identifier,specific_schema:sql_identifier,specific_name:sql_identifier," +
		"routine_catalog:sql_identifier,routine_schema:sql_identifier,routine_name:sql_identifier"
	const table = ",table_catalog:sql_identifier,table_schema:sql_identifier,table_name:sql_identifier"
	add := func(name, cols string, rows func(o *catalogObjects, r *catRows)) {
		addCatalogRelation("information_schema."+name, cols, rows)
	}
	add("routine_column_usage", routine+table+",column_name:sql_identifier", infoRoutineColumnUsage)
	add("routine_table_usage", routine+table, infoRoutineTableUsage)
	add("routine_routine_usage", routine, infoRoutineRoutineUsage)
	add("routine_sequence_usage", routine+",sequence_catalog:sql_identifier,sequence_schema:sql_identifier,sequence_name:sql_identifier",
		infoRoutineSequenceUsage)
}
