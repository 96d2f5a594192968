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

// PartitionOf is CREATE TABLE … PARTITION OF parent FOR VALUES …: the
// partition holds the rows of Parent that Bound accepts. The locations
// (byte offsets in the statement) place the engine's overlap errors.
type PartitionOf struct {
	Parent   string
	Bound    expr.PartitionBound
	Loc      int32   // the FOR VALUES clause
	FromLocs []int32 // each datum of FROM, TO and IN
	ToLocs   []int32
	InLocs   []int32
}

// PartitionRel is what a relation that is a partition reads: the rows of
// Root, the stored partitioned table at the top of its tree, that Filter
// accepts.
type PartitionRel struct {
	Root   string
	Filter *expr.PartitionOf
	// Partitioned is set when the partition is itself partitioned.
	Partitioned bool
	// Defaults are the partition's column defaults, which the rows
	// written naming it take (those written through its parent take
	// the parent's), as in PostgreSQL.
	Defaults []expr.Expr
}

// partitionKey binds PARTITION BY over the table's columns.
func (b *binder) partitionKey(spec *pg_query.PartitionSpec, sc *scope, ct *CreateTable) error {
	k := &expr.PartitionKey{}
	switch spec.Strategy {
	case pg_query.PartitionStrategy_PARTITION_STRATEGY_RANGE:
		k.Strategy = expr.PartitionRange
	case pg_query.PartitionStrategy_PARTITION_STRATEGY_LIST:
		k.Strategy = expr.PartitionList
	case pg_query.PartitionStrategy_PARTITION_STRATEGY_HASH:
		k.Strategy = expr.PartitionHash
	default:
		return b.refuse(spec.Location, "this partitioning strategy is not supported")
	}
	if k.Strategy == expr.PartitionList && len(spec.PartParams) > 1 {
		return b.stmt.errf(spec.Location, pgerr.InvalidObjectDef, "cannot use \"list\" partition strategy with more than one column")
	}
	hasExpr := false
	for _, n := range spec.PartParams {
		pe := n.GetPartitionElem()
		if len(pe.Collation) > 0 || len(pe.Opclass) > 0 {
			return b.refuse(pe.Location, "COLLATE and operator classes in a partition key are not supported")
		}
		var e expr.Expr
		var text string
		if pe.Name != "" {
			i := slices.IndexFunc(ct.Cols, func(c ColumnDef) bool { return c.Name == pe.Name })
			if i < 0 {
				return b.stmt.errf(pe.Location, pgerr.UndefinedColumn, "column %q named in partition key does not exist", pe.Name)
			}
			e, text = &expr.Col{Idx: i, T: ct.Cols[i].Type, Name: pe.Name}, pe.Name
		} else {
			var err error
			if e, err = b.bindExpr(sc, pe.Expr); err != nil {
				return err
			}
			if notImmutable(e) { // without a position, as in PostgreSQL
				return pgerr.New(pgerr.InvalidObjectDef, "functions in partition key expression must be marked IMMUTABLE")
			}
			if text, err = deparseExpr(pe.Expr); err != nil {
				return pgerr.New(pgerr.Internal, "cannot write a partition key: %v", err)
			}
			if !strings.HasSuffix(text, ")") || strings.HasPrefix(text, "(") {
				text = "(" + text + ")" // a function call prints bare, as in PostgreSQL
			}
			hasExpr = true
		}
		method := "btree"
		if k.Strategy == expr.PartitionHash {
			method = "hash"
		}
		if err := partitionKeyClass(method, e.Type()); err != nil {
			return err
		}
		if k.Strategy == expr.PartitionHash && !expr.HashPartitionable(e.Type().Kind) {
			return b.refuse(pe.Location, "a hash partition key of type %s is not supported", e.Type()).
				WithHint("hash partition keys of integer, date, boolean and text types are supported")
		}
		k.Exprs, k.SQL = append(k.Exprs, e), append(k.SQL, text)
	}
	ct.PartitionBy = k
	// Every key a partitioned table declares holds across its partitions
	// only if it includes the partition key, as PostgreSQL requires.
	check := func(kind string, cols []int) error {
		if cols == nil {
			return nil
		}
		if hasExpr {
			return b.refuse(spec.Location, "unsupported %s constraint with partition key definition", kind).
				WithDetail("%s constraints cannot be used when partition keys include expressions.", kind)
		}
		for _, e := range k.Exprs {
			if c := e.(*expr.Col); !slices.Contains(cols, c.Idx) {
				return b.refuse(spec.Location, "unique constraint on partitioned table must include all partitioning columns").
					WithDetail("%s constraint on table %q lacks column %q which is part of the partition key.", kind, ct.Name, c.Name)
			}
		}
		return nil
	}
	if err := check("PRIMARY KEY", ct.PrimaryKey); err != nil {
		return err
	}
	for _, u := range ct.Uniques {
		if err := check("UNIQUE", u); err != nil {
			return err
		}
	}
	if ct.ChangeStream {
		return b.refuse(spec.Location, "a partitioned change-stream table is not supported")
	}
	return nil
}

