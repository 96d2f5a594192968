package engine

import (
	"fmt"
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The rewrite of a statement by its target's rules follows PostgreSQL's
// rewriter (fireRules, rewriteRuleAction, CopyAndAddInvertedQual) on the
// statement's tree rather than on a query tree. NEW and OLD become the
// columns of one derived table, "*rule*", that the original statement's
// FROM, USING and WHERE compute: OLD's columns o1…, NEW's n1… (an
// INSERT's source with the columns it leaves out at their defaults, an
// UPDATE's SET expressions over the row), each cast to its column's
// type. Each action is joined with it, and gets the rule's condition, as
// PostgreSQL joins the action with the original's range table and
// quals; an action that reads neither NEW, OLD nor anything the original
// restricts runs once. The original runs unless an unconditional INSTEAD
// rule replaces it, with the negation of each conditional INSTEAD rule's
// condition (cond IS NOT TRUE) added; it runs after the actions of an
// UPDATE or DELETE and before those of an INSERT, as in PostgreSQL.

// ruleSource is where a statement of a rewrite comes from: PostgreSQL's
// QuerySource.
type ruleSource int8

const (
	srcOriginal    ruleSource = iota // the statement, or it with inverted conditions
	srcAlso                          // an action of a rule without INSTEAD
	srcInstead                       // an action of an unconditional INSTEAD rule
	srcQualInstead                   // an action of a conditional INSTEAD rule
)

// ruleProduct is one statement a rewrite gives.
type ruleProduct struct {
	node  *pg_query.Node
	src   ruleSource
	event byte // the statement's command: sql.RuleInsert, …; 0 for SELECT
	// returning marks the action whose RETURNING gives the original's.
	returning bool
}

// ruleRewrite is the rewrite of one statement on a relation with rules.
type ruleRewrite struct {
	table     string
	event     byte
	cols      []string
	types     []*pg_query.TypeName
	defaults  []*pg_query.Node // nil: NULL
	orig      *pg_query.Node
	tref      string           // the name the statement gives its target
	newExpr   []*pg_query.Node // UPDATE: per column the SET expression, nil for none
	srcCols   []int            // INSERT: per column its position in the source, -1 for none
	srcWidth  int              // INSERT: the source's columns
	derived   *pg_query.Node   // the SELECT that computes OLD and NEW
	restricts bool             // the original has a WHERE, FROM or USING
	// instead is set by an unconditional INSTEAD rule; qual by the
	// inverted conditions of conditional ones.
	instead bool
	quals   []*pg_query.Node
	// view is set when the target is a view; hasUpdateRules when it has
	// rules ON UPDATE (which ON CONFLICT would bypass).
	view, hasUpdateRules bool
}

// ruleAlias is the derived table's name in the statements a rewrite
// gives.
const ruleAlias = "*rule*"

// walkNodes calls fn on every Node of the tree under n, n first; fn may
// replace the content of the Node it is given.
func walkNodes(n *pg_query.Node, fn func(*pg_query.Node)) {
	if n == nil {
		return
	}
	walkMsg(n.ProtoReflect(), fn)
}

func walkMsg(m protoreflect.Message, fn func(*pg_query.Node)) {
	if nd, ok := m.Interface().(*pg_query.Node); ok {
		fn(nd)
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap() || fd.Message() == nil:
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walkMsg(l.Get(i).Message(), fn)
			}
		default:
			walkMsg(v.Message(), fn)
		}
		return true
	})
}

func clone(n *pg_query.Node) *pg_query.Node {
	if n == nil {
		return nil
	}
	return proto.Clone(n).(*pg_query.Node)
}

func strNode(s string) *pg_query.Node { return pg_query.MakeStrNode(s) }

func colRef(parts ...string) *pg_query.Node {
	fields := make([]*pg_query.Node, len(parts))
	for i, p := range parts {
		fields[i] = strNode(p)
	}
	return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{Fields: fields, Location: -1}}}
}

