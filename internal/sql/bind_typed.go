package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Typed tables: CREATE TABLE t OF type [(col WITH OPTIONS …, constraint,
// …)] makes a table whose columns are the composite type's attributes,
// each with the options given (NOT NULL, DEFAULT, keys, …), as
// PostgreSQL's transformOfType and MergeAttributes do; pg_class.reloftype
// names the type. ALTER TABLE t NOT OF unlinks the table, ALTER TABLE t
// OF type links a table whose columns are the type's attributes (the same
// names and types, in order). A typed table's columns follow its type:
// ADD, DROP, ALTER COLUMN … TYPE and RENAME COLUMN are 42809; the engine
// refuses DROP TYPE (2BP01) and ALTER TYPE of its attributes (2BP01) while
// the type has typed tables. The database file records the link as ALTER
// TABLE ONLY t OF type after the table's CREATE TABLE (attrsSQL).

// typedTableElts gives the CREATE TABLE … OF type the type's attributes
// as its columns, with the options its WITH OPTIONS elements give; it
// returns the type's name.
func (b *binder) typedTableElts(cs *pg_query.CreateStmt) (string, error) {
	ct, err := b.ofType(cs.OfTypename)
	if err != nil {
		return "", err
	}
	opts := map[string]*pg_query.ColumnDef{}
	var elts []*pg_query.Node
	for _, el := range cs.TableElts {
		cd := el.GetColumnDef()
		if cd == nil {
			elts = append(elts, el) // a table constraint or LIKE
			continue
		}
		if !slices.ContainsFunc(ct.Attrs, func(a ColumnDef) bool { return a.Name == cd.Colname }) {
			return "", pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", cd.Colname)
		}
		if opts[cd.Colname] != nil {
			return "", pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", cd.Colname)
		}
		opts[cd.Colname] = cd
	}
	cols := make([]*pg_query.Node, len(ct.Attrs))
	for i, a := range ct.Attrs {
		typ := a.Type.String()
		if a.Domain != nil {
			typ = QuoteIdent(a.Domain.Name())
		}
		tn, err := typeNameOf(typ)
		if err != nil {
			return "", err
		}
		cd := &pg_query.ColumnDef{Colname: a.Name, TypeName: tn, IsLocal: true, Location: cs.Relation.Location}
		if o := opts[a.Name]; o != nil {
			cd.Constraints, cd.IsNotNull, cd.RawDefault = o.Constraints, o.IsNotNull, o.RawDefault
		}
		cols[i] = &pg_query.Node{Node: &pg_query.Node_ColumnDef{ColumnDef: cd}}
	}
	cs.TableElts, cs.OfTypename = append(cols, elts...), nil
	return ct.Name, nil
}

// ofType resolves the type OF names: a composite type CREATE TYPE made
// (42809 for another type, 42704 for none).
func (b *binder) ofType(tn *pg_query.TypeName) (*CompositeType, error) {
	if cc, ok := b.cat.(CompositeCatalog); ok && len(tn.Names) > 0 {
		name := tn.Names[len(tn.Names)-1].GetString_().GetSval()
		if len(tn.Names) == 2 {
			name = tn.Names[0].GetString_().GetSval() + "." + name
		}
		if ct, ok := cc.CompositeType(name); ok {
			return ct, nil
		}
	}
	if len(tn.Names) == 1 && grammarTypeNames[tn.Names[0].GetString_().GetSval()] {
		// OF takes a name, which the grammar does not read as its
		// spelling of a built-in type: "int" is no type's name.
		return nil, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", tn.Names[0].GetString_().GetSval())
	}
	t, err := b.typeFromName(tn)
	if err != nil {
		// PostgreSQL looks OF's name up without the statement's text
		// (typenameType without a parse state): its errors have no
		// position.
		unplaced := *pgerr.Wrap(err)
		unplaced.Position = 0
		return nil, &unplaced
	}
	if cc, ok := b.cat.(CompositeCatalog); ok {
		if ct, ok := cc.CompositeType(t.String()); ok {
			return ct, nil // named through the search path
		}
	}
	return nil, pgerr.New(pgerr.WrongObjectType, "type %s is not a composite type", t)
}

// grammarTypeNames are the names the grammar reads as built-in types in
// a column's type, none of which pg_type holds.
var grammarTypeNames = map[string]bool{"int": true, "integer": true, "smallint": true, "bigint": true,
	"real": true, "float": true, "boolean": true, "dec": true, "decimal": true}

// typedTableCmd applies OF type and NOT OF, and refuses the commands that
// would change a typed table's columns; done is false for another
// command.
func (b *binder) typedTableCmd(w *alterWork, cmd *pg_query.AlterTableCmd) (bool, error) {
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_AddOf:
		ct, err := b.ofType(cmd.Def.GetTypeName())
		if err != nil {
			return true, err
		}
		cols := w.cols()
		for i, a := range ct.Attrs {
			if i >= len(cols) {
				return true, pgerr.New(pgerr.DatatypeMismatch, "table is missing column %q", a.Name)
			}
			if cols[i].Colname != a.Name {
				return true, pgerr.New(pgerr.DatatypeMismatch, "table has column %q where type requires %q", cols[i].Colname, a.Name)
			}
			t, err := w.colType(b, cols[i], i)
			if err != nil {
				return true, err
			}
			o := w.origin[i]
			if t != a.Type || o >= 0 && (w.old.Cols[o].Domain == nil) != (a.Domain == nil) || cols[i].CollClause != nil {
				return true, pgerr.New(pgerr.DatatypeMismatch, "table %q has different type for column %q", b.bareName(w.name), a.Name)
			}
		}
		if len(cols) > len(ct.Attrs) {
			return true, pgerr.New(pgerr.DatatypeMismatch, "table has extra column %q", cols[len(ct.Attrs)].Colname)
		}
		w.ofType = ct.Name
	case pg_query.AlterTableType_AT_DropOf:
		if w.ofType == "" {
			return true, pgerr.New(pgerr.WrongObjectType, "%q is not a typed table", b.bareName(w.name))
		}
		w.ofType = ""
	case pg_query.AlterTableType_AT_AddColumn, pg_query.AlterTableType_AT_DropColumn, pg_query.AlterTableType_AT_AlterColumnType:
		if w.old.OfType == "" { // the table as it was, whatever NOT OF beside
			return false, nil
		}
		what := map[pg_query.AlterTableType]string{pg_query.AlterTableType_AT_AddColumn: "add column to",
			pg_query.AlterTableType_AT_DropColumn: "drop column from", pg_query.AlterTableType_AT_AlterColumnType: "alter column type of"}[cmd.Subtype]
		return true, pgerr.New(pgerr.WrongObjectType, "cannot %s typed table", what)
	default:
		return false, nil
	}
	return true, nil
}
