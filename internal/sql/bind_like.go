package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The bits of CREATE TABLE (LIKE t INCLUDING …) that change what is copied
// here (PostgreSQL's CREATE_TABLE_LIKE_*); storage and compression are
// bind_column_attrs.go's.
const (
	likeComments    = 1 << 0 // copied by the engine (Like)
	likeConstraints = 1 << 2
	likeDefaults    = 1 << 3
	likeGenerated   = 1 << 4 // INCLUDING GENERATED: a generated column's expression
	likeIdentity    = 1 << 5 // INCLUDING IDENTITY: a new sequence, of the default options
	likeIndexes     = 1 << 6
	likeStatistics  = 1 << 7 // copied by the engine (Like)
)

// Like is a LIKE clause of CREATE TABLE: what the engine copies from
// Table once the table is made, which it alone holds: the indexes CREATE
// INDEX made (Indexes), the comments (Comments: of the columns, and of
// the CHECK constraints and indexes copied), the statistics objects
// (Statistics).
type Like struct {
	Table                                      string
	Indexes, Comments, Statistics, Constraints bool
}

// LikeIndexText is the CREATE INDEX statement text (an index's, maybe
// after a SET of the search path) made again on table, without a name:
// PostgreSQL's default name, as CREATE TABLE (LIKE … INCLUDING INDEXES)
// names the copy.
func LikeIndexText(text, table string) (string, error) {
	r, err := pg_query.Parse(text)
	if err != nil {
		return "", err
	}
	for _, st := range r.Stmts {
		is := st.Stmt.GetIndexStmt()
		if is == nil {
			continue
		}
		is.Idxname, is.IfNotExists, is.Concurrent = "", false, false
		is.Relation = &pg_query.RangeVar{Relname: table, Inh: true, Relpersistence: "p", Location: -1}
		return pg_query.Deparse(&pg_query.ParseResult{Version: r.Version, Stmts: []*pg_query.RawStmt{{Stmt: st.Stmt}}})
	}
	return "", pgerr.New(pgerr.Internal, "no CREATE INDEX in %q", text)
}

// likeElements returns the columns and constraints CREATE TABLE (LIKE src
// …) copies, as the statement's own elements would be written: every
// column with its type and NOT NULL; with INCLUDING DEFAULTS the defaults,
// with INCLUDING CONSTRAINTS the CHECK constraints, with INCLUDING INDEXES
// the primary key and UNIQUE constraints. Defaults and checks are read
// again from their text, and bound against the new table.
func (b *binder) likeElements(lc *pg_query.TableLikeClause) ([]*pg_query.ColumnDef, []*pg_query.Constraint, error) {
	rv := lc.Relation
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok {
		return nil, nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	}
	var cols []*pg_query.ColumnDef
	var cons []*pg_query.Constraint
	key := func(i int) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: rel.Cols[i].Name}}}
	}
	for i, c := range rel.Cols {
		typ := c.Type.String()
		if dom := fieldDomain(rel, i); dom != nil {
			typ = QuoteIdent(dom.Name()) // the column keeps its domain
		}
		tn, err := typeNameOf(typ)
		if err != nil {
			return nil, nil, b.refuse(rv.Location, "column %q of %q has a type that cannot be copied: %v", c.Name, rv.Relname, err)
		}
		cd := &pg_query.ColumnDef{Colname: c.Name, TypeName: tn, Location: rv.Location}
		if d := rel.Def; d != nil {
			likeColumnAttrs(lc, &d.Cols[i], cd)
			if coll := d.Cols[i].Collation; coll != "" {
				// Always copied, as the type is.
				cd.CollClause = &pg_query.CollateClause{Collname: []*pg_query.Node{{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: coll}}}}, Location: -1}
			}
			if id := d.Cols[i].Identity; id != 0 && lc.Options&likeIdentity != 0 {
				cons = append(cons, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_IDENTITY, GeneratedWhen: string(id), Keys: []*pg_query.Node{key(i)}, Location: rv.Location})
			}
			cd.IsNotNull = d.Cols[i].NotNull
			text := d.Cols[i].DefaultSQL
			if seq := d.Cols[i].OwnedSequence(); seq != "" && d.Cols[i].Identity == 0 {
				text = SerialDefault(seq) // the new column calls the same sequence
			}
			if lc.Options&likeDefaults != 0 && text != "" {
				raw, err := exprOf(text)
				if err != nil {
					return nil, nil, err
				}
				cons = append(cons, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_DEFAULT, RawExpr: raw, Keys: []*pg_query.Node{key(i)}, Location: rv.Location})
			}
			if g := d.Cols[i].GeneratedSQL; g != "" && lc.Options&likeGenerated != 0 {
				raw, err := exprOf(g)
				if err != nil {
					return nil, nil, err
				}
				cons = append(cons, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_GENERATED, GeneratedWhen: "a", RawExpr: raw, Keys: []*pg_query.Node{key(i)}, Location: rv.Location})
			}
		}
		cols = append(cols, cd)
	}
	d := rel.Def
	if d == nil {
		return cols, cons, nil
	}
	if lc.Options&likeConstraints != 0 {
		for _, ch := range d.Checks {
			raw, err := exprOf(ch.SQL)
			if err != nil {
				return nil, nil, err
			}
			cons = append(cons, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_CHECK, Conname: ch.Name, RawExpr: raw, Location: rv.Location})
		}
	}
	if lc.Options&likeIndexes != 0 {
		keys := func(idx []int) []*pg_query.Node {
			out := make([]*pg_query.Node, len(idx))
			for j, i := range idx {
				out[j] = key(i)
			}
			return out
		}
		if d.PrimaryKey != nil {
			cons = append(cons, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_PRIMARY, Keys: keys(d.PrimaryKey), Location: rv.Location})
		}
		for _, u := range d.Uniques {
			cons = append(cons, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_UNIQUE, Keys: keys(u), Location: rv.Location})
		}
		for _, x := range d.Exclusions {
			c, err := x.constraint()
			if err != nil {
				return nil, nil, err
			}
			cons = append(cons, c) // named after the new table, as PostgreSQL names its index
		}
	}
	return cols, cons, nil
}

// exprOf parses the text of an expression.
func exprOf(text string) (*pg_query.Node, error) {
	r, err := pg_query.Parse("SELECT " + text)
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "cannot read the expression %q: %v", text, err)
	}
	return r.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val, nil
}

// typeNameOf parses a type's name.
func typeNameOf(text string) (*pg_query.TypeName, error) {
	r, err := pg_query.Parse("SELECT NULL::" + text)
	if err != nil {
		return nil, err
	}
	return r.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val.GetTypeCast().TypeName, nil
}