func castNode(n *pg_query.Node, t *pg_query.TypeName) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{Arg: n, TypeName: proto.Clone(t).(*pg_query.TypeName), Location: -1}}}
}

func andNode(a, b *pg_query.Node) *pg_query.Node {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: &pg_query.BoolExpr{Boolop: pg_query.BoolExprType_AND_EXPR, Args: []*pg_query.Node{a, b}, Location: -1}}}
}

func notTrue(n *pg_query.Node) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_BooleanTest{BooleanTest: &pg_query.BooleanTest{Arg: n, Booltesttype: pg_query.BoolTestType_IS_NOT_TRUE, Location: -1}}}
}

func resTarget(name string, val *pg_query.Node) *pg_query.Node {
	return &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Name: name, Val: val, Location: -1}}}
}

// parseExpr parses an expression's text.
func parseExpr(text string) (*pg_query.Node, error) {
	tree, err := pg_query.Parse("SELECT " + text)
	if err != nil {
		return nil, err
	}
	return tree.Stmts[0].Stmt.GetSelectStmt().TargetList[0].GetResTarget().Val, nil
}

// ruleRefuse is the 0A000 of a statement shape a rewrite does not take.
func ruleRefuse(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.FeatureNotSupported, format, args...)
}

// newRuleRewrite prepares the rewrite of orig, a statement on table for
// event.
func (e *Engine) newRuleRewrite(table string, event byte, orig *pg_query.Node) (*ruleRewrite, error) {
	rw := &ruleRewrite{table: table, event: event, orig: orig, hasUpdateRules: len(e.rulesFor(table, sql.RuleUpdate)) > 0}
	if t, ok := e.tables[table]; ok {
		for _, c := range t.def.Cols {
			rw.cols = append(rw.cols, c.Name)
			typ := c.Type.String()
			if c.Domain != nil {
				typ = expr.QuoteIdent(c.Domain.Name())
			}
			if err := rw.addType(typ); err != nil {
				return nil, err
			}
			def := c.DefaultSQL
			if seq := c.OwnedSequence(); def == "" && seq != "" {
				def = sql.SerialDefault(seq)
			}
			if err := rw.addDefault(def); err != nil {
				return nil, err
			}
		}
	} else if v, ok := e.named[table]; ok {
		rw.view = true
		for i, c := range v.cols {
			rw.cols = append(rw.cols, c.Name)
			if err := rw.addType(c.Type.String()); err != nil {
				return nil, err
			}
			def := ""
			if i < len(v.defaultTexts) {
				def = v.defaultTexts[i]
			}
			if err := rw.addDefault(def); err != nil {
				return nil, err
			}
		}
	} else {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", table)
	}
	return rw, nil
}

func (rw *ruleRewrite) addType(typ string) error {
	n, err := parseExpr("NULL::" + typ)
	if err != nil {
		return err
	}
	rw.types = append(rw.types, n.GetTypeCast().TypeName)
	return nil
}

func (rw *ruleRewrite) addDefault(def string) error {
	if def == "" {
		rw.defaults = append(rw.defaults, nil)
		return nil
	}
	n, err := parseExpr(def)
	if err != nil {
		return err
	}
	rw.defaults = append(rw.defaults, n)
	return nil
}

func (rw *ruleRewrite) col(name string) int {
	for i, c := range rw.cols {
		if c == name {
			return i
		}
	}
	return -1
}

// defaultOf is column i's default, cast to its type.
func (rw *ruleRewrite) defaultOf(i int) *pg_query.Node {
	d := rw.defaults[i]
	if d == nil {
		d = &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: -1}}}
	}
	return castNode(clone(d), rw.types[i])
}

