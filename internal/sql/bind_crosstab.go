package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// tablefunc's crosstab(source [, categories | , n]) and crosstabN(source)
// read the rows of queries given as text. Each text must be a constant:
// before the call is bound, crosstabQueries binds it as a query of its own
// and puts the array of its rows in its place (records of the source's
// columns, the categories' values), as ts_stat's query is; bindCrosstab
// then binds the call over them (expr.CrosstabSRF). A view refuses it:
// the texts read tables the view cannot track.

// isCrosstab reports whether f is a marked call of crosstab or crosstabN.
func isCrosstab(f *pg_query.FuncCall) bool {
	if f == nil || !isExtSRF(f) {
		return false
	}
	switch opName(f.Funcname) {
	case "crosstab", "crosstab2", "crosstab3", "crosstab4":
		return true
	}
	return false
}

// crosstabQueries returns rf with the query texts of its crosstab calls
// replaced by the arrays of their rows, or rf itself when it calls none.
func (b *binder) crosstabQueries(rf *pg_query.RangeFunction) (*pg_query.RangeFunction, error) {
	cloned := false
	for i, item := range rf.Functions {
		f := item.GetList().GetItems()[0].GetFuncCall()
		if !isCrosstab(f) || len(f.Args) == 0 {
			continue
		}
		name := opName(f.Funcname)
		if b.forView {
			return nil, b.refuse(f.Location, "%s cannot be maintained in a view: it reads tables through a query text the view cannot track", name).
				WithHint("join the tables in the view's query and aggregate with FILTER: max(value) FILTER (WHERE category = 'a')")
		}
		texts := 1
		if len(f.Args) == 2 {
			if _, _, ok := constantText(f.Args[1]); ok {
				texts = 2 // crosstab(source, categories); crosstab(source, n) ignores n
			}
		}
		var repl []*pg_query.Node
		for k := 0; k < texts; k++ {
			text, null, ok := constantText(f.Args[k])
			if !ok {
				return nil, b.refuse(f.Location, "%s's query text must be a constant", name)
			}
			if null {
				repl = append(repl, f.Args[k])
				continue
			}
			node, cols, err := b.bindQueryText(name, text, f.Location)
			if err != nil {
				return nil, err
			}
			switch {
			case k == 0 && texts == 1 && len(cols) != 3:
				return nil, b.stmt.errf(-1, pgerr.InvalidParameter, "invalid source data SQL statement").
					WithDetail("The provided SQL must return 3 columns: rowid, category, and values.")
			case k == 0 && len(cols) < 3:
				return nil, b.stmt.errf(-1, pgerr.InvalidParameter, "invalid source data SQL statement").
					WithDetail("The provided SQL must return 3  columns; rowid, category, and values.")
			case k == 1 && len(cols) != 1:
				return nil, b.stmt.errf(-1, pgerr.SyntaxError, "provided \"categories\" SQL must return 1 column of at least one row")
			case k == 0:
				if err := b.crosstabTypes(rf, f, name, cols, texts == 2); err != nil {
					return nil, err
				}
			}
			repl = append(repl, rowsArray(node, k == 0, f.Location))
		}
		if !cloned {
			rf, cloned = proto.Clone(rf).(*pg_query.RangeFunction), true
			f = rf.Functions[i].GetList().GetItems()[0].GetFuncCall()
		}
		copy(f.Args, repl)
		if texts == 1 && len(f.Args) == 2 {
			f.Args = f.Args[:1]
		}
	}
	return rf, nil
}

