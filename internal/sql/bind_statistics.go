package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// The functions psql's \dX and \d call over statistics objects.
func init() {
	catFuncs["pg_get_statisticsobjdef_columns"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: textK, strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			return textOrNull(sc.StatsColumns, a[0]), nil
		}}
	catFuncs["pg_statistics_obj_is_visible"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: boolK, strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			if _, ok := sc.StatsColumns[a[0].OID()]; ok {
				return value.NewBool(true), nil
			}
			return value.Null, nil
		}}
}

// CreateStatistics is CREATE STATISTICS [IF NOT EXISTS] name [(kinds)] ON
// col, col, … FROM table: an object the catalog keeps (pg_statistic_ext)
// and the planner does not read.
type CreateStatistics struct {
	Name, Table string
	// Kinds are pg_statistic_ext.stxkind's letters: d (ndistinct), f
	// (dependencies), m (mcv).
	Kinds       string
	Cols        []string
	IfNotExists bool
}

// DropStatistics is DROP STATISTICS [IF EXISTS] name, ….
type DropStatistics struct {
	Names    []string
	IfExists bool
}

// AlterStatistics is ALTER STATISTICS [IF EXISTS] name SET STATISTICS n,
// or ALTER STATISTICS name RENAME TO other (Rename set).
type AlterStatistics struct {
	Name, Rename string
	Target       int
	IfExists     bool
}

func (*CreateStatistics) bound() {}
func (*DropStatistics) bound()   {}
func (*AlterStatistics) bound()  {}

var statsKinds = map[string]byte{"ndistinct": 'd', "dependencies": 'f', "mcv": 'm'}

// lastName is the object name of a possibly qualified name list.
func lastName(names []*pg_query.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

func (b *binder) bindCreateStatistics(cs *pg_query.CreateStatsStmt) (Bound, error) {
	out := &CreateStatistics{Name: lastName(cs.Defnames), IfNotExists: cs.IfNotExists}
	if out.Name == "" {
		// A name is required in PostgreSQL 15.
		return nil, pgerr.New(pgerr.SyntaxError, `syntax error at or near "ON"`)
	}
	if len(cs.Relations) != 1 || cs.Relations[0].GetRangeVar() == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "only a single relation is allowed in CREATE STATISTICS")
	}
	rv := cs.Relations[0].GetRangeVar()
	out.Table = rv.Relname
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	}
	if rel.Kind != KindTable && rel.Kind != KindMatView || rel.System {
		what := map[RelKind]string{KindView: "views", KindSequence: "sequences", KindComposite: "composite types"}[rel.Kind]
		if what == "" {
			what = "system catalogs"
		}
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot define statistics for relation %q", rv.Relname).
			WithDetail("This operation is not supported for %s.", what)
	}
	for _, n := range cs.Exprs {
		el := n.GetStatsElem()
		if el == nil {
			continue
		}
		if el.Name == "" {
			return nil, b.refuse(nodeLoc(el.Expr, -1), "statistics on expressions are not supported")
		}
		found := slices.ContainsFunc(rel.Cols, func(c plan.Column) bool { return c.Name == el.Name })
		if !found {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", el.Name)
		}
		out.Cols = append(out.Cols, el.Name)
	}
	if len(out.Cols) < 2 {
		return nil, pgerr.New(pgerr.InvalidObjectDef, "extended statistics require at least 2 columns")
	}
	if len(out.Cols) > 8 {
		return nil, pgerr.New("54011", "cannot have more than 8 columns in statistics")
	}
	for i, c := range out.Cols {
		if slices.Contains(out.Cols[:i], c) {
			return nil, pgerr.New(pgerr.DuplicateColumn, "duplicate column name in statistics definition")
		}
	}
	var kinds []byte
	for _, n := range cs.StatTypes {
		k := n.GetString_().GetSval()
		letter, ok := statsKinds[strings.ToLower(k)]
		if !ok {
			return nil, pgerr.New(pgerr.SyntaxError, "unrecognized statistics kind %q", k)
		}
		if !slices.Contains(kinds, letter) {
			kinds = append(kinds, letter)
		}
	}
	if len(kinds) == 0 {
		kinds = []byte("dfm")
	}
	slices.SortFunc(kinds, func(x, y byte) int { return strings.IndexByte("dfm", x) - strings.IndexByte("dfm", y) })
	out.Kinds = string(kinds)
	return out, nil
}

func (b *binder) bindDropStatistics(ds *pg_query.DropStmt) (Bound, error) {
	out := &DropStatistics{IfExists: ds.MissingOk}
	for _, o := range ds.Objects {
		out.Names = append(out.Names, lastName(o.GetList().GetItems()))
	}
	return out, nil
}

func (b *binder) bindAlterStatistics(as *pg_query.AlterStatsStmt) (Bound, error) {
	out := &AlterStatistics{Name: lastName(as.Defnames), IfExists: as.MissingOk, Target: -1}
	if as.Stxstattarget != nil {
		if i := as.Stxstattarget.GetInteger(); i != nil {
			out.Target = int(i.Ival)
		}
	}
	if out.Target < -1 {
		return nil, pgerr.New(pgerr.InvalidParameter, "statistics target %d is too low", out.Target)
	}
	return out, nil
}
