package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

func (b *binder) bindCreateTable(cs *pg_query.CreateStmt) (Bound, error) {
	b.tableDef = true
	rv := cs.Relation
	ofType := ""
	if cs.OfTypename != nil {
		var err error
		if ofType, err = b.typedTableElts(cs); err != nil {
			return nil, err
		}
	}
	switch {
	case cs.Partbound != nil:
		return b.bindCreatePartition(cs)
	case len(cs.InhRelations) > 0 && cs.Partspec != nil:
		return nil, b.stmt.errf(nodeLoc(cs.InhRelations[0], rv.Location), pgerr.InvalidObjectDef, "cannot create partitioned table as inheritance child")
	}
	if err := b.domainTaken(rv.Relname); err != nil {
		return nil, err
	}
	ct := &CreateTable{Name: rv.Relname, NameLoc: int(rv.Location), IfNotExists: cs.IfNotExists, Temp: rv.Relpersistence == "t" || rv.Schemaname == "pg_temp", Unlogged: rv.Relpersistence == "u",
		OfType: ofType}
	var tableCons []*pg_query.Constraint
	colIdx := map[string]int{}
	var elts []*pg_query.ColumnDef
	for _, el := range cs.TableElts {
		if c := el.GetConstraint(); c != nil {
			tableCons = append(tableCons, c)
			continue
		}
		if lc := el.GetTableLikeClause(); lc != nil {
			cols, cons, err := b.likeElements(lc)
			if err != nil {
				return nil, err
			}
			if rel, ok := b.cat.Relation(lc.Relation.Relname); ok {
				o := lc.Options
				ct.Likes = append(ct.Likes, Like{Table: rel.Name, Indexes: o&likeIndexes != 0, Comments: o&likeComments != 0,
					Statistics: o&likeStatistics != 0, Constraints: o&likeConstraints != 0})
			}
			elts = append(elts, cols...)
			tableCons = append(tableCons, cons...)
			continue
		}
		cd := el.GetColumnDef()
		if cd == nil {
			return nil, b.refuse(-1, "table element %s is not supported", stmtName(el))
		}
		elts = append(elts, cd)
	}
	var parents, inheritedOnly []string
	var notices []string
	if len(cs.InhRelations) > 0 {
		locals := map[string]bool{}
		for _, cd := range elts {
			locals[cd.Colname] = true
		}
		var err error
		if elts, tableCons, parents, notices, err = b.mergeInherited(cs, elts, tableCons); err != nil {
			return nil, err
		}
		for _, cd := range elts {
			if !locals[cd.Colname] {
				inheritedOnly = append(inheritedOnly, cd.Colname)
			}
		}
	}
	for _, cd := range elts {
		if _, dup := colIdx[cd.Colname]; dup {
			return nil, b.stmt.errf(cd.Location, pgerr.DuplicateColumn, "column %q specified more than once", cd.Colname)
		}
		serial, isSerial := serialType(cd.TypeName)
		t := value.Type{Kind: serial, Mod: -1}
		if !isSerial {
			var err error
			if t, err = b.typeFromName(cd.TypeName); err != nil {
				return nil, pseudoTypeColumn(cd, err)
			}
		}
		if err := checkVoidColumn(cd.Colname, t); err != nil {
			return nil, err
		}
		if err := b.checkRegColumn(t, cd.TypeName.Location); err != nil {
			return nil, err
		}
		dom, err := b.typeDomain(cd.TypeName)
		if err != nil {
			return nil, err
		}
		coll, err := b.columnCollation(cd.CollClause, t)
		if err != nil {
			return nil, err
		}
		colIdx[cd.Colname] = len(ct.Cols)
		ct.Cols = append(ct.Cols, ColumnDef{Name: cd.Colname, Type: t, NotNull: cd.IsNotNull, Domain: dom, Collation: coll, UserColl: b.columnUserColl(cd.CollClause)})
		if err := columnDefAttrs(cd, &ct.Cols[len(ct.Cols)-1]); err != nil {
			return nil, err
		}
		if isSerial {
			b.serialColumn(ct, len(ct.Cols)-1, serial, 0, SeqOptions{})
		}
		var last *pg_query.Constraint
		for _, cn := range cd.Constraints {
			c := cn.GetConstraint()
			// DEFERRABLE and INITIALLY DEFERRED after a column's REFERENCES,
			// PRIMARY KEY or UNIQUE are its attributes, as PostgreSQL's
			// grammar takes them.
			if last != nil && (last.Contype == pg_query.ConstrType_CONSTR_FOREIGN ||
				last.Contype == pg_query.ConstrType_CONSTR_PRIMARY || last.Contype == pg_query.ConstrType_CONSTR_UNIQUE) {
				switch c.Contype {
				case pg_query.ConstrType_CONSTR_ATTR_DEFERRABLE:
					last.Deferrable = true
					continue
				case pg_query.ConstrType_CONSTR_ATTR_DEFERRED:
					last.Deferrable, last.Initdeferred = true, true
					continue
				}
			}
			last = c
			c.Keys = []*pg_query.Node{{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: cd.Colname}}}}
			tableCons = append(tableCons, c)
		}
	}
	sc := &scope{}
	for _, c := range ct.Cols {
		sc.cols = append(sc.cols, scopeCol{qual: ct.Name, name: c.Name, typ: c.Type, coll: c.ICUCollation()})
	}
	keys := func(c *pg_query.Constraint) ([]int, error) {
		var out []int
		for _, k := range c.Keys {
			name := k.GetString_().Sval
			i, ok := colIdx[name]
			if !ok {
				return nil, b.stmt.errf(c.Location, pgerr.UndefinedColumn, "column %q named in key does not exist", name)
			}
			out = append(out, i)
		}
		return out, nil
	}
	var fkeys []*pg_query.Constraint
	var generated []genClause
	for _, c := range tableCons {
		switch c.Contype {
		case pg_query.ConstrType_CONSTR_NOTNULL:
			i, err := keys(c)
			if err != nil {
				return nil, err
			}
			ct.Cols[i[0]].NotNull = true
		case pg_query.ConstrType_CONSTR_NULL:
		case pg_query.ConstrType_CONSTR_DEFAULT:
			i, err := keys(c)
			if err != nil {
				return nil, err
			}
			col := &ct.Cols[i[0]]
			if err := b.generatedTaken(ct, i[0], c); err != nil {
				return nil, err
			}
			if col.Default != nil {
				return nil, b.stmt.errf(c.Location, pgerr.SyntaxError, "multiple default values specified for column %q of table %q", col.Name, ct.Name)
			}
			b.inDefault = true
			e, err := b.bindExpr(&scope{}, c.RawExpr)
			b.inDefault = false
			if err != nil {
				return nil, err
			}
			if col.Default, err = b.assignCast(e, col.Type, col.Name, c.Location); err != nil {
				return nil, err
			}
			if col.DefaultSQL, err = deparseExpr(c.RawExpr); err != nil {
				return nil, pgerr.New(pgerr.Internal, "cannot write the default of column %q: %v", col.Name, err)
			}
		case pg_query.ConstrType_CONSTR_PRIMARY:
			if ct.PrimaryKey != nil {
				return nil, b.stmt.errf(c.Location, pgerr.InvalidTableDef, "multiple primary keys for table %q are not allowed", ct.Name)
			}
			if c.Deferrable || c.Initdeferred {
				ct.DeferrableKeys = append(ct.DeferrableKeys, KeyDeferral{Key: -1, InitDeferred: c.Initdeferred})
			}
			k, err := keys(c)
			for _, i := range k {
				if err == nil {
					err = btreeKey(ct.Cols[i].Type)
				}
			}
			if err != nil {
				return nil, err
			}
			ct.PrimaryKey, ct.PrimaryKeyName = k, c.Conname
			for _, i := range k {
				ct.Cols[i].NotNull = true
			}
		case pg_query.ConstrType_CONSTR_UNIQUE:
			if c.Deferrable || c.Initdeferred {
				ct.DeferrableKeys = append(ct.DeferrableKeys, KeyDeferral{Key: len(ct.Uniques), InitDeferred: c.Initdeferred})
			}
			if c.NullsNotDistinct {
				ct.NullsNotDistinct = append(ct.NullsNotDistinct, len(ct.Uniques))
			}
			k, err := keys(c)
			for _, i := range k {
				if err == nil {
					err = btreeKey(ct.Cols[i].Type)
				}
			}
			if err != nil {
				return nil, err
			}
			ct.Uniques = append(ct.Uniques, k)
			ct.UniqueNames = append(ct.UniqueNames, c.Conname)
		case pg_query.ConstrType_CONSTR_CHECK:
			e, err := b.bindExpr(sc, c.RawExpr)
			if err != nil {
				return nil, err
			}
			if e, err = b.toBool(e, "CHECK", c.Location); err != nil {
				return nil, err
			}
			if stripTableCalls(e, anyTableCall).Volatile() {
				return nil, b.refuse(c.Location, "CHECK constraints must not use volatile functions")
			}
			name := c.Conname
			if name == "" {
				name = ct.Name + "_check"
				if cols := expr.Columns(e); len(cols) == 1 {
					name = ct.Name + "_" + ct.Cols[cols[0]].Name + "_check"
				}
			}
			text, err := deparseExpr(c.RawExpr)
			if err != nil {
				return nil, pgerr.New(pgerr.Internal, "cannot write check constraint %q: %v", name, err)
			}
			ct.Checks = append(ct.Checks, Check{Name: name, Expr: e, SQL: text, NoInherit: c.IsNoInherit, NotValid: c.SkipValidation})
		case pg_query.ConstrType_CONSTR_IDENTITY:
			i, err := keys(c)
			if err != nil {
				return nil, err
			}
			if err := b.generatedTaken(ct, i[0], c); err != nil {
				return nil, err
			}
			if err := b.identityConstraint(ct, i[0], c); err != nil {
				return nil, err
			}
		case pg_query.ConstrType_CONSTR_GENERATED:
			i, err := keys(c)
			if err != nil {
				return nil, err
			}
			if err := b.markGenerated(ct, i[0], c); err != nil {
				return nil, err
			}
			generated = append(generated, genClause{i[0], c.RawExpr})
		case pg_query.ConstrType_CONSTR_ATTR_DEFERRABLE, pg_query.ConstrType_CONSTR_ATTR_DEFERRED:
			return nil, b.refuse(c.Location, "DEFERRABLE is supported for foreign keys only")
		case pg_query.ConstrType_CONSTR_ATTR_NOT_DEFERRABLE, pg_query.ConstrType_CONSTR_ATTR_IMMEDIATE:
		case pg_query.ConstrType_CONSTR_FOREIGN:
			fkeys = append(fkeys, c) // bound once the keys are known: a table may reference itself
		case pg_query.ConstrType_CONSTR_EXCLUSION:
			if cs.Partspec != nil {
				return nil, b.stmt.errf(c.Location, pgerr.FeatureNotSupported, "exclusion constraints are not supported on partitioned tables")
			}
			x, err := b.bindExclusion(ct, sc, c)
			if err != nil {
				return nil, err
			}
			if c.Conname == "" {
				x.Name = ct.freeConstraintName(x.Name)
			}
			ct.Exclusions = append(ct.Exclusions, x)
		default:
			return nil, b.refuse(c.Location, "constraint %s is not supported", strings.TrimPrefix(c.Contype.String(), "CONSTR_"))
		}
	}
	for _, g := range generated {
		if err := b.bindGenerated(ct, sc, g.col, g.raw); err != nil {
			return nil, err
		}
	}
	if err := b.tableOptions(cs.Options, ct); err != nil {
		return nil, err
	}
	if ct.ChangeStream && ct.DeferrableKeys != nil {
		// Change events replace rows by key: a key must hold at each one.
		return nil, b.refuse(rv.Location, "DEFERRABLE keys of change-stream table %q are not supported", ct.Name).
			WithHint("declare the key NOT DEFERRABLE (the default)")
	}
	if len(generated) > 0 && ct.ChangeStream {
		return nil, b.refuse(rv.Location, "generated columns of a change-stream table are not supported").
			WithHint("a change event gives every column it knows; compute the column in a view over the table")
	}
	for _, c := range fkeys {
		fk, err := b.bindForeignKey(ct, c)
		if err != nil {
			return nil, err
		}
		if err := genForeignKey(ct, fk); err != nil {
			return nil, err
		}
		ct.ForeignKeys = append(ct.ForeignKeys, fk)
	}
	if cs.Partspec != nil {
		if err := b.generatedInKey(ct, cs.Partspec); err != nil {
			return nil, err
		}
		if err := b.partitionKey(cs.Partspec, sc, ct); err != nil {
			return nil, err
		}
	}
	if len(parents) > 0 {
		ct.Inherits, ct.InheritedOnly, ct.InheritedChecks, ct.Notices = parents, inheritedOnly, b.inheritedChecks, notices
	}
	return ct, b.tempTable(cs, ct)
}

