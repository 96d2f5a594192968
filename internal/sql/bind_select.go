package sql

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bindSelect binds a query (SELECT, VALUES or a set operation) to a plan
// whose columns carry the output names.
func (b *binder) bindSelect(sel *pg_query.SelectStmt) (plan.Node, error) {
	if sel.WithClause != nil {
		if err := b.pushWith(sel.WithClause); err != nil {
			return nil, err
		}
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	if sel.IntoClause != nil {
		return nil, b.refuse(b.keyword("into", 0), "SELECT INTO is not supported").WithHint("use CREATE TABLE … AS or INSERT INTO … SELECT")
	}
	if len(sel.LockingClause) > 0 {
		if err := b.bindLocking(sel); err != nil {
			return nil, err
		}
	}
	var (
		p     plan.Node
		err   error
		colls []collState // VALUES'
	)
	switch {
	case sel.Op != pg_query.SetOperation_SETOP_NONE:
		p, err = b.bindSetOp(sel)
	case len(sel.ValuesLists) > 0 && valuesOrderedByExpr(sel):
		return b.bindSimpleSelect(orderedValuesAsSelect(sel))
	case len(sel.ValuesLists) > 0:
		b.originOut = nil
		if p, err = b.bindValues(sel.ValuesLists); err == nil {
			b.unregOut = make([]bool, len(p.Columns()))
			for i := range b.unregOut {
				b.unregOut[i] = true
			}
			colls, err = b.valuesCollations(sel.ValuesLists, p)
		}
	default:
		return b.bindSimpleSelect(sel)
	}
	if err != nil {
		return nil, err
	}
	// ORDER BY and LIMIT over a set operation or VALUES see only the output
	// columns.
	unreg, origins := b.unregOut, b.originOut
	out := newScope("", p.Columns())
	deriveOutCollations(out, colls)
	p, err = b.bindOrderLimit(sel, p, out, nil)
	b.unregOut, b.originOut, b.collOut = unreg, origins, colls
	return p, err
}

func (b *binder) pushWith(w *pg_query.WithClause) error {
	scope := map[string]*cte{}
	b.ctes = append(b.ctes, scope)
	for i, n := range w.Ctes {
		c := n.GetCommonTableExpr()
		if w.Recursive {
			if err := b.bindRecursiveCTE(c, w.Ctes[i+1:], scope); err != nil {
				return err
			}
			continue
		}
		if _, dup := scope[c.Ctename]; dup {
			return b.stmt.errf(c.Location, pgerr.DuplicateAlias, "WITH query name %q specified more than once", c.Ctename)
		}
		sel := c.Ctequery.GetSelectStmt()
		if sel == nil {
			if err := b.bindModifyingCTE(c, scope, false); err != nil {
				return err
			}
			continue
		}
		p, err := b.bindSelect(sel)
		if err != nil {
			return err
		}
		if p, err = b.renameColumns(p, c.Aliascolnames, c.Ctename, c.Location); err != nil {
			return err
		}
		scope[c.Ctename] = &cte{plan: p, unreg: b.unregOut, origins: b.originOut, colls: b.collOut}
	}
	return nil
}

func (b *binder) lookupCTE(name string) (*cte, bool) {
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if c, ok := b.ctes[i][name]; ok {
			return c, true
		}
	}
	return nil, false
}

