package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
)

// Extended statistics objects (CREATE STATISTICS) are kept in the catalog
// (pg_statistic_ext) and in the file, and go with their table or a column
// of it, as in PostgreSQL. The planner reads none: a view's plan does not
// depend on the data's distribution, and ANALYZE gathers nothing. The
// store keeps each as the statement that makes it, under the name
// statsKey gives it among the relations (statistics objects have names of
// their own in PostgreSQL).

// statsObject is a statistics object: its table, columns by name,
// expressions' texts, kinds (pg_statistic_ext.stxkind's letters) and
// target (-1 for the default).
type statsObject struct {
	name, table string
	owner       string // "" for the built-in superuser (statistics_owner.go)
	cols        []string
	exprs       []string
	kinds       string
	target      int
}

// KindStatistics is the stored kind of a statistics object.
const KindStatistics RelKind = "statistics"

func statsKey(name string) string { return "pg_statistic_ext/" + name }

// sql is the statement that makes the object as it is now.
func (st *statsObject) sql() string {
	kinds := make([]string, 0, 3)
	for _, k := range strings.TrimSuffix(st.kinds, "e") {
		kinds = append(kinds, map[rune]string{'d': "ndistinct", 'f': "dependencies", 'm': "mcv"}[k])
	}
	cols := make([]string, 0, len(st.cols)+len(st.exprs))
	for _, c := range st.cols {
		cols = append(cols, expr.QuoteIdent(c))
	}
	for _, x := range st.exprs {
		cols = append(cols, "("+x+")")
	}
	list := ""
	if len(kinds) > 0 { // none on one expression
		list = " (" + strings.Join(kinds, ", ") + ")"
	}
	text := fmt.Sprintf("CREATE STATISTICS %s%s ON %s FROM %s", expr.QuoteIdent(st.name), list,
		strings.Join(cols, ", "), expr.QuoteIdent(st.table))
	if st.target >= 0 {
		text += fmt.Sprintf(";\nALTER STATISTICS %s SET STATISTICS %d", expr.QuoteIdent(st.name), st.target)
	}
	return text
}

// storeStats records st anew in the store, with its owner (its old
// entries, under old, dropped first when old is not "").
func (e *Engine) storeStats(old string, st *statsObject) error {
	if e.store == nil {
		return nil
	}
	if old != "" {
		if err := e.store.Drop([]string{statsKey(old), ownerStoreName(statsKey(old))}); err != nil {
			return err
		}
	}
	if st == nil {
		return nil
	}
	if err := e.store.Create(&StoredRelation{Name: statsKey(st.name), Kind: KindStatistics, SQL: st.sql()}); err != nil {
		return err
	}
	if text := st.ownerSQL(); text != "" {
		return e.store.Create(&StoredRelation{Name: ownerStoreName(statsKey(st.name)), Kind: KindRelOwner, SQL: text})
	}
	return nil
}