// prepare reads the original statement: its target's name, its SET
// expressions, its source, and builds the derived table of OLD and NEW.
// width gives the number of columns of an INSERT's SELECT.
func (rw *ruleRewrite) prepare(width func(*pg_query.Node) (int, error)) error {
	from := []*pg_query.Node{}
	sel := &pg_query.SelectStmt{}
	switch rw.event {
	case sql.RuleInsert:
		ins := rw.orig.GetInsertStmt()
		rw.restricts = true
		rw.srcCols = make([]int, len(rw.cols))
		for i := range rw.srcCols {
			rw.srcCols[i] = -1
		}
		if len(ins.Cols) > 0 {
			for j, c := range ins.Cols {
				rt := c.GetResTarget()
				if len(rt.Indirection) > 0 {
					return ruleRefuse("INSERT into a subfield or an array element of a relation with rules is not supported")
				}
				i := rw.col(rt.Name)
				if i < 0 {
					return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", rt.Name, rw.table)
				}
				rw.srcCols[i] = j
			}
			rw.srcWidth = len(ins.Cols)
		}
		src := ins.SelectStmt
		if src != nil {
			s := src.GetSelectStmt()
			if len(s.ValuesLists) > 0 {
				if rw.srcWidth == 0 {
					rw.srcWidth = len(s.ValuesLists[0].GetList().Items)
					for i := 0; i < rw.srcWidth && i < len(rw.cols); i++ {
						rw.srcCols[i] = i
					}
				}
				// DEFAULT in a VALUES row is its column's default.
				for _, row := range s.ValuesLists {
					for j, it := range row.GetList().Items {
						if it.GetSetToDefault() != nil {
							for i, p := range rw.srcCols {
								if p == j {
									it.Node = rw.defaultOf(i).Node
								}
							}
							if it.GetSetToDefault() != nil {
								it.Node = &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: -1}}
							}
						}
					}
				}
			} else if rw.srcWidth == 0 {
				w, err := width(src)
				if err != nil {
					return err
				}
				rw.srcWidth = w
				for i := 0; i < w && i < len(rw.cols); i++ {
					rw.srcCols[i] = i
				}
			}
			if ins.WithClause != nil {
				if s.WithClause != nil {
					return ruleRefuse("INSERT with WITH on both the statement and its query, on a relation with rules, is not supported")
				}
				s.WithClause = ins.WithClause
				ins.WithClause = nil
			}
			names := make([]*pg_query.Node, rw.srcWidth)
			for j := range names {
				names[j] = strNode("c" + strconv.Itoa(j+1))
			}
			from = append(from, &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
				Subquery: src, Alias: &pg_query.Alias{Aliasname: "*src*", Colnames: names}}}})
		}
		for i := range rw.cols {
			v := rw.defaultOf(i)
			if rw.srcCols[i] >= 0 {
				v = castNode(colRef("*src*", "c"+strconv.Itoa(rw.srcCols[i]+1)), rw.types[i])
			}
			sel.TargetList = append(sel.TargetList, resTarget("n"+strconv.Itoa(i+1), v))
		}
	case sql.RuleUpdate:
		up := rw.orig.GetUpdateStmt()
		rw.tref = up.Relation.Relname
		if up.Relation.Alias != nil {
			rw.tref = up.Relation.Alias.Aliasname
		}
		rw.newExpr = make([]*pg_query.Node, len(rw.cols))
		for _, t := range up.TargetList {
			rt := t.GetResTarget()
			if len(rt.Indirection) > 0 {
				return ruleRefuse("UPDATE of a subfield or an array element of a relation with rules is not supported")
			}
			i := rw.col(rt.Name)
			if i < 0 {
				return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", rt.Name, rw.table)
			}
			v := rt.Val
			if m := v.GetMultiAssignRef(); m != nil {
				row := m.Source.GetRowExpr()
				if row == nil || int(m.Colno) > len(row.Args) {
					return ruleRefuse("UPDATE … SET (…) = (SELECT …) on a relation with rules is not supported")
				}
				v = row.Args[m.Colno-1]
			}
			if v.GetSetToDefault() != nil {
				rw.newExpr[i] = rw.defaultOf(i)
				continue
			}
			rw.newExpr[i] = castNode(clone(v), rw.types[i])
		}
		if up.WhereClause.GetCurrentOfExpr() != nil {
			return ruleRefuse("WHERE CURRENT OF on a relation with rules is not supported")
		}
		rw.restricts = up.WhereClause != nil || len(up.FromClause) > 0
		from = append(from, &pg_query.Node{Node: &pg_query.Node_RangeVar{RangeVar: proto.Clone(up.Relation).(*pg_query.RangeVar)}})
		for _, f := range up.FromClause {
			from = append(from, clone(f))
		}
		sel.WhereClause, sel.WithClause = clone(up.WhereClause), cloneWith(up.WithClause)
		for i, c := range rw.cols {
			sel.TargetList = append(sel.TargetList, resTarget("o"+strconv.Itoa(i+1), colRef(rw.tref, c)))
		}
		for i, c := range rw.cols {
			v := rw.newExpr[i]
			if v == nil {
				v = colRef(rw.tref, c)
			}
			sel.TargetList = append(sel.TargetList, resTarget("n"+strconv.Itoa(i+1), clone(v)))
		}
	case sql.RuleDelete:
		del := rw.orig.GetDeleteStmt()
		rw.tref = del.Relation.Relname
		if del.Relation.Alias != nil {
			rw.tref = del.Relation.Alias.Aliasname
		}
		if del.WhereClause.GetCurrentOfExpr() != nil {
			return ruleRefuse("WHERE CURRENT OF on a relation with rules is not supported")
		}
		rw.restricts = del.WhereClause != nil || len(del.UsingClause) > 0
		from = append(from, &pg_query.Node{Node: &pg_query.Node_RangeVar{RangeVar: proto.Clone(del.Relation).(*pg_query.RangeVar)}})
		for _, f := range del.UsingClause {
			from = append(from, clone(f))
		}
		sel.WhereClause, sel.WithClause = clone(del.WhereClause), cloneWith(del.WithClause)
		for i, c := range rw.cols {
			sel.TargetList = append(sel.TargetList, resTarget("o"+strconv.Itoa(i+1), colRef(rw.tref, c)))
		}
	}
	sel.FromClause = from
	rw.derived = &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Subquery: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}}, Alias: &pg_query.Alias{Aliasname: ruleAlias}}}}
	return nil
}