// tempTable binds CREATE TEMP[ORARY] TABLE (or a table made in pg_temp)
// and ON COMMIT. The sequences of its serial and identity columns are
// temporary too (the session makes them in its own namespace); what would
// reach other sessions (FOREIGN KEY constraints, a change stream) is
// refused.
func (b *binder) tempTable(cs *pg_query.CreateStmt, ct *CreateTable) error {
	rv := cs.Relation
	ct.Temp = rv.Relpersistence == "t" || rv.Schemaname == "pg_temp"
	if cs.Oncommit != pg_query.OnCommitAction_ONCOMMIT_NOOP && !ct.Temp {
		return b.stmt.errf(rv.Location, pgerr.InvalidTableDef, "ON COMMIT can only be used on temporary tables")
	}
	if !ct.Temp {
		return nil
	}
	// Its FOREIGN KEY constraints may reference the session's temporary
	// tables only, which the engine checks (temp_fkey.go).
	switch {
	case ct.ChangeStream:
		return b.refuse(rv.Location, "a temporary change-stream table is not supported")
	case rv.Schemaname != "" && rv.Schemaname != "pg_temp":
		return b.stmt.errf(rv.Location, pgerr.InvalidTableDef, "cannot create temporary relation in non-temporary schema")
	}
	ct.OnCommit = map[pg_query.OnCommitAction]OnCommit{pg_query.OnCommitAction_ONCOMMIT_DELETE_ROWS: OnCommitDelete,
		pg_query.OnCommitAction_ONCOMMIT_DROP: OnCommitDrop}[cs.Oncommit]
	return nil
}

