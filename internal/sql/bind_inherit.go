package sql

import (
	"cmp"
	"fmt"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Table inheritance (CREATE TABLE … INHERITS). Each table of a hierarchy
// is an ordinary stored table with its own rows. A read of a table
// without ONLY reads its rows and those of every descendant, each
// descendant's projected onto the table's columns by name: a UNION ALL of
// scans, which a view maintains as any union (a change to a child costs
// one change). UPDATE and DELETE without ONLY are bound again over each
// descendant (Update.Inherited); INSERT writes the table named.

// InheritMember is a descendant of a table in its inheritance hierarchy:
// Map gives, for each column of the table, the descendant's column of
// the same name.
type InheritMember struct {
	Rel *Relation
	Map []int
}

// AlterInherit is ALTER TABLE child [NO] INHERIT parent.
type AlterInherit struct {
	Child, Parent string
	Drop          bool // NO INHERIT
	// InheritedOnly, without Parent, is what a database file records of
	// the columns of Child that its parents give and it does not declare
	// (PostgreSQL's attislocal false), as ALTER TABLE child ALTER COLUMN
	// a SET (attislocal = false): a statement only a store's restoring
	// session runs; elsewhere it is 22023, as PostgreSQL's.
	InheritedOnly []string
	// InheritedChecks is InheritedOnly for CHECK constraints (conislocal
	// false), as ALTER TABLE child SET (conislocal = 'name').
	InheritedChecks []string
}

func (*AlterInherit) bound() {}

// inheritParent resolves a parent INHERITS or ALTER TABLE … INHERIT names,
// with PostgreSQL's errors for what cannot be one; childTemp tells
// whether the child is a temporary table.
func (b *binder) inheritParent(rv *pg_query.RangeVar, childTemp bool) (*Relation, error) {
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok {
		return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	}
	switch {
	case rel.Partition != nil:
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot inherit from partition %q", rel.Name)
	case rel.Def != nil && rel.Def.PartitionBy != nil:
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot inherit from partitioned table %q", rel.Name)
	case rel.Kind != KindTable || rel.Def == nil || rel.System:
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "inherited relation %q is not a table or foreign table", rv.Relname)
	case rel.Def.ChangeStream:
		return nil, b.refuse(rv.Location, "inheritance from change-stream table %q is not supported", rel.Name)
	case rel.Def.Temp && !childTemp:
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot inherit from temporary relation %q", keyName(rel.Name))
	}
	return rel, nil
}