// renameColumns applies column aliases (t(a, b)) to p's output.
func (b *binder) renameColumns(p plan.Node, names []*pg_query.Node, rel string, loc int32) (plan.Node, error) {
	if len(names) == 0 {
		return p, nil
	}
	cols := p.Columns()
	if len(names) > len(cols) {
		return nil, b.stmt.errf(loc, pgerr.InvalidColumnRef, "table %q has %d columns available but %d columns specified", rel, len(cols), len(names))
	}
	exprs := make([]expr.Expr, len(cols))
	out := make([]plan.Column, len(cols))
	for i, c := range cols {
		exprs[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
		out[i] = c
		if i < len(names) {
			out[i].Name = names[i].GetString_().Sval
		}
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: out}, nil
}

// setOpsMaintained is set once views compile INTERSECT and EXCEPT.
const setOpsMaintained = true

func (b *binder) bindSetOp(sel *pg_query.SelectStmt) (plan.Node, error) {
	word := map[pg_query.SetOperation]string{
		pg_query.SetOperation_SETOP_UNION: "UNION", pg_query.SetOperation_SETOP_INTERSECT: "INTERSECT", pg_query.SetOperation_SETOP_EXCEPT: "EXCEPT",
	}[sel.Op]
	l, err := b.bindSelect(sel.Larg)
	if err != nil {
		return nil, err
	}
	// PostgreSQL finds a record's fields in the first operand.
	unreg, lorig := b.unregOut, b.originOut
	r, err := b.bindSelect(sel.Rarg)
	if err != nil {
		return nil, err
	}
	b.unregOut = unreg
	// A set operation's columns are none of its operands', of a domain
	// where both are.
	lc, rc := l.Columns(), r.Columns()
	llit, rlit := literalColumns(sel.Larg, len(lc)), literalColumns(sel.Rarg, len(rc))
	b.originOut = b.setOpOrigins(lorig, b.originOut, lc, rc, llit, rlit)
	loc := b.keyword(strings.ToLower(word), 0)
	if len(lc) != len(rc) {
		return nil, b.refuseCode(pgerr.SyntaxError, loc, "each %s query must have the same number of columns", word)
	}
	cols := make([]plan.Column, len(lc))
	for i := range lc {
		t, err := setOpType(lc[i].Type, rc[i].Type, llit[i], rlit[i], word)
		if err != nil {
			return nil, setOpTypeError(b.stmt.SQL, err, sel.Rarg, i)
		}
		if t.Kind == value.Unknown {
			t = value.TextType
		}
		cols[i] = plan.Column{Name: lc[i].Name, Type: t}
	}
	if err := b.setOpCollations(sel, l, r); err != nil {
		return nil, err
	}
	l, r = castLiterals(l, cols, llit, b.originOut), castLiterals(r, cols, rlit, b.originOut)
	if l, err = b.castColumns(l, cols); err != nil {
		return nil, err
	}
	if r, err = b.castColumns(r, cols); err != nil {
		return nil, err
	}
	coll := mergedCollations(l, r)
	l, r = setOpCollate(l, coll), setOpCollate(r, coll)
	if b.forView && !setOpsMaintained && sel.Op != pg_query.SetOperation_SETOP_UNION {
		return nil, b.refuse(loc, "%s is not maintained in a view yet", word).WithHint("UNION and UNION ALL are maintained")
	}
	if sel.Op != pg_query.SetOperation_SETOP_UNION {
		if err := b.noJSONColumns(cols, leftmostTargets(sel)); err != nil {
			return nil, err
		}
	}
	switch sel.Op {
	case pg_query.SetOperation_SETOP_INTERSECT:
		kind := plan.Intersect
		if sel.All {
			kind = plan.IntersectAll
		}
		return &plan.SetOp{Kind: kind, Left: l, Right: r, Cols: cols}, nil
	case pg_query.SetOperation_SETOP_EXCEPT:
		kind := plan.Except
		if sel.All {
			kind = plan.ExceptAll
		}
		return &plan.SetOp{Kind: kind, Left: l, Right: r, Cols: cols}, nil
	}
	var p plan.Node = &plan.UnionAll{Inputs: []plan.Node{l, r}, Cols: cols}
	if !sel.All {
		if err := b.noJSONColumns(cols, leftmostTargets(sel)); err != nil {
			return nil, err
		}
		p = &plan.Distinct{Input: p}
	}
	return p, nil
}

func (b *binder) refuseCode(code string, loc int32, format string, args ...any) *pgerr.Error {
	return b.stmt.errf(loc, code, format, args...)
}

// castColumns projects p to the given column types (and names), if needed.
func (b *binder) castColumns(p plan.Node, cols []plan.Column) (plan.Node, error) {
	in := p.Columns()
	same := true
	exprs := make([]expr.Expr, len(cols))
	for i, c := range in {
		var e expr.Expr = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
		if c.Type != cols[i].Type {
			same = false
			var err error
			if e, err = b.coerceZoned(e, cols[i].Type, false); err != nil {
				return nil, err
			}
		}
		exprs[i] = e
	}
	if same {
		return p, nil
	}
	out := make([]plan.Column, len(cols))
	for i := range cols {
		out[i] = plan.Column{Name: in[i].Name, Type: cols[i].Type}
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: out}, nil
}

func (b *binder) bindValues(lists []*pg_query.Node) (plan.Node, error) {
	if valuesHaveSubLinks(lists) {
		return b.bindValuesSubqueries(lists)
	}
	var rows [][]expr.Expr
	width := -1
	empty := &scope{}
	for _, l := range lists {
		items := l.GetList().GetItems()
		if width >= 0 && len(items) != width {
			return nil, b.stmt.errf(nodeLoc(items[0], -1), pgerr.SyntaxError, "VALUES lists must all be the same length")
		}
		width = len(items)
		row := make([]expr.Expr, len(items))
		for i, it := range items {
			e, err := b.bindExpr(empty, it)
			if err != nil {
				return nil, err
			}
			row[i] = e
		}
		rows = append(rows, row)
	}
	cols := make([]plan.Column, width)
	for c := 0; c < width; c++ {
		ts := make([]value.Type, len(rows))
		for r := range rows {
			ts[r] = rows[r][c].Type()
		}
		t, err := expr.CommonType(ts, "VALUES")
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(lists[0].GetList().Items[c], -1)))
		}
		if t.Kind == value.Unknown {
			t = value.TextType
		}
		for r := range rows {
			e, err := b.coerceCommon(rows[r][c], t, "VALUES", lists[r].GetList().Items[c], -1)
			if err != nil {
				return nil, err
			}
			rows[r][c] = e
		}
		cols[c] = plan.Column{Name: fmt.Sprintf("column%d", c+1), Type: t}
	}
	b.originOut = b.valuesOrigins(rows, width)
	return &plan.Values{Rows: rows, Cols: cols}, nil
}

// bindFrom binds the FROM clause to a plan and the scope its columns form.
func (b *binder) bindFrom(from []*pg_query.Node) (plan.Node, *scope, error) {
	switch len(from) {
	case 0:
		return &plan.Values{Rows: [][]expr.Expr{{}}}, &scope{}, nil
	}
	p, sc, err := b.bindFromItem(from[0])
	if err != nil {
		return nil, nil, err
	}
	for _, item := range from[1:] {
		if b.forView && !joinsMaintained {
			return nil, nil, b.refuse(fromLoc(item), "joins are not maintained in a view yet")
		}
		lateral := isLateral(item)
		if lateral {
			b.lateral = sc
		}
		rp, rsc, err := b.bindFromItem(item)
		if err != nil {
			return nil, nil, err
		}
		if err := b.checkDuplicateAliases(sc, rsc, fromLoc(item)); err != nil {
			return nil, nil, err
		}
		if lateral && (plan.HasOuter(rp) || perRowCalls(item, rp)) {
			if p, err = b.lateralJoin(p, sc, rp, plan.InnerJoin, nil, fromLoc(item)); err != nil {
				return nil, nil, err
			}
			sc = joinScope(sc, rsc)
			continue
		}
		p, sc = crossJoin(p, sc, rp, rsc)
	}
	return p, sc, nil
}

// crossJoin joins two FROM items without a condition; WHERE conjuncts are
// pushed into it later.
func crossJoin(l plan.Node, lsc *scope, r plan.Node, rsc *scope) (plan.Node, *scope) {
	cols := append(append([]plan.Column{}, l.Columns()...), r.Columns()...)
	return &plan.Join{Kind: plan.InnerJoin, Left: l, Right: r, Cols: cols}, joinScope(lsc, rsc)
}

// joinScope is the scope of two joined inputs: left columns then right.
func joinScope(l, r *scope) *scope {
	s := &scope{cols: append(append([]scopeCol{}, l.cols...), r.cols...)}
	if l.star != nil || r.star != nil {
		s.star = append([]int{}, l.starCols()...)
		for _, i := range r.starCols() {
			s.star = append(s.star, len(l.cols)+i)
		}
	}
	return s
}

