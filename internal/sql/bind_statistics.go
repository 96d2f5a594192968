package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

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
	catFuncs["pg_get_statisticsobjdef"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: textK, strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			return textOrNull(sc.StatsDefs, a[0]), nil
		}}
	catFuncs["pg_get_statisticsobjdef_expressions"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: value.ArrayOf(textK), strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			texts := sc.StatsExprs[a[0].OID()]
			if texts == nil {
				return value.Null, nil
			}
			elems := make([]value.Value, len(texts))
			for i, t := range texts {
				elems[i] = text(t)
			}
			return value.NewArray(value.ArrayOf(textK), elems), nil
		}}
	catFuncs["pg_statistics_obj_is_visible"] = catFunc{sigs: [][]value.Kind{{oidK}}, result: boolK, strict: true,
		eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
			if vis, ok := sc.StatsVisible[a[0].OID()]; ok {
				return value.NewBool(vis), nil
			}
			return value.Null, nil
		}}
}

// StatsName is the name a statement gives a statistics object: its
// schema ("" when unqualified, for the search path to find) and its name.
// The engine resolves it to its key, "s.name" or public's name.
type StatsName struct{ Schema, Name string }

// String is the name as written, as PostgreSQL's messages name it.
func (n StatsName) String() string {
	if n.Schema == "" {
		return n.Name
	}
	return n.Schema + "." + n.Name
}

// CreateStatistics is CREATE STATISTICS [IF NOT EXISTS] name [(kinds)] ON
// col, col, … FROM table: an object the catalog keeps (pg_statistic_ext)
// and the planner does not read.
type CreateStatistics struct {
	// Schema is the schema written ("" for the search path's first).
	Schema      string
	Name, Table string
	// Kinds are pg_statistic_ext.stxkind's letters: d (ndistinct), f
	// (dependencies), m (mcv).
	Kinds string
	Cols  []string
	// Exprs are the texts of its expressions (ON (a + b), …), in the
	// order written; Kinds then holds e.
	Exprs       []string
	IfNotExists bool
}

// DropStatistics is DROP STATISTICS [IF EXISTS] name, ….
type DropStatistics struct {
	Names    []StatsName
	IfExists bool
}

// AlterStatistics is ALTER STATISTICS [IF EXISTS] name SET STATISTICS n,
// ALTER STATISTICS name RENAME TO other (Rename set) or ALTER STATISTICS
// name SET SCHEMA s (SetSchema set).
type AlterStatistics struct {
	Schema, Name, Rename string
	SetSchema            string
	Target               int
	IfExists             bool
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

// statsName is the name of a statistics object a statement names.
func statsName(names []*pg_query.Node) StatsName {
	if len(names) >= 2 {
		return StatsName{Schema: names[len(names)-2].GetString_().GetSval(), Name: lastName(names)}
	}
	return StatsName{Name: lastName(names)}
}

func (b *binder) bindCreateStatistics(cs *pg_query.CreateStatsStmt) (Bound, error) {
	name := statsName(cs.Defnames)
	out := &CreateStatistics{Schema: name.Schema, Name: name.Name, IfNotExists: cs.IfNotExists}
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
	sc := indexScope(rv.Relname, rel)
	var dupExpr bool
	for _, n := range cs.Exprs {
		el := n.GetStatsElem()
		if el == nil {
			continue
		}
		if len(out.Cols)+len(out.Exprs) >= 8 {
			return nil, pgerr.New("54011", "cannot have more than 8 columns in statistics")
		}
		name := el.Name
		if cr := el.Expr.GetColumnRef(); name == "" && cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			// A column in parentheses is the column, as in PostgreSQL.
			name = cr.Fields[0].GetString_().GetSval()
		}
		if name == "" {
			text, err := b.statsExpr(sc, el.Expr, len(cs.Exprs) > 1)
			if err != nil {
				return nil, err
			}
			dupExpr = dupExpr || slices.Contains(out.Exprs, text)
			out.Exprs = append(out.Exprs, text)
			continue
		}
		i := slices.IndexFunc(rel.Cols, func(c plan.Column) bool { return c.Name == name })
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
		}
		if t := rel.Cols[i].Type; !statsOrderable(t) {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "column %q cannot be used in statistics because its type %s has no default btree operator class",
				name, formatTypeBase(t))
		}
		out.Cols = append(out.Cols, name)
	}
	single := len(out.Cols) == 0 && len(out.Exprs) == 1
	if single && len(cs.StatTypes) > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "when building statistics on a single expression, statistics kinds may not be specified")
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
	for i, c := range out.Cols {
		if slices.Contains(out.Cols[:i], c) {
			return nil, pgerr.New(pgerr.DuplicateColumn, "duplicate column name in statistics definition")
		}
	}
	if dupExpr {
		return nil, pgerr.New(pgerr.DuplicateColumn, "duplicate expression in statistics definition")
	}
	if len(out.Cols) < 2 && !single && len(out.Exprs) == 0 {
		return nil, pgerr.New(pgerr.InvalidObjectDef, "extended statistics require at least 2 columns")
	}
	if single {
		// Statistics on one expression are that expression's own.
		out.Kinds = "e"
		return out, nil
	}
	if len(kinds) == 0 {
		kinds = []byte("dfm")
	}
	if len(out.Exprs) > 0 {
		kinds = append(kinds, 'e')
	}
	slices.SortFunc(kinds, func(x, y byte) int { return strings.IndexByte("dfme", x) - strings.IndexByte("dfme", y) })
	out.Kinds = string(kinds)
	return out, nil
}