// bindCreatePartition binds CREATE TABLE name PARTITION OF parent FOR
// VALUES … [PARTITION BY …]. The partition has its parent's columns and
// keys; its rows are kept in the root's store.
func (b *binder) bindCreatePartition(cs *pg_query.CreateStmt) (Bound, error) {
	rv := cs.Relation
	pv := cs.InhRelations[0].GetRangeVar()
	parent, ok := b.cat.Relation(pv.Relname)
	if !ok || pv.Schemaname != "" && pv.Schemaname != "public" {
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", pv.Relname)
	}
	if parent.Kind != KindTable {
		return nil, pgerr.New(pgerr.WrongObjectType, "inherited relation %q is not a table or foreign table", pv.Relname)
	}
	if parent.Def == nil || parent.Def.PartitionBy == nil {
		return nil, pgerr.New(pgerr.InvalidObjectDef, "%q is not partitioned", parent.Name)
	}
	// A temporary partitioned table's partitions are temporary, and
	// only its: PostgreSQL's checks, before any other.
	temp := rv.Relpersistence == "t" || rv.Schemaname == "pg_temp"
	if temp && !TempKey(parent.Name) {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot create a temporary relation as partition of permanent relation %q", pv.Relname)
	}
	if !temp && TempKey(parent.Name) {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot create a permanent relation as partition of temporary relation %q", parent.Name[strings.IndexByte(parent.Name, '.')+1:])
	}
	if rv.Relpersistence == "u" {
		return nil, b.refuse(rv.Location, "unlogged partitions are not supported").
			WithHint("create the partition without UNLOGGED: its rows are written to the database file either way")
	}
	if len(cs.Options) > 0 || cs.Oncommit != pg_query.OnCommitAction_ONCOMMIT_NOOP {
		return nil, b.refuse(rv.Location, "storage options and ON COMMIT of a partition are not supported")
	}
	pd := parent.Def
	ct := &CreateTable{Name: rv.Relname, NameLoc: int(rv.Location), IfNotExists: cs.IfNotExists, Cols: slices.Clone(pd.Cols),
		PrimaryKey: pd.PrimaryKey, Uniques: pd.Uniques, Temp: temp}
	root := pd
	if parent.Partition != nil {
		// The checks of the partitioned partitions above it hold for
		// its rows too; the root's are the root's.
		ct.Checks = slices.Clone(pd.Checks)
		if r, ok := b.cat.Relation(parent.Partition.Root); ok && r.Def != nil {
			root = r.Def
		}
	}
	if err := b.partitionOwn(cs.TableElts, ct, root); err != nil {
		return nil, err
	}
	of, err := b.partitionBound(cs.Partbound, pd.PartitionBy, ct.Name)
	if err != nil {
		return nil, err
	}
	of.Parent = parent.Name
	ct.PartitionOf = of
	if cs.Partspec != nil {
		sc := &scope{}
		for _, c := range ct.Cols {
			sc.cols = append(sc.cols, scopeCol{qual: ct.Name, name: c.Name, typ: c.Type})
		}
		if err := b.partitionKey(cs.Partspec, sc, ct); err != nil {
			return nil, err
		}
	}
	ct.PrimaryKey, ct.Uniques = nil, nil // the root keeps them
	return ct, nil
}