// mergeInherited merges the columns and CHECK constraints of the parents
// CREATE TABLE … INHERITS names with its own, as PostgreSQL does: the
// parents' columns first, in order, one column per name (NOT NULL if any
// definition says so), then the table's own columns; its own definition
// of an inherited column gives its default.
func (b *binder) mergeInherited(cs *pg_query.CreateStmt, locals []*pg_query.ColumnDef, cons []*pg_query.Constraint) ([]*pg_query.ColumnDef, []*pg_query.Constraint, []string, []string, error) {
	var (
		out     []*pg_query.ColumnDef
		types   []string // each merged column's type, for the conflicts' detail
		gens    []string // each merged column's generation expression, "" for none
		checks  []*pg_query.Constraint
		checkOf = map[string]string{} // inherited check name → its text
		parents []string
		notices []string
		at      = map[string]int{}
	)
	for _, n := range cs.InhRelations {
		rv := n.GetRangeVar()
		rel, err := b.inheritParent(rv, cs.Relation.Relpersistence == "t")
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if slices.Contains(parents, rel.Name) {
			return nil, nil, nil, nil, b.stmt.errf(rv.Location, pgerr.DuplicateTable, "relation %q would be inherited from more than once", rv.Relname)
		}
		parents = append(parents, rel.Name)
		for i, c := range rel.Cols {
			typ := c.Type.String()
			if dom := fieldDomain(rel, i); dom != nil {
				typ = QuoteIdent(dom.Name())
			}
			def := rel.Def.Cols[i]
			if j, ok := at[c.Name]; ok {
				notices = append(notices, fmt.Sprintf("merging multiple inherited definitions of column %q", c.Name))
				if types[j] != typ {
					return nil, nil, nil, nil, pgerr.New(pgerr.DatatypeMismatch, "inherited column %q has a type conflict", c.Name).
						WithDetail("%s versus %s", types[j], typ)
				}
				out[j].IsNotNull = out[j].IsNotNull || def.NotNull
				if gens[j] != def.GeneratedSQL {
					return nil, nil, nil, nil, pgerr.New(pgerr.DatatypeMismatch, "inherited column %q has a generation conflict", c.Name)
				}
				continue
			}
			tn, err := typeNameOf(typ)
			if err != nil {
				return nil, nil, nil, nil, b.refuse(rv.Location, "column %q of %q has a type that cannot be inherited: %v", c.Name, rv.Relname, err)
			}
			cd := &pg_query.ColumnDef{Colname: c.Name, TypeName: tn, IsNotNull: def.NotNull, Location: cs.Relation.Location}
			if def.GeneratedSQL != "" {
				raw, err := exprOf(def.GeneratedSQL)
				if err != nil {
					return nil, nil, nil, nil, err
				}
				cd.Constraints = append(cd.Constraints, &pg_query.Node{Node: &pg_query.Node_Constraint{Constraint: &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_GENERATED, GeneratedWhen: "a", RawExpr: raw, Location: cs.Relation.Location}}})
			}
			text := def.DefaultSQL
			if seq := def.OwnedSequence(); seq != "" && def.Identity == 0 {
				text = SerialDefault(seq) // the child calls the parent's sequence
			}
			if text != "" {
				raw, err := exprOf(text)
				if err != nil {
					return nil, nil, nil, nil, err
				}
				cd.Constraints = append(cd.Constraints, &pg_query.Node{Node: &pg_query.Node_Constraint{Constraint: &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_DEFAULT, RawExpr: raw, Location: cs.Relation.Location}}})
			}
			at[c.Name] = len(out)
			out, types, gens = append(out, cd), append(types, typ), append(gens, def.GeneratedSQL)
		}
		for _, ch := range rel.Def.Checks {
			if ch.NoInherit {
				continue
			}
			if text, ok := checkOf[ch.Name]; ok {
				if text != ch.SQL {
					return nil, nil, nil, nil, pgerr.New(pgerr.DuplicateObject, "check constraint name %q appears multiple times but with different expressions", ch.Name)
				}
				continue
			}
			raw, err := exprOf(ch.SQL)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			checkOf[ch.Name] = ch.SQL
			checks = append(checks, &pg_query.Constraint{Contype: pg_query.ConstrType_CONSTR_CHECK, Conname: ch.Name, RawExpr: raw, Location: cs.Relation.Location})
		}
	}
	for _, cd := range locals {
		j, ok := at[cd.Colname]
		if !ok {
			out, types, gens = append(out, cd), append(types, ""), append(gens, "")
			continue
		}
		notices = append(notices, fmt.Sprintf("merging column %q with inherited definition", cd.Colname))
		t, err := b.typeFromName(cd.TypeName)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		typ := t.String()
		if dom, err := b.typeDomain(cd.TypeName); err == nil && dom != nil {
			typ = QuoteIdent(dom.Name())
		}
		if typ != types[j] {
			return nil, nil, nil, nil, b.stmt.errf(cd.TypeName.Location, pgerr.DatatypeMismatch, "column %q has a type conflict", cd.Colname).
				WithDetail("%s versus %s", types[j], typ)
		}
		merged := out[j]
		merged.IsNotNull = merged.IsNotNull || cd.IsNotNull
		localDefault := slices.ContainsFunc(cd.Constraints, func(n *pg_query.Node) bool {
			return n.GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_DEFAULT
		})
		if err := inheritedGenerated(cd, gens[j] != ""); err != nil {
			return nil, nil, nil, nil, err
		}
		if localDefault {
			merged.Constraints = nil
		}
		merged.Constraints = append(merged.Constraints, cd.Constraints...)
	}
	// The table's own CHECK constraints, of the table or of a column,
	// merge with an inherited one of the same name and expression.
	var mergedChecks []string
	ownCheck := func(c *pg_query.Constraint) (bool, error) {
		if c.GetContype() != pg_query.ConstrType_CONSTR_CHECK || c.Conname == "" {
			return false, nil
		}
		text, ok := checkOf[c.Conname]
		if !ok {
			return false, nil
		}
		if mine, err := deparseExpr(c.RawExpr); err != nil || mine != text {
			return false, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", c.Conname, cs.Relation.Relname)
		}
		notices = append(notices, fmt.Sprintf("merging constraint %q with inherited definition", c.Conname))
		mergedChecks = append(mergedChecks, c.Conname)
		return true, nil
	}
	var err error
	for _, cd := range out {
		cd.Constraints = slices.DeleteFunc(cd.Constraints, func(n *pg_query.Node) bool {
			merged, e := ownCheck(n.GetConstraint())
			err = cmp.Or(err, e)
			return merged
		})
	}
	var own []*pg_query.Constraint
	for _, c := range cons {
		merged, e := ownCheck(c)
		if err = cmp.Or(err, e); !merged {
			own = append(own, c)
		}
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	b.inheritedChecks = nil
	for _, c := range checks {
		if !slices.Contains(mergedChecks, c.Conname) {
			b.inheritedChecks = append(b.inheritedChecks, c.Conname)
		}
	}
	return out, append(checks, own...), parents, notices, nil
}