// checkDuplicateAliases refuses two FROM items with the same name, as
// PostgreSQL does.
func (b *binder) checkDuplicateAliases(l, r *scope, loc int32) error {
	seen := map[string]string{} // the relation each name is implicitly of, "" for an alias
	for _, c := range l.cols {
		if c.qual != "" {
			seen[c.qual] = c.relKey
		}
	}
	for _, c := range r.cols {
		// Two relations of the same name in two schemas, neither given
		// an alias, may be read together, as in PostgreSQL.
		if k, ok := seen[c.qual]; c.qual != "" && ok && (k == "" || c.relKey == "" || k == c.relKey) {
			return b.stmt.errf(loc, pgerr.DuplicateAlias, "table name %q specified more than once", c.qual)
		}
	}
	return nil
}

func fromLoc(n *pg_query.Node) int32 {
	switch {
	case n.GetRangeVar() != nil:
		return n.GetRangeVar().Location
	case n.GetJoinExpr() != nil:
		return fromLoc(n.GetJoinExpr().Rarg)
	case n.GetRangeSubselect() != nil:
		if s := n.GetRangeSubselect().Subquery.GetSelectStmt(); s != nil && len(s.TargetList) > 0 {
			return s.TargetList[0].GetResTarget().Location
		}
	case n.GetRangeTableFunc() != nil:
		return n.GetRangeTableFunc().Location
	case n.GetRangeFunction() != nil:
		if fs := n.GetRangeFunction().Functions; len(fs) > 0 {
			if items := fs[0].GetList().GetItems(); len(items) > 0 {
				return nodeLoc(items[0], -1)
			}
		}
	}
	return -1
}

func (b *binder) bindFromItem(n *pg_query.Node) (plan.Node, *scope, error) {
	lat := b.lateral
	b.lateral = nil
	switch {
	case n.GetRangeVar() != nil:
		rv := n.GetRangeVar()
		p, sc, err := b.bindRangeVar(rv)
		if err == nil && rv.Alias == nil {
			for i := range sc.cols {
				sc.cols[i].relKey = rv.Relname
			}
		}
		return p, sc, err
	case n.GetRangeSubselect() != nil:
		rs := n.GetRangeSubselect()
		outers := b.outers
		if rs.Lateral && lat != nil {
			outers = append([]*scope{lat}, outers...)
		}
		sub := &binder{rlsOpen: b.rlsOpen, lock: b.lock, cat: b.cat, stmt: b.stmt, stmtClock: b.stmtClock, forView: b.forView, ctes: b.ctes, params: b.params, outers: outers, rows: b.rowCounts()}
		p, err := sub.bindSelect(rs.Subquery.GetSelectStmt())
		if err != nil {
			return nil, nil, err
		}
		alias := ""
		if rs.Alias != nil {
			alias = rs.Alias.Aliasname
			if p, err = b.renameColumns(p, rs.Alias.Colnames, alias, -1); err != nil {
				return nil, nil, err
			}
		}
		sc := newScope(alias, p.Columns())
		b.deriveCollations(sc, p)
		deriveOutCollations(sc, sub.collOut)
		sc.markUnregistered(sub.unregOut)
		sc.markSources(sub.originOut)
		return p, sc, nil
	case n.GetRangeFunction() != nil:
		if sub, ok, err := b.userFunctionFrom(n.GetRangeFunction(), lat); ok {
			if err != nil {
				return nil, nil, err
			}
			b.lateral = lat
			defer b.asInvoker()()
			return b.bindFromItem(sub)
		}
		if lat != nil {
			saved := b.outers
			b.outers = append([]*scope{lat}, saved...)
			defer func() { b.outers = saved }()
		}
		return b.bindRangeFunction(n.GetRangeFunction())
	case n.GetRangeTableFunc() != nil:
		if lat != nil {
			saved := b.outers
			b.outers = append([]*scope{lat}, saved...)
			defer func() { b.outers = saved }()
		}
		return b.bindXMLTable(n.GetRangeTableFunc())
	case n.GetJoinExpr() != nil:
		return b.bindJoin(n.GetJoinExpr())
	}
	if n.GetRangeTableSample() != nil {
		return b.bindTableSample(n.GetRangeTableSample())
	}
	return nil, nil, b.refuse(fromLoc(n), "FROM item %s is not supported", stmtName(n))
}