// assignCast converts e for storing into a column of type t, with
// PostgreSQL's assignment casts: numeric kinds among themselves, anything
// to a string type, dates and timestamps among themselves, numeric, int4
// and int8 to money and money to numeric.
func (b *binder) assignCast(e expr.Expr, t value.Type, col string, loc int32) (expr.Expr, error) {
	return b.assignCastAs(e, t, "", col, loc, loc)
}

// assignCastAs is assignCast for a column whose type PostgreSQL names
// tname (its domain's, d or d[]) in the 42804 of a value of another
// type, reported at at (the value's leftmost position, as PostgreSQL's
// exprLocation); "" names t.
func (b *binder) assignCastAs(e expr.Expr, t value.Type, tname, col string, loc, at int32) (expr.Expr, error) {
	if tname == "" {
		tname = t.String()
	}
	if CastKey(e.Type()) != CastKey(t) {
		if uc := b.castFor(e.Type(), CastKey(t), 'a'); uc != nil {
			return b.applyCast(uc, e, t, false, loc)
		}
	}
	if out, ok, err := b.assignRecord(e, t, col, loc); ok {
		return out, err
	}
	from := e.Type().Kind
	ok := assignable(from, t.Kind)
	if (t.Enum() != nil || t.UserRange() != nil) && from != value.Unknown && e.Type() != t {
		ok = false // an enum or user range column takes its own type's values and untyped literals only
	}
	if !ok {
		return nil, b.stmt.errf(at, pgerr.DatatypeMismatch, "column %q is of type %s but expression is of type %s", col, tname, e.Type()).
			WithHint("You will need to rewrite or cast the expression.")
	}
	if from == value.Cstring && t.Kind.IsString() {
		// PostgreSQL's I/O cast reads the text with the column type's
		// input, whose modifier then errs rather than truncates.
		var err error
		if e, err = b.coerceZoned(e, value.Type{Kind: t.Kind, Mod: -1}, true); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		from = t.Kind
	}
	out, err := b.coerceZoned(e, t, from != value.Unknown && from != t.Kind && !value.CanCast(from, t.Kind, false))
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	return b.xmlOption(e, t, b.intervalInput(e, t, out)), nil
}