func cloneWith(w *pg_query.WithClause) *pg_query.WithClause {
	if w == nil {
		return nil
	}
	return proto.Clone(w).(*pg_query.WithClause)
}

// refersNewOld reports whether the tree under n names NEW or OLD.
func refersNewOld(n *pg_query.Node) bool {
	found := false
	walkNodes(n, func(m *pg_query.Node) {
		if c := m.GetColumnRef(); c != nil && len(c.Fields) >= 1 {
			if s := c.Fields[0].GetString_(); s != nil && (s.Sval == "new" || s.Sval == "old") {
				found = true
			}
		}
	})
	return found
}

// substitute replaces, in the tree under n, each NEW.c and OLD.c by
// what repl gives for it; NEW.* and OLD.* in a target list become a
// column each.
func (rw *ruleRewrite) substitute(n *pg_query.Node, repl func(isNew bool, i int) *pg_query.Node) error {
	var err error
	walkNodes(n, func(m *pg_query.Node) {
		if err != nil {
			return
		}
		if sel := m.GetSelectStmt(); sel != nil {
			sel.TargetList = rw.expandStar(sel.TargetList)
		}
		if ins := m.GetInsertStmt(); ins != nil {
			ins.ReturningList = rw.expandStar(ins.ReturningList)
		}
		if row := m.GetRowExpr(); row != nil {
			row.Args = rw.expandStarExprs(row.Args)
		}
		if l := m.GetList(); l != nil {
			l.Items = rw.expandStarExprs(l.Items)
		}
		c := m.GetColumnRef()
		if c == nil || len(c.Fields) < 2 {
			return
		}
		s := c.Fields[0].GetString_()
		if s == nil || (s.Sval != "new" && s.Sval != "old") {
			return
		}
		isNew := s.Sval == "new"
		switch {
		case isNew && rw.event == sql.RuleDelete:
			err = pgerr.New(pgerr.InvalidObjectDef, "ON DELETE rule cannot use NEW")
			return
		case !isNew && rw.event == sql.RuleInsert:
			err = pgerr.New(pgerr.InvalidObjectDef, "ON INSERT rule cannot use OLD")
			return
		}
		name := c.Fields[1].GetString_()
		if name == nil {
			err = ruleRefuse("%s.* outside a target list in a rule is not supported", s.Sval)
			return
		}
		i := rw.col(name.Sval)
		if i < 0 {
			err = pgerr.New(pgerr.UndefinedColumn, "column %s.%s does not exist", s.Sval, name.Sval)
			return
		}
		r := repl(isNew, i)
		if len(c.Fields) > 2 { // a field of a composite column
			r = &pg_query.Node{Node: &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{Arg: r, Indirection: c.Fields[2:]}}}
		}
		m.Node = r.Node
	})
	return err
}