func (b *binder) bindRangeVar(rv *pg_query.RangeVar) (plan.Node, *scope, error) {
	if sys, ok := b.systemRelation(rv); ok {
		return b.bindSystemRelation(rv, sys)
	}
	if rv.Schemaname != "" && rv.Schemaname != "public" {
		return nil, nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation \"%s.%s\" does not exist", rv.Schemaname, rv.Relname)
	}
	alias := b.refName(rv.Relname)
	var colAliases []*pg_query.Node
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
		colAliases = rv.Alias.Colnames
	}
	var p plan.Node
	var rowType value.Type
	var keyed *keyedRel
	seq := false
	sysFrom := 0    // the first system column, when there are
	sysOrigin := "" // the table the system columns are of (not a view)
	var cteUnreg []bool
	var cteOrigins []Origin
	var cteColls []collState
	origin, nOrigin := "", 0 // the table the columns come from (RefLog)
	if c, ok := b.lookupCTE(rv.Relname); ok && rv.Schemaname == "" {
		if c.refuse != nil {
			return nil, nil, c.refuse(rv.Location)
		}
		if c.rec != nil {
			if c.rec.uses++; c.rec.uses > 1 {
				return nil, nil, b.stmt.errf(rv.Location, pgerr.InvalidRecursion, "recursive reference to query %q must not appear more than once", rv.Relname).
					WithHint("a recursive term may read the previous round once (linear recursion)")
			}
			c.rec.loc = rv.Location
		}
		p, cteUnreg, cteOrigins, cteColls = c.plan, c.unreg, c.origins, c.colls
	} else {
		rel, ok := b.lookupRelation(rv.Relname)
		if !ok {
			return nil, nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
		}
		if seq = rel.Kind == KindSequence; !seq {
			rowType = relRowType(rel)
			origin, nOrigin = rel.Name, len(rel.Cols)
		}
		if l := b.stmt.Refs; l != nil && !slices.Contains(l.Rels, rel.Name) {
			l.Rels = append(l.Rels, rel.Name)
		}
		if rel.Kind == KindSequence && b.forView {
			return nil, nil, b.refuse(rv.Location, "a materialized view cannot read sequence %q", rel.Name).
				WithHint("its state changes with every nextval, outside any transaction")
		}
		switch rel.Kind {
		case KindView:
			cat, refs := b.viewCatalog(rel)
			q := markViewUserAggregates(cat, rel.Query)
			cq, viewSys := cursorViewQuery(rel, q, b.stmt)
			sub := &binder{lock: b.lock, cat: cat, stmt: withRefs(cq, refs), stmtClock: b.stmtClock, forView: b.forView, rows: b.rowCounts(), rlsOpen: b.rlsOpen}
			vp, err := sub.bindSelect(cq.Node.GetSelectStmt())
			if err != nil && viewSys {
				// No table under the view (a function, VALUES): its rows
				// have no positions.
				viewSys = false
				if refs != nil {
					*refs = RefLog{}
				}
				sub = &binder{lock: b.lock, cat: cat, stmt: withRefs(q, refs), stmtClock: b.stmtClock, forView: b.forView, rows: b.rowCounts(), rlsOpen: b.rlsOpen}
				vp, err = sub.bindSelect(q.Node.GetSelectStmt())
			}
			if err != nil {
				e := *pgerr.Wrap(err)
				if e.Code == pgerr.InsufficientPrivilege {
					// Met as the view's owner at run time (row security
					// under row_security = off): PostgreSQL's own words.
					return nil, nil, err
				}
				e.Position = 0
				e.Message = fmt.Sprintf("%s (in view %q)", e.Message, rel.Name)
				return nil, nil, b.stmt.errf(rv.Location, e.Code, "%s", e.Message)
			}
			// Keep the view's declared column names.
			p = vp
			if names := columnNames(rel.Cols); names != nil {
				var err error
				if p, err = b.renameColumns(p, names, rel.Name, rv.Location); err != nil {
					return nil, nil, err
				}
			}
			if viewSys {
				p, sysFrom = viewSystemColumns(p, len(rel.Cols)), len(rel.Cols)
			}
		default:
			if rel.System && b.forView {
				return nil, nil, b.refuse(rv.Location, "a materialized view cannot read the system view %s", rel.Name).
					WithHint("query system views directly")
			}
			p = &plan.Scan{Relation: rel.Name, Cols: rel.Cols}
			var part *Relation // the partition or partitioned table read
			if rel.Partition != nil || !rv.Inh && rel.Def != nil && rel.Def.PartitionBy != nil {
				var err error
				part = rel
				if p, rel, err = b.partitionScan(rv, rel); err != nil {
					return nil, nil, err
				}
			} else if rel.TableOID != nil {
				part = rel
			}
			if sp, ok := b.withSystemColumns(rel); ok {
				p, sysFrom, sysOrigin = b.partitionSystemColumns(sp, p, part), len(rel.Cols), origin
			}
			if rv.Inh && len(rel.Inherit) > 0 {
				p = b.inheritScan(rel, p, sysFrom > 0)
			}
			if rel.Security != nil {
				sc := rowScope(rel.Name, rowType, p.Columns())
				if sysFrom > 0 {
					b.markSystemColumns(sc, sysFrom, sysOrigin)
				}
				var err error
				if p, err = b.secureScan(rel, p, sc, rv.Location); err != nil {
					return nil, nil, err
				}
			}
			b.rowCounts()[rel.Name] = rel
			if rel.PrimaryKey != nil {
				keyed = &keyedRel{pk: rel.PrimaryKey}
			}
		}
	}
	p, err := b.renameColumns(p, colAliases, alias, rv.Location)
	if err != nil {
		return nil, nil, err
	}
	sc := rowScope(alias, rowType, p.Columns())
	for i := range sc.cols {
		sc.cols[i].rel, sc.cols[i].relCol, sc.cols[i].sequence = keyed, i, seq
		if i < nOrigin {
			sc.cols[i].origin, sc.cols[i].originCol = origin, i
		}
	}
	if sysFrom > 0 {
		b.markSystemColumns(sc, sysFrom, sysOrigin)
	}
	b.deriveCollations(sc, p)
	deriveOutCollations(sc, cteColls)
	sc.markUnregistered(cteUnreg)
	sc.markSources(cteOrigins)
	return p, sc, nil
}

func columnNames(cols []plan.Column) []*pg_query.Node {
	out := make([]*pg_query.Node, len(cols))
	for i, c := range cols {
		out[i] = &pg_query.Node{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: c.Name}}}
	}
	return out
}