// assignable reports whether PostgreSQL converts from to to on
// assignment.
func assignable(from, to value.Kind) bool {
	return from == value.Unknown || from == to || value.CanCast(from, to, false) ||
		(isNumeric(from) && isNumeric(to)) || isString(to) ||
		(isDatetime(from) && isDatetime(to)) || from.IsJSON() && to.IsJSON() || value.MoneyCast(from, to) ||
		value.GeoAssignable(from, to) || to == value.InternalChar && isString(from)
}

func isDatetime(k value.Kind) bool {
	return k == value.Date || k == value.Timestamp || k == value.TimestampTZ
}

func (b *binder) bindCreateTableAs(ct *pg_query.CreateTableAsStmt) (Bound, error) {
	if ct.Objtype != pg_query.ObjectType_OBJECT_MATVIEW {
		return b.bindTableAs(ct.Into, ct.Query, ct.IfNotExists)
	}
	into := ct.Into
	v, err := b.bindView(into.Rel, into.ColNames, ct.Query, true, ct.IfNotExists)
	if err != nil {
		return nil, err
	}
	if into.Rel.Schemaname == "pg_temp" {
		// PostgreSQL fills a materialized view as its owner, in a
		// security-restricted operation, which may not make a
		// temporary relation.
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "cannot create temporary table within security-restricted operation")
	}
	v.(*CreateView).NoData = into.SkipData
	if err := b.viewOptions(into.Options, v.(*CreateView)); err != nil {
		return nil, err
	}
	return v, nil
}

