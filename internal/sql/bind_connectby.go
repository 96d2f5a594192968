package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// tablefunc's connectby(relname, keyid_fld, parent_keyid_fld
// [, orderby_fld], start_with, max_depth [, branch_delim]) walks the tree
// a table's rows make. PostgreSQL's runs, for each key it reaches, a query
// built from the texts: SELECT key, parent FROM relname WHERE parent =
// 'start' AND key IS NOT NULL AND key <> parent [ORDER BY orderby]. Here
// the texts must be constants: connectbyQueries binds one query of them,
// the rows of every parent, in their order, and puts the array of its
// rows in relname's place; bindConnectby binds the call over it
// (expr.ConnectbySRF), which walks them. A view refuses it, as crosstab.

// isConnectby reports whether f is a marked call of connectby.
func isConnectby(f *pg_query.FuncCall) bool {
	return f != nil && isExtSRF(f) && opName(f.Funcname) == "connectby"
}

// connectbyForm tells which of the optional arguments a call of n
// arguments gives; ok is false for a number connectby does not take. A
// call of six takes the branch delimiter when its fifth argument is an
// integer, the order otherwise, as PostgreSQL resolves it.
func (b *binder) connectbyForm(args []*pg_query.Node) (orderby, branch, ok bool) {
	switch len(args) {
	case 5:
		return false, false, true
	case 7:
		return true, true, true
	case 6:
		e, err := b.bindExpr(b.argScope(), args[4])
		return err != nil || !e.Type().Kind.IsInteger(), err == nil && e.Type().Kind.IsInteger(), true
	}
	return false, false, false
}

// connectbyQueries returns rf with the relation name of its connectby
// calls replaced by the array of the rows of their query, or rf itself
// when it calls none.
func (b *binder) connectbyQueries(rf *pg_query.RangeFunction) (*pg_query.RangeFunction, error) {
	cloned := false
	for i, item := range rf.Functions {
		items := item.GetList().GetItems()
		f := items[0].GetFuncCall()
		if !isConnectby(f) {
			continue
		}
		if b.forView {
			return nil, b.refuse(f.Location, "connectby cannot be maintained in a view: it reads a table through names the view cannot track").
				WithHint("write the walk as WITH RECURSIVE over the table")
		}
		orderby, branch, ok := b.connectbyForm(f.Args)
		coldefs := rf.Coldeflist
		if len(items) > 1 && items[1] != nil && items[1].GetList() != nil {
			coldefs = items[1].GetList().Items
		}
		if !ok || len(coldefs) == 0 {
			continue // bindConnectby reports it
		}
		nTexts := 3
		if orderby {
			nTexts = 4
		}
		texts := make([]string, nTexts)
		null := false
		for k := range texts {
			s, isNull, isConst := constantText(f.Args[k])
			if !isConst {
				return nil, b.refuse(f.Location, "connectby's relation, field and order texts must be constants")
			}
			texts[k], null = s, null || isNull
		}
		if null {
			continue // strict: no rows
		}
		if _, cols, err := b.bindColdefs(coldefs); err != nil {
			return nil, err
		} else if err := connectbyColumns(cols, branch, orderby); err != nil {
			return nil, err
		}
		rel, key, parent := texts[0], texts[1], texts[2]
		q := "SELECT " + key + ", " + parent + " FROM " + rel + " WHERE " + key + " IS NOT NULL AND " + key + " <> " + parent
		if orderby {
			q += " ORDER BY " + texts[3]
		}
		node, qcols, err := b.bindQueryText("connectby", q, f.Location)
		if err != nil {
			return nil, err
		}
		if b.connectbyRows == nil {
			b.connectbyRows = map[int32][]value.Type{}
		}
		b.connectbyRows[f.Location] = []value.Type{qcols[0].Type, qcols[1].Type}
		if !cloned {
			rf, cloned = proto.Clone(rf).(*pg_query.RangeFunction), true
			f = rf.Functions[i].GetList().GetItems()[0].GetFuncCall()
		}
		f.Args[0] = rowsArray(node, true, f.Location)
	}
	return rf, nil
}

