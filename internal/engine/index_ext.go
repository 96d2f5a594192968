package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// keyExt is what an index keys beyond a list of columns: expressions
// (lower(email)), a predicate that chooses the rows it holds (a partial
// index), NULLs that do not differ from each other (NULLS NOT DISTINCT),
// and the INCLUDE columns it only stores. An index with expressions or
// a predicate is evaluated on each write, as PostgreSQL evaluates it (its
// errors fail the write); a unique one is enforced, and every one orders
// the rows by its computed key for the WHERE that names it (exprpath.go).
type keyExt struct {
	exprs  []expr.Expr // per key element, nil where the element is a column
	keySQL []string    // per key element, as pg_get_indexdef prints it pretty
	where  expr.Expr
	// whereSQL is the predicate's text, whereConj its conjuncts'.
	whereSQL  string
	whereConj []string
	include   []int
	nulls     bool // NULLS NOT DISTINCT
}

func newKeyExt(ci *sql.CreateIndex) *keyExt {
	if ci.Exprs == nil && ci.Where == nil && ci.Include == nil && !ci.NullsNotDistinct {
		return nil
	}
	return &keyExt{exprs: ci.Exprs, keySQL: ci.KeySQL, where: ci.Where, whereSQL: ci.WhereSQL,
		whereConj: ci.WhereConj, include: ci.Include, nulls: ci.NullsNotDistinct}
}

// ordered reports whether an index of x keeps the ordered index of its
// key columns (its key is columns only, over every row).
func (x *keyExt) ordered() bool { return x == nil || x.exprs == nil && x.where == nil }

// holds evaluates the predicate over row: false for a row the index
// does not hold.
func (x *keyExt) holds(row value.Row) (bool, error) {
	if x.where == nil {
		return true, nil
	}
	v, err := x.where.Eval(row)
	if err != nil {
		return false, err
	}
	return !v.IsNull() && v.Bool(), nil
}

// elem returns key element i of row.
func (x *keyExt) elem(cols []int, i int, row value.Row) (value.Value, error) {
	if x.exprs != nil && x.exprs[i] != nil {
		return x.exprs[i].Eval(row)
	}
	return row[cols[i]], nil
}

// check evaluates the index's predicate and expressions over row, for
// the errors they raise (division by zero…), as PostgreSQL's write of
// the index entry would.
func (x *keyExt) check(cols []int, row value.Row) error {
	if x.exprs == nil && x.where == nil {
		return nil
	}
	ok, err := x.holds(row)
	if err != nil || !ok {
		return err
	}
	for i := range cols {
		if _, err := x.elem(cols, i, row); err != nil {
			return err
		}
	}
	return nil
}

// extend makes u, still empty, key by x: by encoded keys, which the
// integer maps do not hold.
func (u *uniqueIndex) extend(x *keyExt) {
	u.x, u.ints, u.pair, u.m = x, nil, false, map[string]uint64{}
}

// extKey is uniqueIndex.key for an index with a keyExt: ok=false for a
// row the predicate leaves out, or with a NULL in its key unless NULLs
// are not distinct. An expression's error (which check reports before
// the write) leaves the row out.
func (u *uniqueIndex) extKey(row value.Row, buf []byte) ([]byte, bool) {
	x := u.x
	if ok, err := x.holds(row); err != nil || !ok {
		return nil, false
	}
	for i := range u.cols {
		v, err := x.elem(u.cols, i, row)
		if err != nil {
			return nil, false
		}
		if v.IsNull() {
			if !x.nulls {
				return nil, false
			}
			buf = append(buf, 0) // NULL: a byte no encoded value starts with
			continue
		}
		if u.colls != nil && u.colls[i] != 0 && (x.exprs == nil || x.exprs[i] == nil) {
			v = v.Collated(u.colls[i]) // a column's, or its element's, nondeterministic collation
		}
		buf = append(buf, 1)
		buf = value.AppendKey(buf, v)
	}
	return buf, true
}