func (b *binder) bindCreateView(vs *pg_query.ViewStmt) (Bound, error) {
	v, err := b.bindView(vs.View, vs.Aliases, vs.Query, false, false)
	if err != nil {
		return nil, err
	}
	cv := v.(*CreateView)
	cv.Replace, cv.Temp, cv.InTemp = vs.Replace, vs.View.Relpersistence == "t", vs.View.Schemaname == "pg_temp"
	if cv.SecurityInvoker, err = b.viewSecurityOptions(vs.Options); err != nil {
		return nil, err
	}
	if err := b.viewCheckOption(vs, cv); err != nil {
		return nil, err
	}
	return cv, nil
}

func (b *binder) bindView(rv *pg_query.RangeVar, colNames []*pg_query.Node, q *pg_query.Node, materialized, ifNotExists bool) (Bound, error) {
	sel := q.GetSelectStmt()
	if sel == nil {
		return nil, b.refuse(rv.Location, "a view must be defined by a query")
	}
	if err := b.domainTaken(rv.Relname); err != nil {
		return nil, err
	}
	if err := b.viewModifying(sel.WithClause, materialized); err != nil {
		return nil, err
	}
	// Materialized views refuse what cannot be maintained; plain views are
	// inlined where used and checked there.
	b.forView = materialized
	b.viewTop = sel
	p, err := b.bindSelect(sel)
	if err != nil {
		if materialized {
			err = b.viewTriggerColumn(sel, colNames, err)
		}
		return nil, err
	}
	origins, colls := b.originOut, b.collOut
	if len(colNames) > len(p.Columns()) {
		if materialized {
			return nil, pgerr.New(pgerr.SyntaxError, "too many column names were specified")
		}
		return nil, pgerr.New(pgerr.SyntaxError, "CREATE VIEW specifies more column names than columns")
	}
	if p, err = b.renameColumns(p, colNames, rv.Relname, rv.Location); err != nil {
		return nil, err
	}
	if err := b.checkRecordColumns(p, rv.Location); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, c := range p.Columns() {
		if seen[c.Name] {
			return nil, b.stmt.errf(rv.Location, pgerr.DuplicateColumn, "column %q specified more than once", c.Name)
		}
		seen[c.Name] = true
	}
	def := b.queryText(q)
	v := &CreateView{Name: rv.Relname, Materialized: materialized, IfNotExists: ifNotExists, Plan: p, Definition: def, Order: b.viewOrder}
	v.Domains = b.columnDomains(origins, p.Columns())
	if v.Collations, err = viewCollations(p.Columns(), colls, materialized); err != nil {
		return nil, err
	}
	if !materialized {
		qs, err := Parse(def)
		if err != nil {
			return nil, err
		}
		// Its names are kept resolved, as the statement's were: a view
		// reads the relations it read when it was made, whatever the
		// search path of the statements that read it.
		if nr, ok := b.cat.(NameResolver); ok && nr.Qualifier() != nil {
			if qs, err = QualifyNames(qs, nr.Qualifier()); err != nil {
				return nil, err
			}
		}
		v.Query = qs
	}
	return v, nil
}

// queryText returns the text of the query that starts at the first token
// of q and runs to the end of the statement.
func (b *binder) queryText(q *pg_query.Node) string {
	start := b.keyword("as", 0)
	text := b.stmt.SQL
	if start >= 0 {
		text = text[start+2:]
	}
	text = strings.TrimSpace(text)
	return trimCheckOption(strings.TrimSpace(strings.TrimSuffix(text, ";")))
}