func (b *binder) bindRangeFunction(rf *pg_query.RangeFunction) (plan.Node, *scope, error) {
	for _, fn := range rf.Functions {
		if items := fn.GetList().GetItems(); len(items) > 0 && items[0].GetFuncCall() != nil {
			if err := b.builtinOutOfSchema(&scope{}, items[0].GetFuncCall()); err != nil {
				return nil, nil, err
			}
		}
	}
	rf, err := b.crosstabQueries(rf)
	if err != nil {
		return nil, nil, err
	}
	if rf, err = b.connectbyQueries(rf); err != nil {
		return nil, nil, err
	}
	rf, stat, err := b.tsStatQueries(rf)
	if err != nil {
		return nil, nil, err
	}
	if stat || argSubqueries(rf) {
		return b.bindTableFuncSubqueries(rf)
	}
	if !b.integerSeries(rf) {
		return b.bindTableFunc(rf)
	}
	items := rf.Functions[0].GetList().GetItems()
	f := items[0].GetFuncCall()
	if f == nil || len(rf.Functions) != 1 || rf.Ordinality {
		return nil, nil, b.refuse(-1, "this function in FROM is not supported").WithHint("generate_series(start, stop[, step]) is supported")
	}
	name := opName(f.Funcname)
	if name != "generate_series" {
		return nil, nil, b.refuse(f.Location, "function %s in FROM is not supported", name).WithHint("generate_series(start, stop[, step]) is supported")
	}
	if len(f.Args) < 2 || len(f.Args) > 3 {
		return nil, nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function generate_series with %d arguments does not exist", len(f.Args))
	}
	empty := &scope{}
	args := make([]expr.Expr, len(f.Args))
	ts := make([]value.Type, len(f.Args))
	for i, a := range f.Args {
		e, err := b.bindExpr(empty, a)
		if err != nil {
			return nil, nil, err
		}
		if b.forView && (e.Volatile() || expr.HasOuter(e)) {
			// A view holds a series of constant bounds as a constant
			// relation (compile.series); other bounds change.
			return nil, nil, b.refuse(f.Location, "generate_series over bounds that are not constant cannot be maintained in a view").
				WithHint("store the series in a table and read the table")
		}
		if k := e.Type().Kind; b.forView && !k.IsInteger() && k != value.Unknown {
			return nil, nil, b.refuse(f.Location, "generate_series over %s cannot be maintained in a view", e.Type()).
				WithHint("store the series in a table and read the table")
		}
		args[i], ts[i] = e, e.Type()
	}
	t, err := expr.CommonType(ts, "generate_series")
	if err != nil {
		return nil, nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	switch t.Kind {
	case value.Int2, value.Int4, value.Unknown:
		t = value.Int4Type
	case value.Int8:
	default:
		return nil, nil, b.refuse(f.Location, "generate_series over %s is not supported", t).WithHint("use integer arguments")
	}
	for i := range args {
		if args[i], err = b.coerce(args[i], t, f.Location); err != nil {
			return nil, nil, err
		}
	}
	col := plan.Column{Name: "generate_series", Type: t}
	alias := "generate_series"
	if rf.Alias != nil {
		alias = rf.Alias.Aliasname
		col.Name = alias
		if len(rf.Alias.Colnames) > 0 {
			col.Name = rf.Alias.Colnames[0].GetString_().Sval
		}
	}
	gs := &plan.GenerateSeries{Start: args[0], Stop: args[1], Col: col}
	if len(args) == 3 {
		gs.Step = args[2]
	}
	return gs, newScope(alias, gs.Columns()), nil
}

// bindSimpleSelect binds SELECT … FROM … WHERE … [DISTINCT] [ORDER BY] [LIMIT].
func (b *binder) bindSimpleSelect(sel *pg_query.SelectStmt) (plan.Node, error) {
	input, sc, err := b.bindFrom(sel.FromClause)
	if err != nil {
		return nil, err
	}
	// An aggregate of an enclosing query (max(outer.b)) does not group
	// this level; one of this level in a subquery does.
	grouped := len(sel.GroupClause) > 0 || sel.HavingClause != nil ||
		hasAggregate(&pg_query.Node{Node: &pg_query.Node_List{List: &pg_query.List{Items: sel.TargetList}}}) && b.ownAggregate(sc, sel.TargetList) ||
		b.subqueryAggregate(sc, sel.TargetList)
	sc.allowScalar = true
	if sel.WhereClause != nil {
		if input, err = b.bindWhere(sc, input, sel.WhereClause); err != nil {
			return nil, err
		}
	}
	input = b.orderJoins(input)
	saved := b.windows
	defer func() { b.windows = saved }()
	b.windows = nil
	for _, n := range sel.WindowClause {
		wd := n.GetWindowDef()
		if b.windows == nil {
			b.windows = map[string]*pg_query.WindowDef{}
		}
		if b.windows[wd.Name] != nil {
			return nil, b.stmt.errf(wd.Location, "42P20", "window \"%s\" is already defined", wd.Name)
		}
		resolved, err := b.resolveWindow(wd)
		if err != nil {
			return nil, err
		}
		b.windows[wd.Name] = resolved
	}
	var p plan.Node
	var exprs []expr.Expr
	if grouped {
		var finish func()
		if p, exprs, sc, finish, err = b.bindGrouped(sel, input, sc); err != nil {
			return nil, err
		}
		defer finish()
	} else {
		var cols []plan.Column
		sc.allowWindow = true
		if exprs, cols, err = b.bindTargets(sc, sel.TargetList); err != nil {
			return nil, err
		}
		sc.allowWindow = false
		sc.allowWindow = true
		if err := b.bindSortWindows(sel, sc, len(cols)); err != nil {
			return nil, err
		}
		sc.allowWindow = false
		// A subquery in ORDER BY or DISTINCT ON joins the input with
		// the select list's: bind it now, and orderKeys finds it again
		// (bindSubLink's cache).
		pending := len(sc.pending)
		for _, n := range append(append([]*pg_query.Node{}, sel.SortClause...), sel.DistinctClause...) {
			if sb := n.GetSortBy(); sb != nil {
				n = sb.Node
			}
			if n == nil || isOutputRef(n, len(cols)) {
				continue
			}
			if !hasSubLink(n) || hasWindowCall(n) {
				continue
			}
			if _, err := b.bindExpr(sc, n); err != nil {
				return nil, err
			}
		}
		if viewDropsOrder(b, sel) {
			sc.pending = sc.pending[:pending] // an order the view does not keep
		}
		sc.allowScalar = false
		p = &plan.Project{Input: applyPending(sc, input), Exprs: exprs, Cols: cols}
	}
	if len(sel.DistinctClause) > 0 && sel.DistinctClause[0].GetNode() == nil {
		if err := b.noJSONColumns(p.Columns(), sel.TargetList); err != nil {
			return nil, err
		}
		if err := b.distinctCollation(sc, exprs); err != nil {
			return nil, err
		}
		p = &plan.Distinct{Input: b.distinctNoCollation(sc, p, exprs)}
	}
	unreg := b.unregisteredOutputs(sel, sc, exprs)
	origins := b.originsOf(sel.TargetList)
	colls := make([]collState, len(exprs))
	for i, e := range exprs {
		colls[i] = b.scopedCollation(sc, e)
		if len(sel.TargetList) == len(exprs) && colls[i].strength != collExplicit {
			colls[i] = explicitConstCollation(sel.TargetList[i].GetResTarget().GetVal(), colls[i])
		}
	}
	p, err = b.bindOrderLimit(sel, p, sc, exprs)
	b.unregOut, b.originOut, b.collOut = unreg, origins, colls
	return p, err
}

// bindSortWindows binds the ORDER BY items that call window functions
// with the select list, so that they run under its projection as the
// select list's do; orderKeys takes the expressions bound here.
func (b *binder) bindSortWindows(sel *pg_query.SelectStmt, sc *scope, width int) error {
	for _, n := range sel.SortClause {
		if sb := n.GetSortBy(); sb != nil {
			n = sb.Node
		}
		if n == nil || isOutputRef(n, width) || !hasWindowCall(n) {
			continue
		}
		e, err := b.bindExpr(sc, n)
		if err != nil {
			return err
		}
		if b.sortBound == nil {
			b.sortBound = map[*pg_query.Node]expr.Expr{}
		}
		b.sortBound[n] = e
	}
	return nil
}

// hasWindowCall reports whether n calls a window function outside a
// subquery.
func hasWindowCall(n *pg_query.Node) bool {
	found := false
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || found || n.GetSubLink() != nil {
			return
		}
		if f := n.GetFuncCall(); f != nil && f.Over != nil {
			found = true
			return
		}
		forEachChild(n, walk)
	}
	walk(n)
	return found
}