// partitionBound binds FOR VALUES … of a partition of a table
// partitioned by key.
func (b *binder) partitionBound(spec *pg_query.PartitionBoundSpec, key *expr.PartitionKey, name string) (*PartitionOf, error) {
	of := &PartitionOf{Loc: spec.Location}
	if spec.IsDefault {
		if key.Strategy == expr.PartitionHash {
			return nil, b.stmt.errf(spec.Location, pgerr.InvalidTableDef, "a hash-partitioned table may not have a default partition")
		}
		of.Bound.Default = true
		return of, nil
	}
	strat := map[byte]string{expr.PartitionRange: "range", expr.PartitionList: "list", expr.PartitionHash: "hash"}[key.Strategy]
	if spec.Strategy != string(rune(key.Strategy)) {
		return nil, b.stmt.errf(spec.Location, pgerr.InvalidTableDef, "invalid bound specification for a %s partition", strat)
	}
	datum := func(n *pg_query.Node, col int) (value.Value, int32, error) {
		loc := nodeLoc(n, spec.Location)
		e, err := b.bindExpr(&scope{}, n)
		if err != nil {
			return value.Value{}, loc, err
		}
		t := key.Exprs[col].Type()
		if e, err = b.assignCast(e, t, key.SQL[col], loc); err != nil {
			return value.Value{}, loc, b.stmt.errf(loc, pgerr.DatatypeMismatch, "specified value cannot be cast to type %s for column %q", t, key.SQL[col])
		}
		v, err := e.Eval(nil)
		if err != nil {
			return value.Value{}, loc, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		return v, loc, nil
	}
	switch key.Strategy {
	case expr.PartitionHash:
		if spec.Modulus <= 0 {
			return nil, b.stmt.errf(spec.Location, pgerr.InvalidTableDef, "modulus for hash partition must be an integer value greater than zero")
		}
		if spec.Remainder < 0 {
			return nil, b.stmt.errf(spec.Location, pgerr.InvalidTableDef, "remainder for hash partition must be an integer value greater than or equal to zero")
		}
		if spec.Remainder >= spec.Modulus {
			return nil, b.stmt.errf(spec.Location, pgerr.InvalidTableDef, "remainder for hash partition must be less than modulus")
		}
		of.Bound.Modulus, of.Bound.Remainder = int(spec.Modulus), int(spec.Remainder)
	case expr.PartitionList:
		for _, n := range spec.Listdatums {
			v, loc, err := datum(n, 0)
			if err != nil {
				return nil, err
			}
			dup := slices.ContainsFunc(of.Bound.In, func(w value.Value) bool {
				return w.IsNull() == v.IsNull() && (v.IsNull() || value.Compare(v, w) == 0)
			})
			if !dup { // PostgreSQL ignores a value listed twice
				of.Bound.In, of.InLocs = append(of.Bound.In, v), append(of.InLocs, loc)
			}
		}
	default:
		bound := func(ns []*pg_query.Node, which string) ([]expr.RangeDatum, []int32, error) {
			if len(ns) != len(key.Exprs) {
				what := "many"
				if len(ns) < len(key.Exprs) {
					what = "few"
				}
				return nil, nil, b.stmt.errf(spec.Location, pgerr.InvalidTableDef, "too %s bounds specified in %s partition bound", what, strings.ToUpper(which))
			}
			var out []expr.RangeDatum
			var locs []int32
			for i, n := range ns {
				if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
					switch cr.Fields[0].GetString_().Sval {
					case "minvalue":
						out, locs = append(out, expr.RangeDatum{Inf: -1}), append(locs, cr.Location)
						continue
					case "maxvalue":
						out, locs = append(out, expr.RangeDatum{Inf: 1}), append(locs, cr.Location)
						continue
					}
				}
				v, loc, err := datum(n, i)
				if err != nil {
					return nil, nil, err
				}
				if v.IsNull() {
					return nil, nil, b.stmt.errf(loc, pgerr.InvalidObjectDef, "cannot specify NULL in range bound")
				}
				out, locs = append(out, expr.RangeDatum{V: v}), append(locs, loc)
			}
			// After MINVALUE or MAXVALUE, the rest must be the same.
			for i := 1; i < len(out); i++ {
				if p := out[i-1].Inf; p != 0 && out[i].Inf != p {
					word := map[int8]string{-1: "MINVALUE", 1: "MAXVALUE"}[p]
					return nil, nil, b.stmt.errf(locs[i], pgerr.DatatypeMismatch, "every bound following %s must also be %s", word, word)
				}
			}
			return out, locs, nil
		}
		var err error
		if of.Bound.From, of.FromLocs, err = bound(spec.Lowerdatums, "from"); err != nil {
			return nil, err
		}
		if of.Bound.To, of.ToLocs, err = bound(spec.Upperdatums, "to"); err != nil {
			return nil, err
		}
		if expr.RangeBoundCmp(of.Bound.From, of.Bound.To) >= 0 {
			return nil, b.stmt.errf(of.FromLocs[0], pgerr.InvalidObjectDef, "empty range bound specified for partition %q", name).
				WithDetail("Specified lower bound %s is greater than or equal to upper bound %s.", RangeBoundText(of.Bound.From), RangeBoundText(of.Bound.To))
		}
	}
	return of, nil
}