// inheritScan reads rel and its descendants (rel.Inherit): rel's scan,
// p, then each descendant's rows projected onto rel's columns; with the
// system columns when the statement names one, each table's own
// (tableoid the table that holds the row).
func (b *binder) inheritScan(rel *Relation, p plan.Node, system bool) plan.Node {
	ins := []plan.Node{p}
	cols := p.Columns()
	cr, _ := b.cat.(ChildReader)
	for _, m := range rel.Inherit {
		if cr != nil {
			cr.ReadsChild(m.Rel.Name)
		}
		var in plan.Node = &plan.Scan{Relation: m.Rel.Name, Cols: m.Rel.Cols}
		sys := false
		if system {
			var sp plan.Node
			if sp, sys = b.withSystemColumns(m.Rel); sys {
				in = sp
			}
		}
		width := len(m.Rel.Cols)
		exprs := make([]expr.Expr, len(cols))
		for i, c := range cols {
			switch {
			case i < len(rel.Cols) && m.Map[i] < 0: // never: a descendant has its ancestors' columns
				exprs[i] = &expr.Const{V: value.Null, T: c.Type}
			case i < len(rel.Cols):
				exprs[i] = &expr.Col{Idx: m.Map[i], T: c.Type, Name: c.Name}
			case sys:
				exprs[i] = &expr.Col{Idx: width + i - len(rel.Cols), T: c.Type, Name: c.Name}
			default:
				exprs[i] = &expr.Const{V: value.Null, T: c.Type}
			}
		}
		ins = append(ins, &plan.Project{Input: in, Exprs: exprs, Cols: cols})
	}
	return &plan.UnionAll{Inputs: ins, Cols: cols}
}