// starOf reports whether n is NEW.* or OLD.*, and which.
func starOf(n *pg_query.Node) (string, bool) {
	c := n.GetColumnRef()
	if c == nil || len(c.Fields) != 2 || c.Fields[1].GetAStar() == nil {
		return "", false
	}
	s := c.Fields[0].GetString_()
	if s == nil || (s.Sval != "new" && s.Sval != "old") {
		return "", false
	}
	return s.Sval, true
}

func (rw *ruleRewrite) expandStar(list []*pg_query.Node) []*pg_query.Node {
	var out []*pg_query.Node
	for _, t := range list {
		rt := t.GetResTarget()
		if rt == nil {
			out = append(out, t)
			continue
		}
		which, ok := starOf(rt.Val)
		if !ok {
			out = append(out, t)
			continue
		}
		for _, c := range rw.cols {
			out = append(out, resTarget("", colRef(which, c)))
		}
	}
	return out
}

func (rw *ruleRewrite) expandStarExprs(list []*pg_query.Node) []*pg_query.Node {
	var out []*pg_query.Node
	for _, t := range list {
		which, ok := starOf(t)
		if !ok {
			out = append(out, t)
			continue
		}
		for _, c := range rw.cols {
			out = append(out, colRef(which, c))
		}
	}
	return out
}

// inDerived is NEW.c or OLD.c as a column of the derived table.
func inDerived(isNew bool, i int) *pg_query.Node {
	p := "o"
	if isNew {
		p = "n"
	}
	return colRef(ruleAlias, p+strconv.Itoa(i+1))
}

// inOriginal is NEW.c or OLD.c in the original statement's own terms,
// for the conditions added to it.
func (rw *ruleRewrite) inOriginal(isNew bool, i int) *pg_query.Node {
	switch {
	case rw.event == sql.RuleInsert:
		if rw.srcCols[i] >= 0 {
			return castNode(colRef("*src*", "c"+strconv.Itoa(rw.srcCols[i]+1)), rw.types[i])
		}
		return rw.defaultOf(i)
	case isNew && rw.newExpr[i] != nil:
		return clone(rw.newExpr[i])
	}
	return colRef(rw.tref, rw.cols[i])
}