// createStatistics runs CREATE STATISTICS, the object owned by owner (""
// for the built-in superuser), its name resolved through path.
func (e *Engine) createStatistics(path []string, cs *sql.CreateStatistics, owner string) (Result, error) {
	key, err := e.statsCreationKey(path, cs.Schema, cs.Name)
	if err != nil {
		return Result{}, err
	}
	if e.stats[key] != nil {
		if cs.IfNotExists {
			return Result{Tag: "CREATE STATISTICS", Notices: []string{fmt.Sprintf("statistics object %q already exists, skipping", cs.Name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateObject, "statistics object %q already exists", cs.Name)
	}
	if e.tables[cs.Table] == nil && e.views[cs.Table] == nil && e.unpopulated[cs.Table] == nil {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", cs.Table)
	}
	st := &statsObject{name: key, table: cs.Table, owner: owner, cols: cs.Cols, exprs: cs.Exprs, kinds: cs.Kinds, target: -1}
	if err := e.storeStats("", st); err != nil {
		return Result{}, err
	}
	if e.stats == nil {
		e.stats = map[string]*statsObject{}
	}
	e.stats[key] = st
	return Result{Tag: "CREATE STATISTICS"}, nil
}

func (e *Engine) dropStatistics(d *sql.DropStatistics, path []string) (Result, error) {
	res := Result{Tag: "DROP STATISTICS"}
	var gone []string
	for _, n := range d.Names {
		key, found, err := e.statsLookup(path, n)
		if err != nil && d.IfExists && pgerr.Code(err) == pgerr.InvalidSchemaName {
			res.Notices = append(res.Notices, fmt.Sprintf("schema %q does not exist, skipping", n.Schema))
			continue
		}
		if err != nil {
			return Result{}, err
		}
		if !found {
			if d.IfExists {
				res.Notices = append(res.Notices, fmt.Sprintf("statistics object %q does not exist, skipping", key))
				continue
			}
			return Result{}, pgerr.New(pgerr.UndefinedObject, "statistics object %q does not exist", key)
		}
		if !slices.Contains(gone, key) {
			gone = append(gone, key)
		}
	}
	if e.store != nil && len(gone) > 0 {
		keys := make([]string, len(gone))
		for i, n := range gone {
			keys[i] = statsKey(n)
		}
		for _, n := range gone {
			keys = append(keys, ownerStoreName(statsKey(n)))
		}
		if err := e.store.Drop(keys); err != nil {
			return Result{}, err
		}
	}
	for _, n := range gone {
		delete(e.stats, n)
	}
	return res, nil
}

func (e *Engine) alterStatistics(a *sql.AlterStatistics, path []string) (Result, error) {
	res := Result{Tag: "ALTER STATISTICS"}
	n := sql.StatsName{Schema: a.Schema, Name: a.Name}
	key, found, err := e.statsLookup(path, n)
	if err != nil && !(a.IfExists && pgerr.Code(err) == pgerr.InvalidSchemaName) {
		return Result{}, err
	}
	if !found {
		if a.IfExists {
			res.Notices = []string{fmt.Sprintf("statistics object %q does not exist, skipping", n.String())}
			return res, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedObject, "statistics object %q does not exist", key)
	}
	if a.SetSchema != "" {
		return e.moveStatistics(path, key, a.SetSchema)
	}
	st := e.stats[key]
	next := *st
	if a.Rename != "" {
		schema, _ := e.splitKey(key)
		next.name = schemaKey(schema, a.Rename)
		if e.stats[next.name] != nil {
			return Result{}, pgerr.New(pgerr.DuplicateObject, "statistics object %q already exists in schema %q", a.Rename, schema)
		}
	} else {
		next.target = min(a.Target, 10000)
		if a.Target > 10000 {
			res.Notices = []string{"lowering statistics target to 10000"}
			res.NoticeLevels = map[int]string{0: "WARNING"}
		}
	}
	if err := e.storeStats(st.name, &next); err != nil {
		return Result{}, err
	}
	// The object keeps its comment, as PostgreSQL's keeps its oid.
	if err := e.moveObjectComments(st.name, next.name, "statistics"); err != nil {
		return Result{}, err
	}
	delete(e.stats, st.name)
	e.stats[next.name] = &next
	return res, nil
}

// statsAfterAlter follows an ALTER TABLE of the columns of table: the
// statistics objects on a column dropped go, as in PostgreSQL; the others
// follow the renames of their columns and of the table. Called once the
// table has its new definition.
func (e *Engine) statsAfterAlter(t *table, a *sql.AlterTable) error {
	for _, name := range sortedKeys(e.stats) {
		st := e.stats[name]
		if st.table != a.Table {
			continue
		}
		next := *st
		next.table = a.New.Name
		next.cols = slices.Clone(st.cols)
		keep := true
		for i, c := range st.cols {
			old := slices.IndexFunc(t.cols, func(pc plan.Column) bool { return pc.Name == c })
			now := slices.Index(a.Map, old)
			if old < 0 || now < 0 {
				keep = false
				break
			}
			next.cols[i] = a.New.Cols[now].Name
		}
		if keep && len(st.exprs) > 0 {
			var err error
			if next.exprs, keep, err = exprsAfterAlter(t, a, st.exprs); err != nil {
				return err
			}
		}
		if !keep {
			if err := e.storeStats(name, nil); err != nil {
				return err
			}
			delete(e.stats, name)
			continue
		}
		if next.table != st.table || !slices.Equal(next.cols, st.cols) || !slices.Equal(next.exprs, st.exprs) {
			if err := e.storeStats(name, &next); err != nil {
				return err
			}
			e.stats[name] = &next
		}
	}
	return nil
}

// exprsAfterAlter are the texts of a statistics object's expressions
// after ALTER TABLE a of table t (its columns renamed); keep is false
// when one reads a column dropped, which drops the object.
func exprsAfterAlter(t *table, a *sql.AlterTable, exprs []string) (out []string, keep bool, err error) {
	renamed, gone := map[string]string{}, map[string]bool{}
	for old, c := range t.cols {
		now := slices.Index(a.Map, old)
		switch {
		case now < 0:
			gone[c.Name] = true
		case a.New.Cols[now].Name != c.Name:
			renamed[c.Name] = a.New.Cols[now].Name
		}
	}
	for _, x := range exprs {
		text, reads, err := sql.StatsExprAfterAlter(x, renamed, gone)
		if err != nil || reads {
			return nil, false, err
		}
		out = append(out, text)
	}
	return out, true, nil
}

// dropStatsOf forgets the statistics objects of the relations gone; the
// caller drops them from the store (statsKeysOf).
func (e *Engine) dropStatsOf(gone map[string]bool) {
	for name, st := range e.stats {
		if gone[st.table] {
			delete(e.stats, name)
		}
	}
}

// statsKeysOf are the store's names of the statistics objects of the
// relations in all.
func (e *Engine) statsKeysOf(all map[string]bool) []string {
	var out []string
	for _, name := range sortedKeys(e.stats) {
		if all[e.stats[name].table] {
			out = append(out, statsKey(name), ownerStoreName(statsKey(name)))
		}
	}
	return out
}

// pgStatisticExt lists the statistics objects.
func pgStatisticExt(o *catalogObjects, r *catRows) {
	for _, st := range o.stats {
		var keys []int16
		if rel := o.relKeyed(st.table); rel != nil {
			for _, c := range st.cols {
				keys = append(keys, int16(rel.attnum(c)))
			}
		}
		slices.Sort(keys)
		attrs := make([]string, len(keys))
		for i, k := range keys {
			attrs[i] = fmt.Sprint(k)
		}
		kinds := make([]string, len(st.kinds))
		for i := range st.kinds {
			kinds[i] = st.kinds[i : i+1]
		}
		var exprs any // the node tree's text is the expressions' here
		if len(st.exprs) > 0 {
			exprs = strings.Join(st.exprs, ", ")
		}
		schema, name := o.e.splitKey(st.name)
		r.add("oid", objectOID("statistic_ext", st.name), "stxrelid", RelationOID(st.table), "stxname", name,
			"stxnamespace", schemaOID(schema), "stxowner", o.e.roleOID(st.ownerName()), "stxstattarget", st.target,
			"stxkeys", strings.Join(attrs, " "), "stxkind", kinds, "stxexprs", exprs)
	}
}

func init() {
	const cols = "oid:oid,stxrelid:oid,stxname:name,stxnamespace:oid,stxowner:oid,stxstattarget:integer,stxkeys:int2vector,stxkind:\"char\"[],stxexprs:pg_node_tree"
	name := "pg_catalog.pg_statistic_ext"
	catalogColumns[name], catalogRowFuncs[name] = cols, pgStatisticExt
	catalogRelations[name] = catalogRelation{cols: catalogCols(cols), rows: pgStatisticExt}
	catalogRelOIDs["pg_statistic_ext"] = pgStatisticExtOID
}