// bindCrosstab binds a crosstab call whose texts crosstabQueries replaced,
// with the column definition list coldefs (crosstabN: row_name and
// category_1…N, of text).
func (b *binder) bindCrosstab(f *pg_query.FuncCall, coldefs []*pg_query.Node) (*expr.SRF, error) {
	name, loc := opName(f.Funcname), f.Location
	var names []string
	var cols []value.Type
	if name == "crosstab" {
		if len(coldefs) == 0 {
			return nil, b.stmt.errf(loc, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
		}
		var err error
		if names, cols, err = b.bindColdefs(coldefs); err != nil {
			return nil, err
		}
	} else {
		if len(coldefs) > 0 {
			return nil, b.stmt.errf(coldefLoc(coldefs), pgerr.SyntaxError, "a column definition list is redundant for a function returning a named composite type")
		}
		n := int(name[len(name)-1] - '0')
		names, cols = []string{"row_name"}, []value.Type{value.TextType}
		for i := 1; i <= n; i++ {
			names, cols = append(names, fmt.Sprintf("category_%d", i)), append(cols, value.TextType)
		}
	}
	empty := &expr.SRF{Name: name, Cols: cols, Names: names, Gen: func([]value.Value, func(value.Row) error) error { return nil }}
	args, null, err := b.strictArgs(f.Args)
	if err != nil {
		return nil, err
	}
	if null {
		return empty, nil // strict: a NULL text gives no rows
	}
	if len(args) == 0 || len(args) > 2 || !args[0].Type().Kind.IsArray() {
		return nil, pgerr.Wrap(expr.NoSuchFunction(name, args)).At(b.stmt.SQL, int(loc))
	}
	var cats expr.Expr
	if len(args) == 2 {
		cats = args[1]
	}
	for _, d := range extSRFDefs(b.cat, name) {
		if len(d.Params) == len(f.Args) && (cats == nil || d.Params[len(d.Params)-1] == value.Text) {
			b.usedExtensionFunc(d)
			break
		}
	}
	return expr.CrosstabSRF(name, args[0], cats, cols, names, b.inputClock()), nil
}

// crosstabTypes checks the source query's columns src against the
// columns the call returns, as PostgreSQL does: the row name's type, and
// without categories the values' type; with them, the number of columns
// is checked when the categories are read (expr.CrosstabSRF).
func (b *binder) crosstabTypes(rf *pg_query.RangeFunction, f *pg_query.FuncCall, name string, src []plan.Column, withCats bool) error {
	var cols []value.Type
	if name == "crosstab" {
		coldefs := rf.Coldeflist
		for _, item := range rf.Functions {
			if items := item.GetList().GetItems(); items[0].GetFuncCall() == f && len(items) > 1 && items[1] != nil && items[1].GetList() != nil {
				coldefs = items[1].GetList().Items
			}
		}
		if len(coldefs) == 0 {
			return nil // bindCrosstab reports it
		}
		var err error
		if _, cols, err = b.bindColdefs(coldefs); err != nil {
			return err
		}
	} else {
		cols = make([]value.Type, int(name[len(name)-1]-'0')+1)
		for i := range cols {
			cols[i] = value.TextType
		}
	}
	if src[0].Type.Kind != cols[0].Kind {
		return b.stmt.errf(-1, pgerr.DatatypeMismatch, "invalid return type").
			WithDetail("SQL rowid datatype does not match return rowid datatype.")
	}
	if !withCats && (len(cols) < 2 || !sameKinds(cols[1:], src[2].Type.Kind)) {
		return b.stmt.errf(-1, pgerr.SyntaxError, "return and sql tuple descriptions are incompatible")
	}
	return nil
}

// sameKinds reports whether every type of ts is of kind k.
func sameKinds(ts []value.Type, k value.Kind) bool {
	for _, t := range ts {
		if t.Kind != k {
			return false
		}
	}
	return true
}

// strictArgs binds the arguments of a call to a strict function; null
// reports one that is the NULL constant, for which the call gives no
// rows (the arguments after it are then not bound).
func (b *binder) strictArgs(list []*pg_query.Node) (args []expr.Expr, null bool, err error) {
	args = make([]expr.Expr, len(list))
	for i, a := range list {
		e, err := b.bindExpr(b.argScope(), a)
		if err != nil {
			return nil, false, err
		}
		if c, ok := e.(*expr.Const); ok && c.V.IsNull() {
			return nil, true, nil
		}
		args[i] = e
	}
	return args, false, nil
}