// action returns the statement one action of r gives.
func (rw *ruleRewrite) action(r *rule, a *pg_query.Node) (*pg_query.Node, error) {
	a = clone(a)
	if a.GetNotifyStmt() != nil {
		// A utility statement reads no row: it runs once, as is, as
		// PostgreSQL's rewriter keeps it (a rule with one has no WHERE).
		return a, nil
	}
	if sel := a.GetSelectStmt(); sel != nil {
		nameTargets(sel.TargetList)
	}
	qual := clone(r.where)
	join := rw.restricts || refersNewOld(a) || refersNewOld(qual)
	if err := rw.substitute(a, inDerived); err != nil {
		return nil, err
	}
	if err := rw.substitute(qual, inDerived); err != nil {
		return nil, err
	}
	var derived []*pg_query.Node
	if join {
		derived = []*pg_query.Node{clone(rw.derived)}
	}
	switch {
	case a.GetInsertStmt() != nil:
		ins := a.GetInsertStmt()
		if ins.SelectStmt == nil {
			if join || qual != nil {
				return nil, ruleRefuse("INSERT … DEFAULT VALUES in a rule action that reads NEW, OLD or the statement's rows is not supported")
			}
			return a, nil
		}
		s := ins.SelectStmt.GetSelectStmt()
		if len(s.ValuesLists) > 1 && (join || qual != nil) {
			return nil, ruleRefuse("multi-row VALUES in a rule action is not supported")
		}
		if s.Op != pg_query.SetOperation_SETOP_NONE && (join || qual != nil) {
			return nil, ruleRefuse("a set operation in a rule action's INSERT is not supported")
		}
		if len(s.ValuesLists) == 1 {
			row := s.ValuesLists[0].GetList().Items
			ns := &pg_query.SelectStmt{WithClause: s.WithClause}
			for _, v := range row {
				if v.GetSetToDefault() != nil {
					return nil, ruleRefuse("DEFAULT in a rule action's VALUES is not supported")
				}
				ns.TargetList = append(ns.TargetList, resTarget("", v))
			}
			s = ns
			ins.SelectStmt = &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: s}}
		}
		s.FromClause = append(s.FromClause, derived...)
		s.WhereClause = andNode(s.WhereClause, qual)
	case a.GetUpdateStmt() != nil:
		up := a.GetUpdateStmt()
		up.FromClause = append(up.FromClause, derived...)
		up.WhereClause = andNode(up.WhereClause, qual)
	case a.GetDeleteStmt() != nil:
		del := a.GetDeleteStmt()
		del.UsingClause = append(del.UsingClause, derived...)
		del.WhereClause = andNode(del.WhereClause, qual)
	case a.GetSelectStmt() != nil:
		s := a.GetSelectStmt()
		if s.Op != pg_query.SetOperation_SETOP_NONE || len(s.ValuesLists) > 0 {
			return nil, ruleRefuse("a set operation or VALUES as a rule action is not supported")
		}
		s.FromClause = append(s.FromClause, derived...)
		s.WhereClause = andNode(s.WhereClause, qual)
	default:
		return nil, ruleRefuse("rule action %s is not supported", stmtKeyword(a))
	}
	return a, nil
}

// stmtKeyword names a statement node: "NOTIFY".
func stmtKeyword(n *pg_query.Node) string {
	switch {
	case n.GetNotifyStmt() != nil:
		return "NOTIFY"
	}
	return fmt.Sprintf("%T", n.Node)
}

// invert adds to the rewrite the negation of a conditional INSTEAD rule's
// condition, which the original statement gets.
func (rw *ruleRewrite) invert(r *rule) error {
	q := clone(r.where)
	if err := rw.substitute(q, rw.inOriginal); err != nil {
		return err
	}
	rw.quals = append(rw.quals, notTrue(q))
	return nil
}

// original is the original statement with the inverted conditions.
func (rw *ruleRewrite) original() (*pg_query.Node, error) {
	n := clone(rw.orig)
	var qual *pg_query.Node
	for _, q := range rw.quals {
		qual = andNode(qual, clone(q))
	}
	if qual == nil {
		return n, nil
	}
	switch rw.event {
	case sql.RuleInsert:
		ins := n.GetInsertStmt()
		from := rw.derived.GetRangeSubselect().Subquery.GetSelectStmt().FromClause
		if len(from) == 0 {
			return nil, ruleRefuse("INSERT … DEFAULT VALUES on a relation with conditional INSTEAD rules is not supported")
		}
		src := clone(from[0])
		var targets []*pg_query.Node
		for j := 0; j < rw.srcWidth; j++ {
			targets = append(targets, resTarget("", colRef("*src*", "c"+strconv.Itoa(j+1))))
		}
		ins.SelectStmt = &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: &pg_query.SelectStmt{
			TargetList: targets, FromClause: []*pg_query.Node{src}, WhereClause: qual}}}
		ins.WithClause = nil // moved into the source by prepare
	case sql.RuleUpdate:
		up := n.GetUpdateStmt()
		up.WhereClause = andNode(up.WhereClause, qual)
	case sql.RuleDelete:
		del := n.GetDeleteStmt()
		del.WhereClause = andNode(del.WhereClause, qual)
	}
	return n, nil
}

