package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// CreateServer is CREATE SERVER name FOREIGN DATA WRAPPER postgres |
// sqlite OPTIONS (…): a database that foreign tables keep views in.
type CreateServer struct {
	Name        string
	Wrapper     string // "postgres" or "sqlite"
	Options     []Option
	IfNotExists bool
}

// Option is one name 'value' of an OPTIONS list, the name lower-cased.
type Option struct {
	Name, Value string
	Pos         int32
}

// CreateForeignTable is CREATE FOREIGN TABLE name (columns) SERVER s
// OPTIONS (view 'v' [, table 't']): view kept in table t (name when not
// given) of the server's database.
type CreateForeignTable struct {
	Name        string
	Server      string
	View        string
	Table       string
	Cols        []ColumnDef // empty: the view's columns
	IfNotExists bool
}

// DropSink is DROP FOREIGN TABLE or DROP SERVER.
type DropSink struct {
	Server   bool // DROP SERVER, else DROP FOREIGN TABLE
	Names    []string
	IfExists bool
	Cascade  bool
}

func (*CreateServer) bound()       {}
func (*CreateForeignTable) bound() {}
func (*DropSink) bound()           {}

// options reads an OPTIONS list of name 'value' pairs.
func (b *binder) options(list []*pg_query.Node) ([]Option, error) {
	var out []Option
	seen := map[string]bool{}
	for _, o := range list {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		if seen[name] {
			return nil, b.stmt.errf(d.Location, pgerr.DuplicateObject, "option %q provided more than once", name)
		}
		seen[name] = true
		if d.Defaction != pg_query.DefElemAction_DEFELEM_UNSPEC {
			return nil, b.stmt.errf(d.Location, pgerr.FeatureNotSupported, "ADD, SET and DROP of options are not supported")
		}
		s := d.Arg.GetString_()
		if s == nil {
			return nil, b.stmt.errf(d.Location, pgerr.SyntaxError, "option %s needs a quoted value", name)
		}
		out = append(out, Option{Name: name, Value: s.Sval, Pos: d.Location})
	}
	return out, nil
}

func (b *binder) bindCreateServer(cs *pg_query.CreateForeignServerStmt) (Bound, error) {
	out := &CreateServer{Name: cs.Servername, IfNotExists: cs.IfNotExists}
	switch strings.ToLower(cs.Fdwname) {
	case "postgres", "postgres_fdw", "postgresql":
		out.Wrapper = "postgres"
	case "sqlite", "sqlite_fdw", "sqlite3":
		out.Wrapper = "sqlite"
	default:
		return nil, pgerr.New(pgerr.UndefinedObject, "foreign-data wrapper %q does not exist", cs.Fdwname).
			WithHint("deltaview keeps views in PostgreSQL (FOREIGN DATA WRAPPER postgres) and SQLite (FOREIGN DATA WRAPPER sqlite)")
	}
	if cs.Servertype != "" || cs.Version != "" {
		return nil, b.refuse(-1, "TYPE and VERSION of a server are not supported")
	}
	var err error
	out.Options, err = b.options(cs.Options)
	return out, err
}

func (b *binder) bindCreateForeignTable(cf *pg_query.CreateForeignTableStmt) (Bound, error) {
	base := cf.BaseStmt
	rv := base.Relation
	out := &CreateForeignTable{Name: rv.Relname, Server: cf.Servername, IfNotExists: base.IfNotExists}
	if len(base.InhRelations) > 0 || base.Partbound != nil {
		return nil, b.refuse(rv.Location, "inheritance and partitions of foreign tables are not supported")
	}
	for _, el := range base.TableElts {
		cd := el.GetColumnDef()
		if cd == nil || len(cd.Constraints) > 0 || len(cd.Fdwoptions) > 0 {
			return nil, b.refuse(-1, "a foreign table's columns take a name and a type only")
		}
		t, err := b.typeFromName(cd.TypeName)
		if err != nil {
			return nil, err
		}
		out.Cols = append(out.Cols, ColumnDef{Name: cd.Colname, Type: t})
	}
	opts, err := b.options(cf.Options)
	if err != nil {
		return nil, err
	}
	for _, o := range opts {
		switch o.Name {
		case "view":
			out.View = o.Value
		case "table", "table_name":
			out.Table = o.Value
		default:
			return nil, b.stmt.errf(o.Pos, pgerr.InvalidParameter, "invalid option %q", o.Name).
				WithHint("a foreign table takes OPTIONS (view 'materialized view' [, table 'target table'])")
		}
	}
	if out.View == "" {
		return nil, b.stmt.errf(rv.Location, pgerr.InvalidParameter, "foreign table %s needs OPTIONS (view '…'): the materialized view it keeps", out.Name)
	}
	if out.Table == "" {
		out.Table = out.Name
	}
	return out, nil
}

func (b *binder) bindDropSink(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropSink{Server: ds.RemoveType == pg_query.ObjectType_OBJECT_FOREIGN_SERVER, IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		if s := o.GetString_(); s != nil {
			d.Names = append(d.Names, s.Sval)
			continue
		}
		items := o.GetList().GetItems()
		d.Names = append(d.Names, items[len(items)-1].GetString_().Sval)
	}
	return d, nil
}