// RangeBoundText prints a range bound as PostgreSQL does: (1, MAXVALUE).
func RangeBoundText(ds []expr.RangeDatum) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		switch d.Inf {
		case -1:
			parts[i] = "MINVALUE"
		case 1:
			parts[i] = "MAXVALUE"
		default:
			parts[i] = boundLiteral(d.V)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// boundLiteral is a bound value as pg_get_expr prints it: numbers bare,
// anything else quoted.
func boundLiteral(v value.Value) string {
	if v.IsNull() {
		return "NULL"
	}
	s := string(value.AppendText(nil, v))
	switch v.Kind() {
	case value.Int2, value.Int4, value.Int8, value.Numeric, value.Float4, value.Float8:
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// BoundSQL is a partition's bound as pg_get_expr(relpartbound) prints it.
func BoundSQL(b *expr.PartitionBound) string {
	switch {
	case b.Default:
		return "DEFAULT"
	case b.Modulus > 0:
		return fmt.Sprintf("FOR VALUES WITH (modulus %d, remainder %d)", b.Modulus, b.Remainder)
	case b.From != nil:
		return "FOR VALUES FROM " + RangeBoundText(b.From) + " TO " + RangeBoundText(b.To)
	}
	parts := make([]string, len(b.In))
	for i, v := range b.In {
		parts[i] = boundLiteral(v)
	}
	return "FOR VALUES IN (" + strings.Join(parts, ", ") + ")"
}

// partitionScan reads a partition: its root's rows that its constraint
// accepts. ONLY a partitioned table reads nothing, as in PostgreSQL,
// where such a table keeps no rows of its own.
func (b *binder) partitionScan(rv *pg_query.RangeVar, rel *Relation) (plan.Node, *Relation, error) {
	if !rv.Inh && rel.Def != nil && rel.Def.PartitionBy != nil {
		return &plan.Filter{Input: &plan.Scan{Relation: rel.Name, Cols: rel.Cols}, Pred: &expr.Const{V: value.NewBool(false), T: value.BoolType}}, rel, nil
	}
	root, ok := b.lookupRelation(rel.Partition.Root)
	if !ok {
		return nil, nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rel.Partition.Root)
	}
	return &plan.Filter{Input: &plan.Scan{Relation: root.Name, Cols: root.Cols}, Pred: rel.Partition.Filter}, root, nil
}

// AttachPartition is ALTER TABLE parent ATTACH PARTITION t FOR VALUES
// …: the table's rows move into the partitioned table's root, and the
// table becomes a partition (PartitionOf, as CREATE TABLE … PARTITION OF
// would make it).
type AttachPartition struct {
	Table     *CreateTable
	Partition *CreateTable
}

// DetachPartition is ALTER TABLE parent DETACH PARTITION p: the
// partition's rows move into a table of its own, Table.
type DetachPartition struct {
	Parent, Name string
	Table        *CreateTable
	// Concurrent is DETACH … CONCURRENTLY, which here detaches at once
	// as the plain form does, outside a transaction block (25001) and
	// without a default partition beside it (55000), as in PostgreSQL.
	Concurrent bool
}

func (*AttachPartition) bound() {}
func (*DetachPartition) bound() {}

// bindAttachDetach binds ALTER TABLE … ATTACH PARTITION and DETACH
// PARTITION; nil when the statement has neither.
func (b *binder) bindAttachDetach(as *pg_query.AlterTableStmt) (Bound, error) {
	for _, n := range as.Cmds {
		cmd := n.GetAlterTableCmd()
		switch cmd.GetSubtype() {
		case pg_query.AlterTableType_AT_AttachPartition, pg_query.AlterTableType_AT_DetachPartition, pg_query.AlterTableType_AT_DetachPartitionFinalize:
		default:
			continue
		}
		if len(as.Cmds) > 1 {
			return nil, b.refuse(as.Relation.Location, "ATTACH or DETACH PARTITION beside other actions is not supported")
		}
		pc := cmd.GetDef().GetPartitionCmd()
		rv := as.Relation
		parent, ok := b.cat.Relation(rv.Relname)
		if !ok {
			return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
		}
		if parent.Kind != KindTable || parent.Def == nil || parent.Def.PartitionBy == nil {
			return nil, pgerr.New(pgerr.InvalidObjectDef, "table %q is not partitioned", rv.Relname)
		}
		name := pc.Name.Relname
		rel, ok := b.cat.Relation(name)
		if !ok {
			return nil, b.stmt.errf(pc.Name.Location, pgerr.UndefinedTable, "relation %q does not exist", name)
		}
		if sub := cmd.GetSubtype(); sub == pg_query.AlterTableType_AT_DetachPartition || sub == pg_query.AlterTableType_AT_DetachPartitionFinalize {
			if rel.Partition == nil || rel.Def.PartitionOf.Parent != parent.Name {
				return nil, pgerr.New(pgerr.UndefinedTable, "relation %q is not a partition of relation %q", name, parent.Name)
			}
			if sub == pg_query.AlterTableType_AT_DetachPartitionFinalize {
				// A concurrent detach here completes at once: none is
				// ever pending.
				return nil, pgerr.New(pgerr.ObjectNotInPrereqState, "cannot complete detaching partition %q", name).
					WithDetail("There's no pending concurrent detach.")
			}
			if rel.Partition.Partitioned {
				return nil, b.refuse(rv.Location, "DETACH PARTITION of a partitioned partition is not supported")
			}
			root, _ := b.cat.Relation(rel.Partition.Root)
			t := *root.Def
			t.Name, t.PrimaryKeyName, t.UniqueNames, t.PartitionBy, t.PartitionOf = name, "", make([]string, len(t.Uniques)), nil, nil
			// It keeps its defaults, NOT NULL and checks, its own too, and
			// a copy of each foreign key, as PostgreSQL's detached
			// partition does.
			t.Sequences, t.ForeignKeys = nil, slices.Clone(root.Def.ForeignKeys)
			t.Cols, t.Checks = slices.Clone(rel.Def.Cols), slices.Concat(root.Def.Checks, rel.Def.Checks)
			return &DetachPartition{Parent: parent.Name, Name: name, Table: &t, Concurrent: pc.Concurrent}, nil
		}
		if err := b.attachable(rel, parent); err != nil {
			return nil, err
		}
		of, err := b.partitionBound(pc.Bound, parent.Def.PartitionBy, name)
		if err != nil {
			return nil, err
		}
		of.Parent = parent.Name
		pt := &CreateTable{Name: name, Cols: slices.Clone(parent.Def.Cols), PartitionOf: of}
		for i := range pt.Cols {
			pt.Cols[i].Default, pt.Cols[i].DefaultSQL = nil, ""
		}
		return &AttachPartition{Table: rel.Def, Partition: pt}, nil
	}
	return nil, nil
}

// attachable checks that table rel can become a partition of parent:
// the same columns in the same order, and nothing of its own that a
// partition cannot keep.
func (b *binder) attachable(rel, parent *Relation) error {
	switch {
	case rel.Partition != nil:
		return pgerr.New(pgerr.WrongObjectType, "%q is already a partition", rel.Name)
	case rel.Kind != KindTable || rel.Def == nil:
		return pgerr.New(pgerr.WrongObjectType, "%q is not a table", rel.Name)
	case rel.Def.PartitionBy != nil:
		return b.refuse(-1, "attaching partitioned table %q is not supported", rel.Name)
	case rel.Def.Temp || rel.Def.ChangeStream:
		return b.refuse(-1, "attaching temporary or change-stream table %q is not supported", rel.Name)
	}
	pc, tc := parent.Def.Cols, rel.Def.Cols
	for _, c := range tc {
		if !slices.ContainsFunc(pc, func(p ColumnDef) bool { return p.Name == c.Name }) {
			return pgerr.New(pgerr.DatatypeMismatch, "table %q contains column %q not found in parent %q", rel.Name, c.Name, parent.Name).
				WithDetail("The new partition may contain only the columns present in parent.")
		}
	}
	for i, c := range pc {
		j := slices.IndexFunc(tc, func(t ColumnDef) bool { return t.Name == c.Name })
		switch {
		case j < 0:
			return pgerr.New(pgerr.DatatypeMismatch, "child table is missing column %q", c.Name)
		case tc[j].Type != c.Type:
			return pgerr.New(pgerr.DatatypeMismatch, "child table %q has different type for column %q", rel.Name, c.Name)
		case c.NotNull && !tc[j].NotNull:
			return pgerr.New(pgerr.DatatypeMismatch, "column %q in child table must be marked NOT NULL", c.Name)
		case c.GeneratedSQL != "" && tc[j].GeneratedSQL == "":
			return pgerr.New(pgerr.DatatypeMismatch, "column %q in child table must be a generated column", c.Name)
		case c.GeneratedSQL != tc[j].GeneratedSQL && c.GeneratedSQL != "":
			return pgerr.New(pgerr.DatatypeMismatch, "column %q in child table has a conflicting generation expression", c.Name)
		case c.GeneratedSQL == "" && tc[j].GeneratedSQL != "":
			return b.refuse(-1, "attaching table %q with a generated column its parent does not have (column %q) is not supported", rel.Name, c.Name).
				WithHint("a partition's rows are kept by its root, which computes the root's generated columns only")
		case j != i:
			return b.refuse(-1, "attaching table %q whose columns are in another order than its parent's is not supported", rel.Name)
		case tc[j].DefaultSQL != "":
			return b.refuse(-1, "attaching table %q with a default of its own (column %q) is not supported", rel.Name, c.Name).
				WithHint("a partition takes its parent's defaults: ALTER TABLE … ALTER COLUMN … DROP DEFAULT first")
		}
	}
	d := rel.Def
	keys := append([][]int{d.PrimaryKey}, d.Uniques...)
	for _, k := range keys {
		if k != nil && !slices.ContainsFunc(parent.Uniques, func(u []int) bool { return sameSet(u, k) }) {
			return b.refuse(-1, "attaching table %q with a key its parent does not have is not supported", rel.Name).
				WithHint("a partition has its parent's keys: drop the table's own first")
		}
	}
	if len(d.Checks) > 0 || len(d.ForeignKeys) > 0 || len(d.Sequences) > 0 {
		return b.refuse(-1, "attaching table %q with CHECK, FOREIGN KEY constraints or serial columns of its own is not supported", rel.Name).
			WithHint("a partition has its parent's constraints: drop the table's own first")
	}
	return nil
}

// partitionSystemColumns puts the constraint of the partition read (the
// filter of p, when p filters) over sp, the root's rows with their system
// columns, and gives each row the tableoid of the partition that holds it.
func (b *binder) partitionSystemColumns(sp, p plan.Node, part *Relation) plan.Node {
	if part == nil {
		return sp
	}
	if pr, ok := sp.(*plan.Project); ok {
		oid := part.TableOID
		if part.Partition != nil && !part.Partition.Partitioned {
			if o, ok := b.systemColumnsOf(part); ok {
				oid = &expr.Const{V: value.NewOid(o), T: value.OidType}
			}
		}
		if oid != nil {
			exprs := slices.Clone(pr.Exprs)
			exprs[len(exprs)-1] = oid
			sp = &plan.Project{Input: pr.Input, Exprs: exprs, Cols: pr.Cols}
		}
	}
	if f, ok := p.(*plan.Filter); ok {
		return &plan.Filter{Input: sp, Pred: f.Pred}
	}
	return sp
}
