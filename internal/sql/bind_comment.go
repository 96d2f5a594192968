package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// CommentKind is the kind of object COMMENT ON names.
type CommentKind byte

// The objects a comment may describe.
const (
	CommentTable CommentKind = iota
	CommentView
	CommentMatView
	CommentIndex
	CommentColumn
)

// Comment is COMMENT ON TABLE | VIEW | MATERIALIZED VIEW | INDEX | COLUMN
// … IS 'text' | NULL: the object's description. Text "" (NULL, or an
// empty string) removes it. The object is checked where the catalog is
// kept (an index is not a relation the binder sees).
type Comment struct {
	Kind     CommentKind
	Relation string
	Column   string // COMMENT ON COLUMN only
	Text     string
}

func (*Comment) bound() {}

// CommentCatalog is a Catalog that keeps comments. Described returns the
// comments of the relation or index named (by column name, "" for the
// object itself) and its columns in order; ok is false when there is no
// such object.
type CommentCatalog interface {
	Described(name string) (comments map[string]string, cols []string, ok bool)
}

func (b *binder) bindComment(cs *pg_query.CommentStmt) (Bound, error) {
	kind, ok := map[pg_query.ObjectType]CommentKind{pg_query.ObjectType_OBJECT_TABLE: CommentTable,
		pg_query.ObjectType_OBJECT_VIEW: CommentView, pg_query.ObjectType_OBJECT_MATVIEW: CommentMatView,
		pg_query.ObjectType_OBJECT_INDEX: CommentIndex, pg_query.ObjectType_OBJECT_COLUMN: CommentColumn}[cs.Objtype]
	if !ok {
		what := strings.ReplaceAll(strings.TrimPrefix(cs.Objtype.String(), "OBJECT_"), "_", " ")
		return nil, b.refuse(-1, "COMMENT ON %s is not supported", what).
			WithHint("comments are kept on tables, views, materialized views, indexes and their columns")
	}
	var names []string
	for _, it := range cs.Object.GetList().GetItems() {
		names = append(names, it.GetString_().Sval)
	}
	c := &Comment{Kind: kind, Text: cs.Comment}
	if kind == CommentColumn {
		if len(names) < 2 {
			return nil, pgerr.New(pgerr.SyntaxError, "column name must be qualified")
		}
		c.Column, names = names[len(names)-1], names[:len(names)-1]
	}
	if len(names) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "COMMENT ON names no object")
	}
	c.Relation = names[len(names)-1]
	return c, nil
}

// bindDescription binds obj_description(rel, 'pg_class') and
// col_description(rel, attnum) when rel is a constant 'name'::regclass,
// the form clients write: resolved now, as PostgreSQL resolves a regclass
// constant, to the comment the catalog holds (NULL when none). ok is
// false for other functions.
func (b *binder) bindDescription(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	if name != "obj_description" && name != "col_description" {
		return nil, false, nil
	}
	cc, isCC := b.cat.(CommentCatalog)
	if len(f.Args) < 1 || len(f.Args) > 2 || name == "col_description" && len(f.Args) != 2 || !isCC || b.forView {
		return nil, false, nil // the function catalog's error
	}
	tc := f.Args[0].GetTypeCast()
	if tc == nil || tc.TypeName == nil || len(tc.TypeName.Names) == 0 ||
		tc.TypeName.Names[len(tc.TypeName.Names)-1].GetString_().Sval != "regclass" || tc.Arg.GetAConst() == nil {
		return nil, true, b.refuse(f.Location, "%s() of an object other than a constant 'name'::regclass is not supported", name).
			WithHint("write %s('table_name'::regclass, …)", name)
	}
	lit := tc.Arg.GetAConst().GetSval()
	if lit == nil {
		return nil, true, b.refuse(f.Location, "%s() of an object other than a constant 'name'::regclass is not supported", name)
	}
	rel, err := expr.SequenceName(lit.Sval) // regclass's input: a name, perhaps quoted or qualified
	if err != nil {
		return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(tc.Arg, f.Location)))
	}
	comments, cols, ok := cc.Described(rel)
	if !ok {
		return nil, true, b.stmt.errf(nodeLoc(tc.Arg, f.Location), pgerr.UndefinedTable, "relation %q does not exist", rel)
	}
	key, known := "", true
	if len(f.Args) == 2 {
		arg, err := b.bindExpr(s, f.Args[1])
		if err != nil {
			return nil, true, err
		}
		k, isConst := arg.(*expr.Const)
		if !isConst {
			return nil, true, b.refuse(nodeLoc(f.Args[1], f.Location), "%s() with a computed second argument is not supported", name)
		}
		switch {
		case k.V.IsNull():
			known = false
		case name == "obj_description":
			known = k.V.String() == "pg_class"
		default:
			v, err := value.Cast(k.V, value.Int4Type, false)
			if err != nil {
				return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(f.Args[1], f.Location)))
			}
			n := v.Int()
			known = n >= 1 && n <= int64(len(cols))
			if known {
				key = cols[n-1]
			}
		}
	}
	text, has := comments[key]
	if !known || !has {
		return &expr.Const{V: value.Null, T: value.TextType}, true, nil
	}
	return &expr.Const{V: value.NewText(value.Text, text), T: value.TextType}, true, nil
}