// inheritedTargets binds a DML statement again over each descendant of
// the table it names without ONLY: bind is called with the statement's
// relation naming the descendant (ONLY), under the table's name as alias
// when the statement gives none, and with RETURNING * and alias.* spelt
// out as the table's columns, which are all a descendant's rows show.
func (b *binder) inheritedTargets(rv *pg_query.RangeVar, returning *[]*pg_query.Node, from []*pg_query.Node, bind func() error) error {
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok || !rv.Inh || len(rel.Inherit) == 0 {
		return nil
	}
	name, schema, alias0, savedRet := rv.Relname, rv.Schemaname, rv.Alias, *returning
	defer func() {
		rv.Relname, rv.Schemaname, rv.Alias, rv.Inh, *returning = name, schema, alias0, true, savedRet
	}()
	alias := rel.Name
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	} else {
		rv.Alias = &pg_query.Alias{Aliasname: b.refName(rel.Name)}
		alias = rv.Alias.Aliasname
	}
	list, err := b.fromStars(savedRet, alias, rel.Name, from)
	if err != nil {
		return err
	}
	*returning = expandReturningStars(list, alias, rel.Cols)
	defer func() { b.inheritTarget = nil }()
	for _, m := range rel.Inherit {
		rv.Relname, rv.Schemaname, rv.Inh = m.Rel.Name, "", false
		// The descendant is reached through the table named: its
		// privileges and row-level security are the table's, as in
		// PostgreSQL, and it is not a relation the statement names.
		child := *m.Rel
		child.Security = rel.Security
		b.inheritTarget = &child
		if err := bind(); err != nil {
			return err
		}
	}
	return nil
}

// fromStars spells out * in a RETURNING list of a statement with FROM or
// USING (from) as alias.* followed by each FROM item's name.*, which is
// what * returns; an item whose columns * does not return so (a join
// with USING, a function without an alias) is refused.
func (b *binder) fromStars(list []*pg_query.Node, alias, table string, from []*pg_query.Node) ([]*pg_query.Node, error) {
	if len(from) == 0 {
		return list, nil
	}
	var names []string
	var walk func(n *pg_query.Node) bool
	walk = func(n *pg_query.Node) bool {
		switch {
		case n.GetRangeVar() != nil:
			r := n.GetRangeVar()
			if r.Alias != nil {
				names = append(names, r.Alias.Aliasname)
			} else {
				names = append(names, r.Relname)
			}
		case n.GetRangeSubselect() != nil && n.GetRangeSubselect().Alias != nil:
			names = append(names, n.GetRangeSubselect().Alias.Aliasname)
		case n.GetRangeFunction() != nil && n.GetRangeFunction().Alias != nil:
			names = append(names, n.GetRangeFunction().Alias.Aliasname)
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			if j.Alias != nil {
				names = append(names, j.Alias.Aliasname)
				return true
			}
			return !j.IsNatural && len(j.UsingClause) == 0 && walk(j.Larg) && walk(j.Rarg)
		default:
			return false
		}
		return true
	}
	var out []*pg_query.Node
	for _, n := range list {
		rt := n.GetResTarget()
		cr := rt.GetVal().GetColumnRef()
		if cr == nil || len(cr.Fields) != 1 || cr.Fields[0].GetAStar() == nil {
			out = append(out, n)
			continue
		}
		if names == nil {
			for _, f := range from {
				if !walk(f) {
					return nil, b.refuse(cr.Location, "RETURNING * of a statement with FROM or USING over table %q, which has inheritance children, is not supported with this FROM item", table).
						WithHint("name the columns to return, or write %s.* and the other tables' columns", table)
				}
			}
		}
		for _, q := range append([]string{alias}, names...) {
			ref := &pg_query.ColumnRef{Fields: []*pg_query.Node{
				{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: q}}},
				{Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}},
			}, Location: cr.Location}
			out = append(out, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
				Val: &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: ref}}, Location: rt.Location}}})
		}
	}
	return out, nil
}

// currentOfHierarchy sets, while an UPDATE or DELETE of rv binds,
// b.currentOfHier to the tables it reaches when rv names a table with
// inheritance children without ONLY; it returns what resets it.
func (b *binder) currentOfHierarchy(rv *pg_query.RangeVar) func() {
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok || !rv.Inh || len(rel.Inherit) == 0 {
		return func() {}
	}
	b.currentOfHier = []*Relation{rel}
	for _, m := range rel.Inherit {
		b.currentOfHier = append(b.currentOfHier, m.Rel)
	}
	return func() { b.currentOfHier = nil }
}