// extViolation is uniqueViolation for an index with a keyExt: its key's
// elements as written, with their values over row.
func (u *uniqueIndex) extViolation(t *table, row value.Row) error {
	names := make([]string, len(u.cols))
	vals := make([]string, len(u.cols))
	for i, c := range u.cols {
		if u.x.keySQL != nil {
			names[i] = u.x.keySQL[i]
		} else {
			names[i] = expr.QuoteIdent(t.cols[c].Name)
		}
		v, _ := u.x.elem(u.cols, i, row)
		if v.IsNull() {
			vals[i] = "null"
		} else {
			vals[i] = string(value.AppendText(nil, v))
		}
	}
	return t.constraintError(&pgerr.Error{Code: pgerr.UniqueViolation,
		Message: fmt.Sprintf("duplicate key value violates unique constraint %q", t.bare(u.name)),
		Detail:  fmt.Sprintf("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))}, u.name)
}

// checkExt evaluates t's expression and partial indexes over row (see
// keyExt.check).
func (t *table) checkExt(row value.Row) error {
	for _, ix := range t.xindexes {
		if err := ix.x.check(ix.cols, row); err != nil {
			return err
		}
	}
	return nil
}

// indexDef is pg_get_indexdef's text of an index whose statement begins
// with head, its key's elements written by elem and followed by opts
// (none when nil), plain or pretty (as psql's \d asks for it).
func (x *keyExt) indexDef(head string, n int, elem func(int) string, opts []string, colName func(int) string, pretty bool) string {
	return x.indexDefPG(nil, head, n, elem, opts, colName, pretty)
}

// indexDefPG is indexDef with the key's expressions and the predicate
// printed as PostgreSQL's deparser prints them over the columns texts
// knows (kept as written where it cannot say, or when texts is nil):
// an expression in parentheses unless it looks like a call.
func (x *keyExt) indexDefPG(texts *exprTexts, head string, n int, elem func(int) string, opts []string, colName func(int) string, pretty bool) string {
	parts := make([]string, n)
	for i := range parts {
		if x == nil || x.exprs == nil || x.exprs[i] == nil {
			parts[i] = elem(i)
		} else if s, ok := texts.printed(x.keySQL[i], pretty); ok {
			parts[i] = s
			if exprColName(s) == "expr" {
				parts[i] = "(" + s + ")"
			}
		} else {
			parts[i] = x.keySQL[i]
			if !pretty && strings.HasPrefix(parts[i], "(") {
				parts[i] = "(" + parts[i] + ")"
			}
		}
		if opts != nil {
			parts[i] += opts[i]
		}
	}
	def := head + " (" + strings.Join(parts, ", ") + ")"
	if x == nil {
		return def
	}
	if x.include != nil {
		names := make([]string, len(x.include))
		for i, c := range x.include {
			names[i] = colName(c)
		}
		def += " INCLUDE (" + strings.Join(names, ", ") + ")"
	}
	if x.nulls {
		def += " NULLS NOT DISTINCT"
	}
	if x.where != nil {
		if s, ok := texts.printed(x.whereSQL, pretty); ok {
			return def + " WHERE " + s
		}
		if pretty {
			def += " WHERE " + x.whereSQL
		} else {
			def += " WHERE (" + x.whereSQL + ")"
		}
	}
	return def
}

// exprColName is the name PostgreSQL gives an index column that is the
// expression keySQL: a function call's function name, else "expr".
func exprColName(keySQL string) string {
	i := strings.IndexByte(keySQL, '(')
	if i <= 0 || !strings.HasSuffix(keySQL, ")") {
		return "expr"
	}
	name := keySQL[:i]
	if strings.ContainsAny(name, ` "'`) {
		return "expr"
	}
	if j := strings.LastIndexByte(name, '.'); j >= 0 {
		name = name[j+1:]
	}
	// The call must span keySQL: "f(a) + g(b)" is an expression.
	depth := 0
	for k := i; k < len(keySQL); k++ {
		switch keySQL[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && k != len(keySQL)-1 {
				return "expr"
			}
		}
	}
	return strings.ToLower(name)
}

// uniqueColNames numbers the repeats of an index's column names as
// PostgreSQL does: expr, expr1, expr2.
func uniqueColNames(cols []catCol) {
	seen := map[string]bool{}
	for i := range cols {
		name := cols[i].name
		for n := 1; seen[name]; n++ {
			name = cols[i].name + strconv.Itoa(n)
		}
		seen[name] = true
		cols[i].name = name
	}
}