// rewrite applies rules (those of the table for the event that fire) to
// the statement: the statements to run, in order.
func (rw *ruleRewrite) rewrite(rules []*rule) ([]ruleProduct, error) {
	var actions []ruleProduct
	returning := false
	for _, r := range rules {
		src := srcAlso
		if r.instead {
			src = srcQualInstead
			if r.where == nil {
				src = srcInstead
				rw.instead = true
			}
		}
		if src == srcQualInstead && !rw.instead {
			if err := rw.invert(r); err != nil {
				return nil, err
			}
		}
		for _, a := range r.actions {
			n, err := rw.action(r, a)
			if err != nil {
				return nil, err
			}
			p := ruleProduct{node: n, src: src, event: commandOf(n)}
			if src == srcInstead && hasReturning(n) {
				if returning {
					return nil, ruleRefuse("cannot have RETURNING lists in multiple rules")
				}
				returning, p.returning = true, true
			}
			actions = append(actions, p)
		}
	}
	if ins := rw.orig.GetInsertStmt(); ins != nil && ins.OnConflictClause != nil && (len(actions) > 0 || rw.hasUpdateRules) {
		return nil, ruleRefuse("INSERT with ON CONFLICT clause cannot be used with table that has INSERT or UPDATE rules")
	}
	if (rw.instead || len(rw.quals) > 0) && hasReturning(rw.orig) && !returning {
		verb := sql.RuleEventName(rw.event)
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot perform %s RETURNING on relation %q", verb, rw.table).
			WithHint("You need an unconditional ON %s DO INSTEAD rule with a RETURNING clause.", verb)
	}
	if rw.instead {
		return actions, nil
	}
	orig, err := rw.original()
	if err != nil {
		return nil, err
	}
	op := ruleProduct{node: orig, src: srcOriginal, event: rw.event}
	if rw.event == sql.RuleInsert {
		return append([]ruleProduct{op}, actions...), nil
	}
	return append(actions, op), nil
}

// commandOf is a statement's command: sql.RuleInsert, …, 0 for a query.
func commandOf(n *pg_query.Node) byte {
	switch {
	case n.GetInsertStmt() != nil:
		return sql.RuleInsert
	case n.GetUpdateStmt() != nil:
		return sql.RuleUpdate
	case n.GetDeleteStmt() != nil:
		return sql.RuleDelete
	}
	return 0
}

// hasReturning reports whether a statement has RETURNING.
func hasReturning(n *pg_query.Node) bool {
	switch {
	case n.GetInsertStmt() != nil:
		return len(n.GetInsertStmt().ReturningList) > 0
	case n.GetUpdateStmt() != nil:
		return len(n.GetUpdateStmt().ReturningList) > 0
	case n.GetDeleteStmt() != nil:
		return len(n.GetDeleteStmt().ReturningList) > 0
	}
	return false
}

// nameTargets names the targets NEW.c and OLD.c of a list after c, the
// name PostgreSQL gives such a column, before they become the derived
// table's.
func nameTargets(list []*pg_query.Node) {
	for _, t := range list {
		rt := t.GetResTarget()
		if rt == nil || rt.Name != "" {
			continue
		}
		c := rt.Val.GetColumnRef()
		if c == nil || len(c.Fields) != 2 {
			continue
		}
		if s := c.Fields[0].GetString_(); s != nil && (s.Sval == "new" || s.Sval == "old") {
			if n := c.Fields[1].GetString_(); n != nil {
				rt.Name = n.Sval
			}
		}
	}
}