// connectbyColumns checks a call's column definitions as PostgreSQL does
// before it reads the table.
func connectbyColumns(cols []value.Type, branch, serial bool) error {
	n := 3
	if branch {
		n++
	}
	if serial {
		n++
	}
	invalid := func(detail string) error {
		return pgerr.New(pgerr.DatatypeMismatch, "invalid return type").WithDetail("%s", detail)
	}
	switch {
	case len(cols) != n:
		return invalid("Query-specified return tuple has wrong number of columns.")
	case !sameTypeIgnoringTypmod(cols[0], cols[1]):
		return invalid("First two columns must be the same type.")
	case cols[2].Kind != value.Int4:
		return invalid("Third column must be type integer.")
	case branch && cols[3].Kind != value.Text:
		return invalid("Fourth column must be type text.")
	case serial && cols[n-1].Kind != value.Int4:
		which := "fourth"
		if branch {
			which = "fifth"
		}
		return pgerr.New(pgerr.DatatypeMismatch, "query-specified return tuple not valid for Connectby: %s column must be type integer", which)
	}
	return nil
}

// sameTypeIgnoringTypmod reports whether a and b are one type, as their
// object numbers compare: modifiers aside.
func sameTypeIgnoringTypmod(a, b value.Type) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch k := a.Kind; {
	case k == value.Record || k == value.Enum || k == value.UserRange || k == value.UserMultirange,
		k.IsArray() && (k.Elem() == value.Record || k.Elem() == value.Enum || k.Elem() == value.UserRange || k.Elem() == value.UserMultirange):
		return a.Mod == b.Mod
	}
	return true
}

// bindConnectby binds a connectby call whose relation name
// connectbyQueries replaced by its rows.
func (b *binder) bindConnectby(f *pg_query.FuncCall, coldefs []*pg_query.Node) (*expr.SRF, error) {
	loc := f.Location
	orderby, branch, ok := b.connectbyForm(f.Args)
	if !ok {
		args := make([]expr.Expr, len(f.Args))
		for i, a := range f.Args {
			e, err := b.bindExpr(b.argScope(), a)
			if err != nil {
				return nil, err
			}
			args[i] = e
		}
		return nil, pgerr.Wrap(expr.NoSuchFunction("connectby", args)).At(b.stmt.SQL, int(loc))
	}
	if len(coldefs) == 0 {
		return nil, b.stmt.errf(loc, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
	}
	names, cols, err := b.bindColdefs(coldefs)
	if err != nil {
		return nil, err
	}
	empty := &expr.SRF{Name: "connectby", Cols: cols, Names: names, Gen: func([]value.Value, func(value.Row) error) error { return nil }}
	args, null, err := b.strictArgs(f.Args)
	if err != nil {
		return nil, err
	}
	if null {
		return empty, nil // strict: a NULL argument gives no rows
	}
	sqlTypes := b.connectbyRows[loc]
	if sqlTypes == nil {
		return nil, b.refuse(loc, "connectby's relation name must be a constant")
	}
	first := 3
	if orderby {
		first = 4
	}
	start, depth := args[first], args[first+1]
	if start, err = b.coerce(start, value.TextType, loc); err != nil {
		return nil, err
	}
	if depth, err = b.coerce(depth, value.Int4Type, loc); err != nil {
		return nil, err
	}
	var delim expr.Expr
	if branch {
		if delim, err = b.coerce(args[first+2], value.TextType, loc); err != nil {
			return nil, err
		}
	}
	for _, def := range extSRFDefs(b.cat, "connectby") {
		if len(def.Params) == len(f.Args) && (len(f.Args) != 6 || (def.Params[4] == value.Int4) == branch) {
			b.usedExtensionFunc(def)
			break
		}
	}
	return expr.ConnectbySRF(args[0], start, depth, delim, cols, names, orderby, sqlTypes[1], connectbyMismatch(cols, sqlTypes), b.inputClock()), nil
}

// connectbyMismatch is PostgreSQL's error for the query's key and parent
// key types differing from the call's first two columns (its DETAIL
// names the call's type first), nil when they agree.
func connectbyMismatch(cols, sqlTypes []value.Type) error {
	for i, what := range []string{"key", "parent key"} {
		ret, sql := cols[i], sqlTypes[i]
		if !sameTypeIgnoringTypmod(ret, sql) || ret.Typmod() >= 0 && ret.Typmod() != sql.Typmod() {
			return pgerr.New(pgerr.DatatypeMismatch, "invalid return type").
				WithDetail("SQL %s field type %s does not match return %s field type %s.", what, ret, what, sql)
		}
	}
	return nil
}