// targetRelation resolves the table a DML statement writes: the
// descendant being bound again, or the catalog's.
func (b *binder) targetRelation(rv *pg_query.RangeVar) (*Relation, bool) {
	if t := b.inheritTarget; t != nil && !rv.Inh && rv.Relname == t.Name {
		return t, true
	}
	return b.cat.Relation(rv.Relname)
}

// expandReturningStars spells out * and alias.* in a RETURNING list as
// the columns cols of the table named alias.
func expandReturningStars(list []*pg_query.Node, alias string, cols []plan.Column) []*pg_query.Node {
	var out []*pg_query.Node
	for _, n := range list {
		rt := n.GetResTarget()
		cr := rt.GetVal().GetColumnRef()
		if cr == nil || len(cr.Fields) == 0 || cr.Fields[len(cr.Fields)-1].GetAStar() == nil ||
			len(cr.Fields) == 2 && cr.Fields[0].GetString_().GetSval() != alias || len(cr.Fields) > 2 {
			out = append(out, n)
			continue
		}
		for _, c := range cols {
			ref := &pg_query.ColumnRef{Fields: []*pg_query.Node{
				{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: alias}}},
				{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: c.Name}}},
			}, Location: cr.Location}
			out = append(out, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
				Val: &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: ref}}, Location: rt.Location}}})
		}
	}
	return out
}

// bindAlterInherit binds ALTER TABLE child [NO] INHERIT parent, which
// must be the statement's only command; nil when it has none.
func (b *binder) bindAlterInherit(as *pg_query.AlterTableStmt) (Bound, error) {
	var cmd *pg_query.AlterTableCmd
	for _, n := range as.Cmds {
		c := n.GetAlterTableCmd()
		if st := c.GetSubtype(); st == pg_query.AlterTableType_AT_AddInherit || st == pg_query.AlterTableType_AT_DropInherit {
			cmd = c
		}
	}
	if cmd == nil {
		return b.bindInheritedOnly(as), nil
	}
	if len(as.Cmds) > 1 {
		return nil, b.refuse(as.Relation.Location, "ALTER TABLE … [NO] INHERIT with other commands is not supported").
			WithHint("write each command in its own ALTER TABLE")
	}
	rv := as.Relation
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok {
		if as.MissingOk {
			return &AlterTable{Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", rv.Relname)}}, nil
		}
		return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
	}
	if rel.Kind != KindTable || rel.Def == nil || rel.System {
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "%q is not a table", rv.Relname)
	}
	prv := cmd.GetDef().GetRangeVar()
	if prv == nil {
		return nil, b.refuse(rv.Location, "this ALTER TABLE … INHERIT is not supported")
	}
	ai := &AlterInherit{Child: rel.Name, Drop: cmd.Subtype == pg_query.AlterTableType_AT_DropInherit}
	if ai.Drop {
		parent, ok := b.cat.Relation(prv.Relname)
		if !ok {
			return nil, b.stmt.errf(prv.Location, pgerr.UndefinedTable, "relation %q does not exist", prv.Relname)
		}
		ai.Parent = parent.Name
		return ai, nil
	}
	switch {
	case rel.Partition != nil:
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot change inheritance of a partition")
	case rel.Def.PartitionBy != nil:
		return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "cannot change inheritance of partitioned table")
	case rel.Def.ChangeStream:
		return nil, b.refuse(rv.Location, "inheritance of table %q is not supported", rel.Name)
	}
	parent, err := b.inheritParent(prv, false)
	if err != nil {
		return nil, err
	}
	ai.Parent = parent.Name
	if parent.Name == rel.Name || slices.ContainsFunc(rel.Inherit, func(m InheritMember) bool { return m.Rel.Name == parent.Name }) {
		return nil, pgerr.New(pgerr.DuplicateTable, "circular inheritance not allowed").
			WithDetail("%q is already a child of %q.", parent.Name, rel.Name)
	}
	// The child must have each of the parent's columns, of its type, NOT
	// NULL where the parent's is, and each of its inherited CHECK
	// constraints, by name and expression.
	for i, c := range parent.Cols {
		j := slices.IndexFunc(rel.Cols, func(k plan.Column) bool { return k.Name == c.Name })
		if j < 0 {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "child table is missing column %q", c.Name)
		}
		if rel.Cols[j].Type != c.Type {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "child table %q has different type for column %q", rel.Name, c.Name)
		}
		if parent.Def.Cols[i].NotNull && !rel.Def.Cols[j].NotNull {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "column %q in child table must be marked NOT NULL", c.Name)
		}
		if pg, cg := parent.Def.Cols[i].GeneratedSQL, rel.Def.Cols[j].GeneratedSQL; pg != "" && cg == "" {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "column %q in child table must be a generated column", c.Name)
		} else if pg != "" && cg != pg {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "column %q in child table has a conflicting generation expression", c.Name)
		}
	}
	for _, ch := range parent.Def.Checks {
		if ch.NoInherit {
			continue
		}
		k := slices.IndexFunc(rel.Def.Checks, func(x Check) bool { return x.Name == ch.Name })
		if k < 0 {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "child table is missing constraint %q", ch.Name)
		}
		if rel.Def.Checks[k].SQL != ch.SQL {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "child table %q has different definition for check constraint %q", rel.Name, ch.Name)
		}
		if rel.Def.Checks[k].NoInherit {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "constraint %q conflicts with non-inherited constraint on child table %q", ch.Name, rel.Name)
		}
	}
	return ai, nil
}