// viewDropsOrder reports whether sel is a view's query whose ORDER BY
// leaves its rows as they are (no LIMIT, no DISTINCT ON): the joins of
// subqueries there would only cost.
func viewDropsOrder(b *binder, sel *pg_query.SelectStmt) bool {
	return b.forView && sel.LimitCount == nil && sel.LimitOffset == nil &&
		(len(sel.DistinctClause) == 0 || sel.DistinctClause[0].GetNode() == nil)
}

// isOutputRef reports whether an ORDER BY item names an output column
// alone or by position, which orderKeys does not bind as an expression.
func isOutputRef(n *pg_query.Node, width int) bool {
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
		return true
	}
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		return true
	}
	return false
}

// bindTargets binds the select list, expanding * and naming columns as
// PostgreSQL does.
func (b *binder) bindTargets(sc *scope, targets []*pg_query.Node) ([]expr.Expr, []plan.Column, error) {
	var exprs []expr.Expr
	var cols []plan.Column
	var origins []Origin
	defer func() {
		if len(targets) > 0 {
			if b.targetOrigins == nil {
				b.targetOrigins = map[*pg_query.Node][]Origin{}
			}
			b.markArrayDomains(sc, exprs, origins)
			b.targetOrigins[targets[0]] = origins
		}
	}()
	for i, t := range targets {
		rt := t.GetResTarget()
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			qual := ""
			if len(cr.Fields) == 2 {
				qual = cr.Fields[0].GetString_().Sval
			}
			if b.agg != nil && sc == b.agg.post {
				fs, fcols, err := b.groupedStar(b.agg, qual, cr.Location)
				if err != nil {
					return nil, nil, err
				}
				exprs, cols = append(exprs, fs...), append(cols, fcols...)
				continue
			}
			n := 0
			idxs := sc.starCols()
			if qual != "" {
				idxs = nil
				for i, c := range sc.cols {
					if (c.qual == qual || c.relKey == qual) && !c.system {
						idxs = append(idxs, i)
					}
				}
			}
			b.noteStar(sc, idxs, cr.Location)
			for _, i := range idxs {
				c := sc.cols[i]
				exprs = append(exprs, &expr.Col{Idx: i, T: c.typ, Name: c.name})
				cols = append(cols, plan.Column{Name: c.name, Type: c.typ})
				origins = append(origins, c.source())
				n++
			}
			if qual != "" && n == 0 {
				return nil, nil, b.missingFromEntry(sc, qual, cr.Location)
			}
			continue
		}
		if fs, fcols, ok, err := b.bindRecordStar(sc, rt.Val); ok || err != nil {
			exprs, cols = append(exprs, fs...), append(cols, fcols...)
			origins = append(origins, make([]Origin, len(fcols))...)
			if err != nil {
				return nil, nil, err
			}
			continue
		}
		e, err := b.bindExpr(sc, rt.Val)
		if err != nil {
			return nil, nil, err
		}
		if e.Type().Kind == value.Unknown {
			t := value.TextType
			if b.isInsertTargets(targets) {
				t = value.UnknownType
				if i < len(b.insertSelectTypes) {
					t = b.insertSelectTypes[i]
				}
			}
			c, err := b.coerce(e, t, rt.Location)
			if err != nil {
				return nil, nil, err
			}
			if b.isInsertTargets(targets) && i < len(b.insertSelectDomains) {
				if err := b.checkArrayLiteral(e, c, b.insertSelectDomains[i], leftmostLoc(rt.Val)); err != nil {
					return nil, nil, err
				}
			}
			e = b.xmlOption(e, t, c)
		}
		name := rt.Name
		if name == "" {
			name = b.stmt.starNames.figure(rt.Val)
		}
		exprs = append(exprs, e)
		cols = append(cols, plan.Column{Name: name, Type: e.Type()})
		origins = append(origins, b.targetOrigin(sc, rt.Val, e))
	}
	return exprs, cols, nil
}

// isInsertTargets reports whether targets is the select list of INSERT …
// SELECT, the statement's own (not a subquery's or a set operation's).
func (b *binder) isInsertTargets(targets []*pg_query.Node) bool {
	return len(targets) > 0 && len(b.insertSelectList) > 0 && &targets[0] == &b.insertSelectList[0]
}

// pgTypeName maps a type name to the internal name PostgreSQL uses as a
// column name for a cast constant ('1'::integer is named int4).
func pgTypeName(n string) string {
	switch n {
	case "integer", "int":
		return "int4"
	case "smallint":
		return "int2"
	case "bigint":
		return "int8"
	case "real":
		return "float4"
	case "double precision", "float":
		return "float8"
	case "boolean":
		return "bool"
	case "decimal":
		return "numeric"
	case "character varying":
		return "varchar"
	case "character":
		return "bpchar" // pg_query spells SQL's char bpchar already; "char" is the one-byte type
	}
	return n
}