// statsExpr binds an expression of CREATE STATISTICS over the table's
// row, with PostgreSQL 15's errors, and returns its text. PostgreSQL 15
// takes volatile functions there. multi is set when the object has more
// than one element: an expression's type must then be ordered by btree.
func (b *binder) statsExpr(sc *scope, n *pg_query.Node, multi bool) (string, error) {
	if anySubLink(n) {
		return "", b.stmt.errf(nodeLoc(n, -1), pgerr.FeatureNotSupported, "cannot use subquery in statistics expression")
	}
	e, err := b.bindExpr(sc, n)
	if err != nil {
		pe := *pgerr.Wrap(err)
		if pe.Code == pgerr.FeatureNotSupported && strings.HasSuffix(pe.Message, "is only supported in FROM or in a select list") {
			pe.Message = "set-returning functions are not allowed in statistics expressions"
		}
		// The calls no expression of the kind may make are named by it.
		for _, what := range []string{"aggregate functions", "set-returning functions", "window functions"} {
			if strings.HasPrefix(pe.Message, what+" are not allowed") || strings.HasPrefix(pe.Message, what+" are only allowed") {
				pe.Message, pe.Hint = what+" are not allowed in statistics expressions", ""
			}
		}
		return "", &pe
	}
	if multi && !statsOrderable(e.Type()) {
		return "", pgerr.New(pgerr.FeatureNotSupported, "expression cannot be used in multivariate statistics because its type %s has no default btree operator class",
			formatTypeBase(e.Type()))
	}
	// Its columns are the table's, kept unqualified: the table may be
	// renamed or moved.
	n = proto.Clone(n).(*pg_query.Node)
	walkNodes(n.ProtoReflect(), func(x *pg_query.Node) {
		if cr := x.GetColumnRef(); cr != nil && len(cr.Fields) > 1 && cr.Fields[len(cr.Fields)-1].GetString_() != nil {
			cr.Fields = cr.Fields[len(cr.Fields)-1:]
		}
	})
	text, err := deparseExpr(n)
	if err != nil {
		return "", pgerr.New(pgerr.Internal, "cannot write a statistics expression: %v", err)
	}
	return text, nil
}

// statsOrderable reports whether values of type t have a default btree
// operator class (a less-than operator), which extended statistics need.
func statsOrderable(t value.Type) bool {
	return !t.Kind.IsGeometric() && t.Kind != value.JSON && t.Kind != value.XML
}

func (b *binder) bindDropStatistics(ds *pg_query.DropStmt) (Bound, error) {
	out := &DropStatistics{IfExists: ds.MissingOk}
	for _, o := range ds.Objects {
		out.Names = append(out.Names, statsName(o.GetList().GetItems()))
	}
	return out, nil
}

func (b *binder) bindAlterStatistics(as *pg_query.AlterStatsStmt) (Bound, error) {
	name := statsName(as.Defnames)
	out := &AlterStatistics{Schema: name.Schema, Name: name.Name, IfExists: as.MissingOk, Target: -1}
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
