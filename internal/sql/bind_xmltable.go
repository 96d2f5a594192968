package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bindXMLTable binds XMLTABLE in FROM as a table function (expr.XMLTable):
// like a function call it may read the FROM items before it, and a view
// maintains it as it maintains unnest, a FlatMap of each input row. The
// checks PostgreSQL's parse analysis makes are made here, at their
// positions; a column's path defaults to its name.
func (b *binder) bindXMLTable(rt *pg_query.RangeTableFunc) (plan.Node, *scope, error) {
	s := b.argScope()
	text, xml := value.TextType, value.XMLType
	argNodes := []*pg_query.Node{rt.Rowexpr, rt.Docexpr}
	argTypes := []value.Type{text, xml}
	var prefixes []string
	seenNS, seenDefault := map[string]bool{}, false
	for _, n := range rt.Namespaces {
		r := n.GetResTarget()
		switch {
		case r.Name == "" && seenDefault:
			return nil, nil, b.stmt.errf(r.Location, pgerr.SyntaxError, "only one default namespace is allowed")
		case r.Name != "" && seenNS[r.Name]:
			return nil, nil, b.stmt.errf(r.Location, pgerr.SyntaxError, "namespace name \"%s\" is not unique", r.Name)
		}
		seenDefault = seenDefault || r.Name == ""
		seenNS[r.Name] = true
		prefixes = append(prefixes, r.Name)
		argNodes, argTypes = append(argNodes, r.Val), append(argTypes, text)
	}
	args, err := b.bindXMLArgs(s, argNodes, argTypes, "XMLTABLE")
	if err != nil {
		return nil, nil, err
	}
	var cols []expr.XMLTableColumn
	seen, ordinality := map[string]bool{}, false
	for _, n := range rt.Columns {
		rc := n.GetRangeTableFuncCol()
		if seen[rc.Colname] {
			return nil, nil, b.stmt.errf(rc.Location, pgerr.SyntaxError, "column name \"%s\" is not unique", rc.Colname)
		}
		seen[rc.Colname] = true
		if rc.ForOrdinality {
			if ordinality {
				return nil, nil, b.stmt.errf(rc.Location, pgerr.SyntaxError, "only one FOR ORDINALITY column is allowed")
			}
			ordinality = true
			cols = append(cols, expr.XMLTableColumn{Name: rc.Colname, Type: value.Int4Type, Ordinality: true})
			continue
		}
		c, colArgs, err := b.bindXMLTableColumn(s, rc)
		if err != nil {
			return nil, nil, err
		}
		cols = append(cols, c)
		args = append(args, colArgs...)
	}
	tf := &plan.TableFunc{Funcs: []*expr.SRF{expr.XMLTable(prefixes, args, cols)}}
	for _, c := range cols {
		tf.Cols = append(tf.Cols, plan.Column{Name: c.Name, Type: c.Type})
	}
	alias := "xmltable"
	if rt.Alias != nil {
		alias = rt.Alias.Aliasname
		if len(rt.Alias.Colnames) > len(tf.Cols) {
			return nil, nil, b.stmt.errf(-1, pgerr.InvalidColumnRef, "table \"%s\" has %d columns available but %d columns specified", alias, len(tf.Cols), len(rt.Alias.Colnames))
		}
		for i, c := range rt.Alias.Colnames {
			tf.Cols[i].Name = c.GetString_().Sval
		}
	}
	return tf, newScope(alias, tf.Columns()), nil
}

// bindXMLTableColumn binds a column of XMLTABLE other than the ordinal:
// its type, the conversion of text to it, and its path and default as the
// table function's arguments.
func (b *binder) bindXMLTableColumn(s *scope, rc *pg_query.RangeTableFuncCol) (expr.XMLTableColumn, []expr.Expr, error) {
	c := expr.XMLTableColumn{Name: rc.Colname, NotNull: rc.IsNotNull}
	t, err := b.typeFromName(rc.TypeName)
	if err != nil {
		return c, nil, err
	}
	c.Type = t
	if t.Kind != value.XML {
		// The type's input function, then its modifier as input applies
		// it: a too-long varchar is an error, not cut.
		base := value.Type{Kind: t.Kind, Mod: -1}
		conv, err := expr.Coerce(&expr.Col{Idx: 0, T: value.TextType}, base, true)
		if err == nil {
			conv, err = expr.Coerce(conv, t, false)
		}
		if err != nil {
			return c, nil, pgerr.Wrap(err).At(b.stmt.SQL, int(rc.Location))
		}
		if d, _ := b.typeDomain(rc.TypeName); d != nil {
			conv = &expr.DomainCheck{E: conv, Domain: d}
		}
		c.Convert = conv
	}
	path := expr.Expr(&expr.Const{V: value.NewText(value.Text, rc.Colname), T: value.TextType})
	if rc.Colexpr != nil {
		p, err := b.bindXMLArgs(s, []*pg_query.Node{rc.Colexpr}, []value.Type{value.TextType}, "XMLTABLE")
		if err != nil {
			return c, nil, err
		}
		path = p[0]
	}
	def := expr.Expr(&expr.Const{V: value.Null, T: t})
	if rc.Coldefexpr != nil {
		d, err := b.bindXMLArgs(s, []*pg_query.Node{rc.Coldefexpr}, []value.Type{t}, "XMLTABLE")
		if err != nil {
			return c, nil, err
		}
		def = d[0]
	}
	return c, []expr.Expr{path, def}, nil
}