func (b *binder) bindDrop(ds *pg_query.DropStmt) (Bound, error) {
	d := &Drop{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	switch ds.RemoveType {
	case pg_query.ObjectType_OBJECT_FOREIGN_TABLE, pg_query.ObjectType_OBJECT_FOREIGN_SERVER:
		return b.bindDropSink(ds)
	case pg_query.ObjectType_OBJECT_TABLE:
		d.Kind = DropTable
	case pg_query.ObjectType_OBJECT_VIEW:
		d.Kind = DropView
	case pg_query.ObjectType_OBJECT_MATVIEW:
		d.Kind = DropMatView
	case pg_query.ObjectType_OBJECT_INDEX:
		d.Kind = DropIndex
	case pg_query.ObjectType_OBJECT_SEQUENCE:
		return b.bindDropSequence(ds)
	case pg_query.ObjectType_OBJECT_SCHEMA:
		return b.bindDropSchema(ds)
	case pg_query.ObjectType_OBJECT_DOMAIN:
		return b.bindDropDomain(ds)
	case pg_query.ObjectType_OBJECT_TYPE:
		return b.bindDropType(ds)
	case pg_query.ObjectType_OBJECT_FUNCTION, pg_query.ObjectType_OBJECT_PROCEDURE, pg_query.ObjectType_OBJECT_ROUTINE:
		return b.bindDropFunction(ds)
	case pg_query.ObjectType_OBJECT_AGGREGATE:
		return b.bindDropAggregate(ds)
	case pg_query.ObjectType_OBJECT_OPERATOR:
		return b.bindDropOperator(ds)
	case pg_query.ObjectType_OBJECT_TRIGGER:
		return b.bindDropTrigger(ds)
	case pg_query.ObjectType_OBJECT_RULE:
		return b.bindDropRule(ds)
	case pg_query.ObjectType_OBJECT_EXTENSION:
		return b.bindDropExtension(ds)
	case pg_query.ObjectType_OBJECT_CAST:
		return b.bindDropCast(ds)
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP %s is not supported", strings.TrimPrefix(ds.RemoveType.String(), "OBJECT_"))
	}
	for _, o := range ds.Objects {
		items := o.GetList().GetItems()
		name := items[len(items)-1].GetString_().Sval
		d.Names = append(d.Names, name)
	}
	return d, nil
}

// bindCreateIndex binds CREATE [UNIQUE] INDEX on a table's columns or
// expressions, partial (WHERE) or with INCLUDE columns (bind_index.go).
// The access method, operator classes and the columns' order are checked
// as PostgreSQL does and shown in the catalogs (bind_index_method.go);
// every index here is ordered, ascending, and serves either direction.
func (b *binder) bindCreateIndex(is *pg_query.IndexStmt) (Bound, error) {
	loc := int32(-1)
	if is.Relation != nil {
		loc = is.Relation.Location
	}
	name := is.Relation.Relname
	rel, ok := b.cat.Relation(name)
	if !ok {
		return nil, b.stmt.errf(loc, pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	if rel.Kind != KindTable && rel.Kind != KindMatView { // a view's index: matview_index.go in the engine
		return nil, b.stmt.errf(loc, pgerr.WrongObjectType, "cannot create index on relation %q", name)
	}
	if rel.Partition != nil {
		return nil, b.refuse(loc, "CREATE INDEX on partition %q is not supported", name).
			WithHint("index its partitioned table: the index serves every partition")
	}
	ci := &CreateIndex{Name: is.Idxname, Table: name, Unique: is.Unique, IfNotExists: is.IfNotExists, NullsNotDistinct: is.NullsNotDistinct}
	sc := indexScope(name, rel)
	colIdx := func(n string) (int, error) {
		for i, c := range rel.Cols {
			if c.Name == n {
				return i, nil
			}
		}
		return -1, b.stmt.errf(loc, pgerr.UndefinedColumn, "column %q does not exist", n)
	}
	method, err := b.indexMethod(is, loc)
	if err != nil {
		return nil, err
	}
	ci.Method = method
	elemOpts := func(el *pg_query.IndexElem, t value.Type, coll string) error {
		opts, option, err := b.indexElemOpts(method, el, t, coll, is.Unique, loc)
		ci.KeyOpts, ci.KeyOptions = append(ci.KeyOpts, opts), append(ci.KeyOptions, option)
		ci.ElemColls = append(ci.ElemColls, b.indexElemColl(el))
		return err
	}
	var names []string
	for _, p := range is.IndexParams {
		el := p.GetIndexElem()
		if el == nil {
			return nil, b.refuse(loc, "this index element is not supported")
		}
		if el.Name == "" {
			e, text, err := b.indexExpr(sc, el.Expr, loc)
			if err != nil {
				return nil, err
			}
			if err := elemOpts(el, e.Type(), ""); err != nil {
				return nil, err
			}
			if err := indexKeyClass(method, e.Type()); err != nil {
				return nil, err
			}
			ci.Cols, ci.Exprs, ci.KeySQL = append(ci.Cols, -1), append(ci.Exprs, e), append(ci.KeySQL, text)
			// Named as PostgreSQL's FigureIndexColname names it: a
			// cast's column, a function, a field; else "expr".
			n, strength := starNames(nil).strength(el.Expr)
			if strength == 0 {
				n = "expr"
			}
			names = append(names, n)
			continue
		}
		idx, err := colIdx(el.Name)
		if err != nil {
			return nil, err
		}
		coll := ""
		if c := value.CollationByID(rel.Cols[idx].Coll); c != nil {
			coll = c.Name
		}
		if err := elemOpts(el, rel.Cols[idx].Type, coll); err != nil {
			return nil, err
		}
		if err := indexKeyClass(method, rel.Cols[idx].Type); err != nil {
			return nil, err
		}
		ci.Cols, ci.Exprs, ci.KeySQL = append(ci.Cols, idx), append(ci.Exprs, nil), append(ci.KeySQL, expr.QuoteIdent(el.Name))
		names = append(names, el.Name)
	}
	if !slices.ContainsFunc(ci.Exprs, func(e expr.Expr) bool { return e != nil }) {
		ci.Exprs = nil
	}
	if !slices.ContainsFunc(ci.ElemColls, func(c int16) bool { return c >= 0 }) {
		ci.ElemColls = nil
	}
	for _, p := range is.IndexIncludingParams {
		el := p.GetIndexElem()
		if el == nil || el.Name == "" {
			return nil, b.stmt.errf(loc, pgerr.FeatureNotSupported, "expressions are not supported in included columns")
		}
		idx, err := colIdx(el.Name)
		if err != nil {
			return nil, err
		}
		ci.Include = append(ci.Include, idx)
		names = append(names, el.Name) // PostgreSQL's default name lists them too
	}
	if is.WhereClause != nil {
		e, text, err := b.indexWhere(sc, is.WhereClause, loc)
		if err != nil {
			return nil, err
		}
		if ci.WhereConj, err = conjunctTexts(is.WhereClause); err != nil {
			return nil, err
		}
		ci.Where, ci.WhereSQL = e, text
	}
	if ci.Name == "" {
		ci.Name, ci.DefaultName = indexName(name, names), true
	}
	if rel.Def != nil && rel.Def.PartitionBy != nil && ci.Unique {
		k := rel.Def.PartitionBy
		for _, e := range k.Exprs {
			if c, ok := e.(*expr.Col); !ok || !slices.Contains(ci.Cols, c.Idx) {
				return nil, b.refuse(loc, "unique constraint on partitioned table must include all partitioning columns").
					WithDetail("UNIQUE constraint on table %q lacks column %q which is part of the partition key.", name, k.SQL[0])
			}
		}
	}
	return ci, nil
}

// indexKeyClass refuses an index column of a type without a default
// operator class of the access method: btree, hash and brin as
// pg_opclass has them (HasDefaultOpclass); gist's and spgist's are
// checked with the column's class (indexOpclass).
func indexKeyClass(method string, t value.Type) error {
	switch {
	case method == "btree" || method == "hash" || method == "brin":
		if HasDefaultOpclass(method, t) {
			return nil
		}
	case !t.Kind.IsGeometric() || method == "gist" || method == "spgist":
		return nil
	}
	return noDefaultOpclass(method, t)
}

// btreeKey refuses a key or index column of a type without a btree order
// (json, xml, the geometric types, …), as PostgreSQL does.
func btreeKey(t value.Type) error {
	if HasDefaultOpclass("btree", t) {
		return nil
	}
	return noDefaultOpclass("btree", t)
}