// bindOrderLimit adds DISTINCT ON, ORDER BY, LIMIT and OFFSET over p. sc
// is the scope of the query's input and targets its bound select list (nil
// when ORDER BY may only name output columns). In a view, ORDER BY … LIMIT
// (and DISTINCT ON) become a maintained top-k; in a query, a sort and a
// limit.
func (b *binder) bindOrderLimit(sel *pg_query.SelectStmt, p plan.Node, sc *scope, targets []expr.Expr) (plan.Node, error) {
	hasLimit := sel.LimitCount != nil || sel.LimitOffset != nil
	if c := sel.LimitCount.GetAConst(); b.forView && sel.LimitOffset == nil && c != nil && c.Isnull {
		hasLimit = false // LIMIT ALL (or NULL) alone keeps every row: no limit to maintain
	}
	var distinctOn []*pg_query.Node
	if len(sel.DistinctClause) > 0 && sel.DistinctClause[0].GetNode() != nil {
		distinctOn = sel.DistinctClause
	}
	if b.forView {
		if err := b.checkViewOrder(sel, hasLimit, distinctOn); err != nil {
			return nil, err
		}
	}
	if len(sel.SortClause) == 0 && len(distinctOn) == 0 {
		return b.bindLimit(sel, p, sc, hasLimit)
	}
	cols := p.Columns()
	var extra []expr.Expr // sort expressions not in the select list
	subs := 0
	if b.agg != nil {
		subs = len(b.agg.subs)
	}
	keys, err := b.orderKeys(sel.SortClause, cols, sc, targets, p, &extra)
	if err != nil {
		return nil, err
	}
	if b.forView && !hasLimit && len(distinctOn) == 0 {
		if b.agg != nil {
			b.agg.subs = b.agg.subs[:subs] // an order the view does not keep
		}
		// ORDER BY without LIMIT leaves a view's rows as they are (a
		// set); the view's own, over its columns, orders them as read.
		if sel == b.viewTop && len(extra) == 0 {
			b.viewOrder = keys
		}
		return p, nil
	}
	var part []plan.SortKey
	if len(distinctOn) > 0 {
		var items []*pg_query.Node
		for _, n := range distinctOn {
			items = append(items, &pg_query.Node{Node: &pg_query.Node_SortBy{SortBy: &pg_query.SortBy{Node: n, Location: nodeLoc(n, -1)}}})
		}
		if part, err = b.orderKeys(items, cols, sc, targets, p, &extra); err != nil {
			return nil, err
		}
		// PostgreSQL requires the ORDER BY to start with the DISTINCT ON
		// expressions; the order within a partition is the rest of it.
		for i := range part {
			if i < len(keys) && exprKey(keys[i].Expr) != exprKey(part[i].Expr) {
				return nil, b.stmt.errf(nodeLoc(distinctOn[0], -1), pgerr.InvalidColumnRef,
					"SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
			}
		}
	}
	// Widen the projection with the hidden sort columns, then drop them.
	in := p
	if len(extra) > 0 {
		proj := p.(*plan.Project)
		wide := &plan.Project{Input: proj.Input, Exprs: append(append([]expr.Expr{}, proj.Exprs...), extra...), Cols: append([]plan.Column{}, proj.Cols...)}
		for _, e := range extra {
			wide.Cols = append(wide.Cols, plan.Column{Name: "?sort?", Type: e.Type()})
		}
		in = wide
	}
	if len(part) > 0 {
		pe := make([]expr.Expr, len(part))
		for i, k := range part {
			pe[i] = k.Expr
		}
		order := keys
		if len(order) > len(part) {
			order = order[len(part):]
		} else {
			order = nil
		}
		in = &plan.TopK{Input: in, Partition: pe, Order: order, Limit: 1}
	}
	if b.forView && !(hasLimit && b.limitReadsOuter(sel, sc)) {
		if hasLimit {
			limit, offset, err := b.constLimits(sel, sc)
			if err != nil {
				return nil, err
			}
			if sel.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES {
				in = b.viewWithTiesOffset(in, keys, limit, offset)
			} else {
				in = &plan.TopK{Input: in, Order: keys, Limit: limit, Offset: offset}
			}
		}
	} else {
		in = &plan.Sort{Input: in, Keys: keys}
		if in, err = b.bindLimit(sel, in, sc, hasLimit); err != nil {
			return nil, err
		}
		if lim, ok := in.(*plan.Limit); ok && sel.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES {
			lim.Ties = keys
			if lim.Count == nil {
				lim.Count = &expr.Const{V: value.Null, T: value.Int8Type} // FETCH FIRST NULL ROWS: an error
			}
		}
	}
	if len(extra) == 0 {
		return in, nil
	}
	narrow := make([]expr.Expr, len(cols))
	for i, c := range cols {
		narrow[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	return &plan.Project{Input: in, Exprs: narrow, Cols: cols}, nil
}

// checkViewOrder refuses the orderings a view cannot maintain: LIMIT
// without ORDER BY (arbitrary rows), OFFSET without LIMIT.
func (b *binder) checkViewOrder(sel *pg_query.SelectStmt, hasLimit bool, distinctOn []*pg_query.Node) error {
	switch {
	case hasLimit && len(sel.SortClause) == 0:
		word, what := "limit", "LIMIT"
		if sel.LimitCount == nil {
			word, what = "offset", "OFFSET"
		}
		loc := b.keyword(word, 0)
		if loc < 0 && word == "limit" {
			loc, what = b.keyword("fetch", 0), "FETCH FIRST"
		}
		return b.refuse(loc, "%s without ORDER BY keeps arbitrary rows and cannot be maintained", what).
			WithHint("add an ORDER BY that orders the rows totally, e.g. ending with the primary key")
	case hasLimit && sel.LimitCount == nil:
		return b.refuse(b.keyword("offset", 0), "OFFSET without LIMIT is not maintained in a view").
			WithHint("read the view with OFFSET instead")
	}
	return nil
}

// constLimits evaluates a view's LIMIT and OFFSET, which must be
// non-negative constants.
func (b *binder) constLimits(sel *pg_query.SelectStmt, sc *scope) (limit, offset int64, err error) {
	eval := func(n *pg_query.Node, what string) (int64, error) {
		if n == nil {
			return 0, nil
		}
		if c := n.GetAConst(); c != nil && c.Isnull {
			return 0, b.refuse(nodeLoc(n, -1), "%s ALL is not maintained in a view", what).WithHint("drop the LIMIT and order when reading")
		}
		arg, err := b.viewLimitArg(n, what)
		if err != nil {
			return 0, err
		}
		e, err := b.bindLimitExpr(&scope{}, sc, arg, what, nodeLoc(n, -1))
		if err != nil {
			return 0, err
		}
		if len(expr.Columns(e)) > 0 || e.Volatile() {
			return 0, b.refuse(nodeLoc(n, -1), "%s must be a constant in a view", what)
		}
		v, err := e.Eval(nil)
		if err != nil {
			return 0, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(n, -1)))
		}
		if v.IsNull() {
			return 0, b.stmt.errf(nodeLoc(n, -1), "2201W", "%s must not be NULL in a view", what)
		}
		if v.Int() < 0 {
			// PostgreSQL's errors when the query runs.
			code := "2201W"
			if what == "OFFSET" {
				code = "2201X"
			}
			return 0, b.stmt.errf(nodeLoc(n, -1), code, "%s must not be negative", what)
		}
		return v.Int(), nil
	}
	if limit, err = eval(sel.LimitCount, "LIMIT"); err != nil {
		return 0, 0, err
	}
	offset, err = eval(sel.LimitOffset, "OFFSET")
	return limit, offset, err
}

// orderKeys binds ORDER BY items: an output column named alone, a
// position, or an expression over the input (appended to extra as a
// hidden column when the select list does not compute it).
func (b *binder) orderKeys(clause []*pg_query.Node, cols []plan.Column, sc *scope, targets []expr.Expr, p plan.Node, extra *[]expr.Expr) ([]plan.SortKey, error) {
	var keys []plan.SortKey
	_, isDistinct := p.(*plan.Distinct)
	for _, n := range clause {
		sb := n.GetSortBy()
		idx := -1
		if cr := sb.Node.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			name := cr.Fields[0].GetString_().Sval
			for i, c := range cols {
				if c.Name == name {
					if idx >= 0 {
						return nil, b.stmt.errf(cr.Location, pgerr.AmbiguousColumn, "ORDER BY %q is ambiguous", name)
					}
					idx = i
				}
			}
		} else if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			pos := int(c.GetIval().Ival)
			if pos < 1 || pos > len(cols) {
				return nil, b.stmt.errf(c.Location, pgerr.InvalidColumnRef, "ORDER BY position %d is not in select list", pos)
			}
			idx = pos - 1
		}
		var key expr.Expr
		if idx >= 0 {
			key = &expr.Col{Idx: idx, T: cols[idx].Type, Name: cols[idx].Name}
		} else {
			if targets == nil {
				return nil, b.setOpOrderError(sb.Node, sb.Location)
			}
			e, ok := b.sortBound[sb.Node]
			if !ok {
				var err error
				if e, err = b.bindExpr(sc, sb.Node); err != nil {
					return nil, err
				}
			}
			for i, t := range targets {
				if exprKey(t) == exprKey(e) {
					key = &expr.Col{Idx: i, T: cols[i].Type, Name: cols[i].Name}
					break
				}
			}
			for i, x := range *extra {
				if key == nil && exprKey(x) == exprKey(e) {
					key = &expr.Col{Idx: len(cols) + i, T: e.Type()}
				}
			}
			if key == nil {
				if isDistinct {
					return nil, b.stmt.errf(nodeLoc(sb.Node, sb.Location), pgerr.InvalidColumnRef, "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
				}
				key = &expr.Col{Idx: len(cols) + len(*extra), T: e.Type()}
				*extra = append(*extra, e)
			}
		}
		if err := b.noJSONOrder(key.Type(), "ordering", nodeLoc(sb.Node, sb.Location)); err != nil {
			return nil, err
		}
		if err := b.sortKeyCollation(sc, idx, targets, *extra, key); err != nil {
			return nil, err
		}
		desc, nullsFirst, err := b.sortDirection(sb)
		if err != nil {
			return nil, err
		}
		keys = append(keys, plan.SortKey{Expr: key, Desc: desc, NullsFirst: nullsFirst})
	}
	return keys, nil
}