// bindInheritedOnly binds ALTER TABLE child ALTER COLUMN a SET
// (attislocal = false), …: AlterInherit.InheritedOnly; nil for any
// other statement.
func (b *binder) bindInheritedOnly(as *pg_query.AlterTableStmt) Bound {
	ai := &AlterInherit{Child: as.GetRelation().GetRelname()}
	for _, n := range as.Cmds {
		c := n.GetAlterTableCmd()
		opts := c.GetDef().GetList().GetItems()
		if len(opts) != 1 {
			return nil
		}
		switch de := opts[0].GetDefElem(); {
		case c.GetSubtype() == pg_query.AlterTableType_AT_SetOptions && de.GetDefname() == "attislocal":
			ai.InheritedOnly = append(ai.InheritedOnly, c.Name)
		case c.GetSubtype() == pg_query.AlterTableType_AT_SetRelOptions && de.GetDefname() == "conislocal" && de.GetArg().GetString_() != nil:
			ai.InheritedChecks = append(ai.InheritedChecks, de.GetArg().GetString_().GetSval())
		default:
			return nil
		}
	}
	if rel, ok := b.cat.Relation(ai.Child); ok {
		ai.Child = rel.Name
	}
	return ai
}

// readsHierarchy reports whether an UPDATE or DELETE over a table with
// inheritance children reads a table of the hierarchy in a subquery,
// FROM, USING or RETURNING (reads): the statement changes one table
// after another, and such reads must see every table as the statement
// found it, as PostgreSQL's do (Update.ReadsHierarchy).
func (b *binder) readsHierarchy(rv *pg_query.RangeVar, reads ...plan.Node) bool {
	rel, ok := b.cat.Relation(rv.Relname)
	if !ok || !rv.Inh || len(rel.Inherit) == 0 {
		return false
	}
	in := map[string]bool{rel.Name: true}
	for _, m := range rel.Inherit {
		in[m.Rel.Name] = true
	}
	for _, p := range reads {
		if p == nil {
			continue
		}
		for _, r := range plan.Relations(p) {
			if t, ok := plan.SystemTable(r); ok {
				r = t
			}
			if in[r] {
				return true
			}
		}
	}
	return false
}