// keyword returns the 0-based offset of the first occurrence of keyword at
// or after from in the statement, or -1.
func (b *binder) keyword(word string, from int) int32 {
	res, err := pg_query.Scan(b.stmt.SQL)
	if err != nil {
		return -1
	}
	for _, t := range res.Tokens {
		if int(t.Start) >= from && t.KeywordKind != pg_query.KeywordKind_NO_KEYWORD &&
			strings.EqualFold(b.stmt.SQL[t.Start:t.End], word) {
			return t.Start
		}
	}
	return -1
}

// sortDirection returns an ORDER BY item's direction and where its NULLs
// go: PostgreSQL's default is NULLS LAST ascending, NULLS FIRST descending.
func (b *binder) sortDirection(sb *pg_query.SortBy) (desc, nullsFirst bool, err error) {
	desc = sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC
	if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
		// USING < and USING > are ASC and DESC, their NULLs placed alike;
		// no other operator orders (every ordered type here has its btree
		// < and >).
		switch op := opName(sb.UseOp); op {
		case "<":
		case ">":
			desc = true
		default:
			return false, false, b.stmt.errf(sb.Location, pgerr.WrongObjectType, "operator %s is not a valid ordering operator", op).
				WithHint(`Ordering operators must be "<" or ">" members of btree operator families.`)
		}
	}
	switch sb.SortbyNulls {
	case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
		return desc, true, nil
	case pg_query.SortByNulls_SORTBY_NULLS_LAST:
		return desc, false, nil
	}
	return desc, desc, nil
}
