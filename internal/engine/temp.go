package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Temporary tables (CREATE TEMP TABLE) belong to the session that made
// them, as PostgreSQL's live in the session's pg_temp schema. The engine
// keeps one as any table, under a name no statement can write,
// "pg_temp_N.name" (N numbers the sessions that made temporary tables),
// and marks it temp: the store never hears of it, the catalog's lists
// leave it out. Before binding, the session renames each relation its
// statement names after one of its temporary tables (unqualified, or
// qualified by pg_temp) to the engine's name, so that a temporary table
// shadows a permanent one of the same name; a statement that names an
// engine's name itself is told there is no such relation. The session
// drops its temporary tables when it closes, and at the end of each
// transaction empties those made ON COMMIT DELETE ROWS and drops those
// made ON COMMIT DROP. A plain view over a temporary table is temporary
// too; a materialized view over one is refused (0A000), as in PostgreSQL.
//
// The session's temporary sequences (CREATE TEMP SEQUENCE, those of its
// temporary tables' serial and identity columns) are kept the same way,
// and so are its functions, procedures, types and domains made in
// pg_temp, under keys of the same prefix: a statement's pg_temp.f and
// its types' names are rewritten to those keys before binding
// (sql.RenameTempObjects). None is ever written to the store. A
// temporary child of a permanent table is linked in memory; the engine's
// walks of a hierarchy leave it out, and the session's bindings add it
// back (tempMembers), so that other sessions never read it.

// tempTable is one of a session's temporary tables.
type tempTable struct {
	name     string // the engine's
	onCommit sql.OnCommit
}

const tempPrefix = "pg_temp_"

// tempNames is the renaming the session's statement st is bound through,
// nil when no session has a temporary table. A relation of the session
// that another session's DROP took away is no longer its. Another
// session's temporary relation is refused, but to a DROP (dropsOther).
func (s *Session) tempNames(st *sql.Stmt) func(schema, name string) (string, bool, error) {
	if s.e.temps == 0 {
		return nil
	}
	before, _ := s.tempBefore()
	reach := dropsOther(st)
	return func(schema, name string) (string, bool, error) {
		if t, ok := s.temps[name]; ok && s.e.tempExists(t.name) && (schema == "pg_temp" || schema == "" && !s.tempHidden(before, name, s.e.userRelation)) {
			return t.name, true, nil
		}
		if strings.HasPrefix(name, tempPrefix) && strings.Contains(name, ".") {
			return "", false, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
		}
		if s.otherTempSchema(schema) && s.e.tempSchemaExists(schema) && s.usageUser() != "" {
			// Its schema is the bootstrap superuser's, which grants none.
			return "", false, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schema)
		}
		if key := schema + "." + name; s.otherTempSchema(schema) && s.e.userRelation(key) {
			if reach && s.e.tempPending[key] == "" {
				return key, true, nil
			}
			return "", false, otherTempError()
		} else if reach && s.otherTempSchema(schema) && s.e.tempSchemaExists(schema) {
			return key, true, nil // for DROP's "table \"t\" does not exist"
		}
		return "", false, nil
	}
}

// bindNS is the namespace a binding for the session was made in (see
// binding.ns); the caller holds the engine's lock.
func (s *Session) bindNS() string {
	ns := s.schemaNS()
	if s.e.temps == 0 {
		return ns
	}
	return s.tempNS + s.tempPathNS() + ns
}

// TempRelation implements sql.TempCatalog.
func (r *recorder) TempRelation(schema, name string) (string, bool) {
	s := r.temps
	if s == nil {
		return "", false
	}
	t, ok := s.temps[name]
	switch {
	case !ok:
		return "", false
	case schema == "":
		if before, _ := s.tempBefore(); s.tempHidden(before, name, s.e.userRelation) {
			return "", false
		}
	case schema != "pg_temp" && schema != s.ownTempSchema():
		return "", false
	}
	return t.name, true
}

// bindStmt binds st in the session: through its temporary tables' names
// when it has any.
func (s *Session) bindStmt(rec *recorder, st *sql.Stmt) (sql.Bound, error) {
	rec.temps = s
	st = sql.AliasTempSchema(st, s.ownTempSchema())
	inTemp := false
	if s.createsInTemp() {
		st, inTemp = sql.CreateInTemp(st)
	}
	if rn := s.tempNames(st); rn != nil {
		var err error
		if st, err = sql.RenameRelations(st, rn); err != nil {
			return nil, err
		}
	}
	if (s.tempNS != "" && s.hasTempTypes()) || inTemp || sql.MentionsTemp(st.SQL) {
		var err error
		if st, err = sql.RenameTempObjects(st, s.tempObjects()); err != nil {
			return nil, err
		}
	}
	st, err := s.qualify(st)
	if err != nil {
		return nil, err
	}
	rec.names = &nameScope{e: s.e, path: s.searchPath(), user: s.usageUser(), temp: s.ownTempSchema(), tempAt: s.tempAt()}
	if s.checksColumns() {
		logged := *st
		logged.Refs = &sql.RefLog{}
		st, rec.refs = &logged, logged.Refs
	}
	b, err := sql.Bind(rec, st)
	if err != nil {
		return nil, err
	}
	if err := s.refuseTempUses(b, rec); err != nil {
		return nil, err
	}
	return b, nil
}

// tempObjects is how the session names the objects of its temporary
// schema.
func (s *Session) tempObjects() sql.TempObjects {
	return sql.TempObjects{Prefix: s.tempNS,
		NewPrefix: func() string { s.makeTempNS(); return s.tempNS },
		Type: func(name string) bool {
			has := func(k string) bool {
				_, dom := s.e.domains.byName[k]
				_, typ := s.e.userTypes[k]
				return dom || typ
			}
			before, _ := s.tempBefore()
			return has(s.tempNS+name) && !s.tempHidden(before, name, has)
		}}
}

// RenameTemp implements sql.TempCatalog.
func (r *recorder) RenameTemp(n *pg_query.Node) (*pg_query.Node, error) {
	if r.temps == nil || r.temps.tempNS == "" {
		return n, nil
	}
	st, err := sql.RenameTempObjects(&sql.Stmt{Node: n}, r.temps.tempObjects())
	if err != nil {
		return nil, err
	}
	return st.Node, nil
}

// tempError writes the keys of the session's temporary objects in err's
// message and detail as PostgreSQL writes their names: a routine's
// qualified by pg_temp (it is found only so), another unqualified (its
// schema is searched first).
func (s *Session) tempError(err error) error {
	var pe *pgerr.Error
	if err == nil || !errors.As(err, &pe) || !strings.Contains(pe.Message+pe.Detail+pe.Hint, s.tempNS) {
		return err
	}
	fix := func(m string) string {
		for _, kind := range []string{"function ", "procedure "} {
			m = strings.ReplaceAll(m, kind+s.tempNS, kind+"pg_temp.")
		}
		return strings.ReplaceAll(m, s.tempNS, "")
	}
	c := *pe
	c.Message, c.Detail, c.Hint = fix(pe.Message), fix(pe.Detail), fix(pe.Hint)
	return &c
}

// refuseTempChildren refuses what a session's temporary child of a
// permanent table would make wrong: a materialized view over the parent
// in that session (its rows would be the session's), ALTER TABLE of the
// parent (0A000, as PostgreSQL refuses it to other sessions; in the
// child's own, the parent's in-place changes would not reach the child,
// which the engine's walks of the hierarchy leave out), a permanent
// table's INHERIT of a temporary one (42809, as in PostgreSQL), and
// DROP of the parent (2BP01 as in PostgreSQL; with CASCADE, 0A000).
func (s *Session) refuseTempChildren(b sql.Bound, rec *recorder) error {
	e := s.e
	switch b := b.(type) {
	case *sql.CreateView:
		if b.Materialized && rec.tempKids {
			return pgerr.New(pgerr.FeatureNotSupported, "materialized views must not use temporary tables or views")
		}
	case *sql.AlterTable:
		if c := e.tempChildOf(b.Table); c != "" {
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE of table %q, which has temporary child %q, is not supported", e.bareName(b.Table), tempLabel(c))
		}
	case *sql.AlterInherit:
		if isTemp(b.Parent) && !isTemp(b.Child) {
			return pgerr.New(pgerr.WrongObjectType, "cannot inherit from temporary relation %q", tempLabel(b.Parent))
		}
	case *sql.Drop:
		for _, n := range b.Names {
			c := e.tempChildOf(n)
			switch {
			case c == "" || e.tables[n] == nil:
			case b.Cascade:
				return pgerr.New(pgerr.FeatureNotSupported, "DROP TABLE … CASCADE of table %q, which has temporary child %q, is not supported", e.bareName(n), tempLabel(c)).
					WithHint("the temporary table goes with its session")
			default:
				return &pgerr.Error{Code: pgerr.DependentObjects,
					Message: fmt.Sprintf("cannot drop table %s because other objects depend on it", e.bareName(n)),
					Detail:  fmt.Sprintf("table %s depends on table %s", tempLabel(c), e.bareName(n)),
					Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
			}
		}
	}
	return nil
}

// hasTempTypes reports whether the session has a type or a domain in its
// temporary schema.
func (s *Session) hasTempTypes() bool {
	for k := range s.e.userTypes {
		if strings.HasPrefix(k, s.tempNS) {
			return true
		}
	}
	for k := range s.e.domains.byName {
		if strings.HasPrefix(k, s.tempNS) {
			return true
		}
	}
	return false
}

// namesTemp reports whether a key or a signature names an object of a
// session's temporary schema.
func namesTemp(k string) bool {
	i := strings.Index(k, tempPrefix)
	return i >= 0 && strings.Contains(k[i:], ".")
}

// refuseTempUses refuses (0A000) a statement that makes or changes a
// permanent object using a function or type of the session's temporary
// schema: the permanent object would outlive it, and the database file
// could not make it again. PostgreSQL drops such objects with the
// session; deltaview refuses them.
func (s *Session) refuseTempUses(b sql.Bound, rec *recorder) error {
	if err := s.refuseTempChildren(b, rec); err != nil {
		return err
	}
	var used string
	for i, names := range [][]string{rec.calledFunctions(), rec.types, rec.domains} {
		for _, k := range names {
			if used == "" && namesTemp(k) {
				used = "type " + tempLabel(k)
				if i == 0 {
					used = "function pg_temp." + tempLabel(k)
				}
			}
		}
	}
	if cf, ok := b.(*sql.CreateFunction); ok && used == "" && !isTemp(cf.Func.Name) && sql.BodyMentions(cf.Func, tempPrefix) {
		used = "a function or type" // its body calls or names one
	}
	if used == "" {
		return nil
	}
	permanent := false
	switch b := b.(type) {
	case *sql.CreateTable:
		permanent = !b.Temp
	case *sql.CreateView:
		permanent = !b.Temp && !readsTemp(rec)
	case *sql.CreateTableAs:
		permanent = !b.Table.Temp
	case *sql.AlterTable, *sql.CreateAggregate:
		permanent = true
	case *sql.CreateFunction:
		permanent = !isTemp(b.Func.Name)
	case *sql.CreateDomain:
		permanent = !isTemp(b.Def.Name)
	case *sql.CreateComposite:
		permanent = !isTemp(b.Name)
	case *sql.CreateRange:
		permanent = !isTemp(b.Name)
	case *sql.CreateTrigger:
		permanent = !isTemp(b.Table)
	}
	if !permanent {
		return nil
	}
	return pgerr.New(pgerr.FeatureNotSupported, "a permanent object using %s of the session's temporary schema is not supported", used).
		WithHint("make the object temporary too, or the function or type permanent")
}

// createTemp runs CREATE TEMP TABLE. The sequences of its serial and
// identity columns are the session's temporary sequences, owned by the
// table and dropped with it; its defaults call them by their keys.
func (s *Session) createTemp(ct *sql.CreateTable) (Result, error) {
	e := s.e
	s.forgetTemps() // another session's DROP … CASCADE may have dropped one
	if _, ok := s.temps[ct.Name]; ok {
		if ct.IfNotExists {
			return Result{Tag: "CREATE TABLE", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", ct.Name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ct.Name)
	}
	for _, cs := range ct.Sequences {
		if _, ok := s.temps[cs.Name]; ok { // a SEQUENCE NAME of an identity column
			return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cs.Name)
		}
	}
	s.makeTempNS()
	name := s.tempNS + ct.Name
	ct, err := tempForeignKeys(ct, name)
	if err != nil {
		return Result{}, err
	}
	var seqs []*sequence
	if len(ct.Sequences) > 0 {
		var err error
		if ct, seqs, err = s.tempOwnedSequences(ct, name); err != nil {
			return Result{}, err
		}
	}
	t := newTable(ct)
	t.name, t.temp = name, true
	e.noteDeferrable(t)
	e.tables[t.name] = t
	onCommit := ct.OnCommit
	if ct.PartitionBy != nil && onCommit == sql.OnCommitDelete {
		// Not cascaded to the partitions, which hold every row, as in
		// PostgreSQL; DROP is, a table's partitions going with it.
		onCommit = sql.OnCommitPreserve
	}
	s.addTemp(ct.Name, &tempTable{name: t.name, onCommit: onCommit})
	if len(ct.Inherits) > 0 {
		// A child of permanent tables (or of the session's temporary
		// ones), linked in memory only: the other sessions' reads of its
		// parents skip it (inheritDescendants), the session's own add it
		// (tempMembers).
		for _, p := range ct.Inherits {
			e.inherits = append(e.inherits, inheritLink{child: name, parent: p})
		}
		for _, c := range ct.InheritedOnly {
			e.setInheritedOnly(name, c, true)
		}
		for _, c := range ct.InheritedChecks {
			setOnlyIn(&e.inheritChecks, name, c, true)
		}
		return Result{Tag: "CREATE TABLE", Notices: slices.Clone(ct.Notices)}, nil
	}
	for _, q := range seqs {
		e.sequences()[q.name] = q
		s.addTemp(strings.TrimPrefix(q.name, s.tempNS), &tempTable{name: q.name})
	}
	if len(ct.ForeignKeys) > 0 {
		e.linkForeignKeys()
	}
	return Result{Tag: "CREATE TABLE"}, nil
}

// addTemp records a temporary relation the session made, under the name
// its statements use.
func (s *Session) addTemp(name string, t *tempTable) {
	if s.temps == nil {
		s.temps = map[string]*tempTable{}
	}
	s.temps[name] = t
	s.e.temps++
	if s.block {
		s.tempsMade = append(s.tempsMade, t.name)
		if s.e.tempPending == nil {
			s.e.tempPending = map[string]string{}
		}
		s.e.tempPending[t.name] = s.tempNS
	}
}

// tempOwnedSequences makes the sequences of a temporary table's serial
// and identity columns, in the session's namespace and owned by the
// table's key, and returns the table with its defaults calling them there
// (a copy: the bound statement may run again).
func (s *Session) tempOwnedSequences(ct *sql.CreateTable, table string) (*sql.CreateTable, []*sequence, error) {
	out := *ct
	out.Cols = slices.Clone(ct.Cols)
	keys := map[string]string{} // the text nextval reads, bound → temporary
	var seqs []*sequence
	for _, cs := range ct.Sequences {
		q := &sequence{name: s.tempNS + cs.Name, owner: [2]string{table, cs.Owner[1]}, identity: cs.Identity}
		if err := q.apply(&cs.Opts, true); err != nil {
			return nil, nil, err
		}
		keys[sql.SeqText(cs.Name)] = sql.SeqText(q.name)
		seqs = append(seqs, q)
	}
	for i := range out.Cols {
		if d := out.Cols[i].Default; d != nil {
			out.Cols[i].Default = expr.Rewrite(d, func(n expr.Expr) expr.Expr {
				c, ok := n.(*expr.SeqCall)
				if !ok || len(c.Args) == 0 {
					return n
				}
				if k, ok := c.Args[0].(*expr.Const); ok && keys[k.V.String()] != "" {
					args := slices.Clone(c.Args)
					args[0] = &expr.Const{V: value.NewText(value.Text, keys[k.V.String()]), T: value.TextType}
					return &expr.SeqCall{Fn: c.Fn, Args: args, C: c.C}
				}
				return n
			})
		}
	}
	return &out, seqs, nil
}

// createTempSequence runs CREATE TEMP SEQUENCE: the session's own, kept
// under its temporary namespace as its temporary tables are, never
// written to the store. OWNED BY names one of the session's temporary
// tables (a permanent one is 55000, as in PostgreSQL).
func (s *Session) createTempSequence(cs *sql.CreateSequence) (Result, error) {
	e := s.e
	s.forgetTemps()
	if _, ok := s.temps[cs.Name]; ok {
		if cs.IfNotExists {
			return Result{Tag: "CREATE SEQUENCE", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", cs.Name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cs.Name)
	}
	s.makeTempNS()
	q := &sequence{name: s.tempNS + cs.Name}
	if err := q.apply(&cs.Opts, true); err != nil {
		return Result{}, err
	}
	if err := s.tempSeqOwner(q, &cs.Opts); err != nil {
		return Result{}, err
	}
	e.sequences()[q.name] = q
	s.addTemp(cs.Name, &tempTable{name: q.name})
	return Result{Tag: "CREATE SEQUENCE"}, nil
}

// alterSequence runs ALTER SEQUENCE: OWNED BY of the session's temporary
// sequence names one of its temporary tables.
func (s *Session) alterSequence(as *sql.AlterSequence) (Result, error) {
	if !isTemp(as.Name) || as.Opts.OwnedBy == nil || s.e.seqs[as.Name] == nil {
		return s.e.alterSequence(as)
	}
	tt, ok := s.temps[as.Opts.OwnedBy[0]]
	if !ok || s.e.tables[tt.name] == nil {
		if _, rel := s.e.Relation(as.Opts.OwnedBy[0]); rel {
			return Result{}, pgerr.New(pgerr.ObjectNotInPrereqState, "sequence must be in same schema as table it is linked to")
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", as.Opts.OwnedBy[0])
	}
	alt := *as
	alt.Opts.OwnedBy = []string{tt.name, as.Opts.OwnedBy[1]}
	return s.e.alterSequence(&alt)
}

// tempSeqOwner applies OWNED BY to the session's temporary sequence q.
func (s *Session) tempSeqOwner(q *sequence, o *sql.SeqOptions) error {
	if o.OwnedBy == nil {
		return nil
	}
	tt, ok := s.temps[o.OwnedBy[0]]
	if !ok || s.e.tables[tt.name] == nil {
		if _, rel := s.e.Relation(o.OwnedBy[0]); rel {
			return pgerr.New(pgerr.ObjectNotInPrereqState, "sequence must be in same schema as table it is linked to")
		}
		return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", o.OwnedBy[0])
	}
	own := *o
	own.OwnedBy = []string{tt.name, o.OwnedBy[1]}
	return s.e.setOwner(q, &own)
}

// makeTempNS gives the session its temporary namespace, if it has none.
func (s *Session) makeTempNS() {
	if s.tempNS == "" {
		// Atomic: a statement making a function or type in pg_temp
		// makes the namespace while it is bound, under the shared lock.
		n := atomic.AddUint64(&s.e.tempSessions, 1)
		s.tempNS = fmt.Sprintf("%s%d.", tempPrefix, n)
	}
}

// discardTemps drops every temporary table of the session (DISCARD TEMP,
// the session's end); the caller holds no lock.
func (s *Session) discardTemps() {
	if len(s.temps) == 0 && s.tempNS == "" {
		return
	}
	s.e.mu.Lock()
	s.dropTemps(nil)
	if s.tempNS != "" {
		// Its functions, procedures, aggregates, domains and types, as
		// DROP SCHEMA … CASCADE drops a schema's: none is used by a
		// permanent object (refuseTempUses), its temporary tables are
		// gone, so nothing stops them.
		s.e.dropSchemaObjects(strings.TrimSuffix(s.tempNS, "."), nil) //nolint:errcheck // what is left is the session's alone, never stored
		s.e.catalogGen++
	}
	s.e.mu.Unlock()
}

// endTempBlock ends the session's transaction block for its temporary
// tables: a rollback drops those the block made, as PostgreSQL's
// rollback undoes their creation.
func (s *Session) endTempBlock(committed bool) {
	made := s.tempsMade
	s.tempsMade = nil
	if len(made) == 0 {
		return
	}
	s.e.mu.Lock()
	defer s.e.mu.Unlock()
	for _, k := range made {
		delete(s.e.tempPending, k)
	}
	if committed {
		return
	}
	s.dropTemps(func(t *tempTable) bool { return !slices.Contains(made, t.name) })
}

// forgetTemps forgets the session's temporary tables that are gone (a
// DROP); the caller holds the write lock.
func (s *Session) forgetTemps() {
	for name, t := range s.temps {
		if !s.e.tempExists(t.name) {
			delete(s.temps, name)
			s.e.temps--
		}
	}
}

// dropTemps drops the session's temporary tables that keep drops (all of
// them when it is nil); the caller holds the write lock.
func (s *Session) dropTemps(keep func(*tempTable) bool) {
	s.forgetTemps() // another session may have dropped some
	var names []string
	gone := map[string]bool{}
	var add func(string)
	rdeps := s.e.dependentsIndex()
	add = func(name string) { // with the temporary views over it, and its partitions
		if !gone[name] {
			names = append(names, name)
			gone[name] = true
			for _, v := range rdeps[name] {
				add(v)
			}
			for _, p := range s.e.descendants(name) {
				add(p)
			}
		}
	}
	for _, t := range s.temps {
		if keep == nil || !keep(t) {
			add(t.name)
		}
	}
	if len(names) == 0 {
		return
	}
	s.forgetTempIndexes(names)
	s.e.dropAll(names, gone)
	s.e.relinkTempKeys()
	s.e.inheritDropped(gone)
	for k, q := range s.e.seqs { // the session's sequences, and those its tables own
		if gone[k] || gone[q.owner[0]] {
			delete(s.e.seqs, k)
			delete(s.e.owners, k)
		}
	}
	for k := range s.e.owners { // kept in memory alone (owner.go)
		if gone[k] {
			delete(s.e.owners, k)
		}
	}
	s.e.catalogGen++
	s.forgetTemps()
}

// endTempTx runs the ON COMMIT actions of the session's temporary
// tables, once a transaction of the session has ended: DELETE ROWS
// empties the table (none of its changes is kept anywhere else), DROP
// drops it.
func (s *Session) endTempTx() {
	act := false
	for _, tt := range s.temps {
		act = act || tt.onCommit != sql.OnCommitPreserve
	}
	if !act {
		return
	}
	e := s.e
	e.mu.Lock()
	defer e.mu.Unlock()
	relink := false
	defer func() {
		if relink {
			e.linkForeignKeys()
		}
	}()
	for _, tt := range s.temps {
		if t := e.tables[tt.name]; tt.onCommit == sql.OnCommitDelete && t != nil && t.rows.Len() > 0 {
			fresh := newTable(t.def)
			fresh.name, fresh.temp, fresh.nextID, fresh.trig = t.name, true, t.nextID, t.trig
			e.reindexEmptied(t, fresh)
			relink = relink || t.fkeyed // the links name the table's copy
			e.tables[t.name] = fresh
			e.catalogGen++
		}
	}
	s.dropTemps(func(t *tempTable) bool { return t.onCommit != sql.OnCommitDrop })
}

// isTemp reports whether name is the engine's name of a temporary table
// or view.
func isTemp(name string) bool {
	return strings.HasPrefix(name, tempPrefix) && strings.Contains(name, ".")
}

// readsTemp reports whether a statement's binding read a temporary
// relation.
func readsTemp(rec *recorder) bool {
	for name := range rec.seen {
		if isTemp(name) {
			return true
		}
	}
	return false
}

// createTempView runs CREATE TEMP VIEW, and CREATE VIEW over a
// temporary relation: as in PostgreSQL, the view is temporary too, the
// session's alone. Its query is kept with the engine's names of the
// relations it reads, since the statements that read the view bind it
// again. A materialized view over one is refused, as in PostgreSQL.
func (s *Session) createTempView(cv *sql.CreateView, rec *recorder) (Result, error) {
	if cv.Materialized {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "materialized views must not use temporary tables or views")
	}
	s.forgetTemps()
	s.makeTempNS()
	if tt, ok := s.temps[cv.Name]; ok {
		if cv.Replace && s.e.named[tt.name] != nil {
			return s.replaceTempView(cv, tt.name)
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cv.Name)
	}
	q, err := s.tempQuery(cv.Query)
	if err != nil {
		return Result{}, err
	}
	tv := *cv
	tv.Name, tv.Query = s.tempNS+cv.Name, q
	res, err := s.e.createViewMem(&tv, rec)
	if err != nil {
		return Result{}, err
	}
	if s.temps == nil {
		s.temps = map[string]*tempTable{}
	}
	s.temps[cv.Name] = &tempTable{name: tv.Name}
	s.e.temps++
	if !cv.Temp && readsTemp(rec) {
		res.Notices = append(res.Notices, fmt.Sprintf("view %q will be a temporary view", cv.Name))
	}
	return res, nil
}

// tempQuery is a temporary view's query with the engine's names of the
// session's temporary relations it reads.
func (s *Session) tempQuery(q *sql.Stmt) (*sql.Stmt, error) {
	q = sql.AliasTempSchema(q, s.ownTempSchema())
	if rn := s.tempNames(q); rn != nil {
		var err error
		if q, err = sql.RenameRelations(q, rn); err != nil {
			return nil, err
		}
	}
	if s.tempNS != "" { // and of its temporary functions and types
		return sql.RenameTempObjects(q, s.tempObjects())
	}
	return q, nil
}

// replaceTempView runs CREATE OR REPLACE of the session's temporary view
// name (its engine name): the new query keeps the view's columns, as
// replaceView checks; the session's other temporary views bind it when
// they are read.
func (s *Session) replaceTempView(cv *sql.CreateView, name string) (Result, error) {
	old := s.e.named[name]
	if err := checkReplacedColumns(old.cols, cv.Plan.Columns(), old.colls, cv.Collations); err != nil {
		return Result{}, err
	}
	q, err := s.tempQuery(cv.Query)
	if err != nil {
		return Result{}, err
	}
	nv := *old
	nv.cols, nv.query, nv.invoker, nv.check, nv.colls = cv.Plan.Columns(), q, cv.SecurityInvoker, cv.CheckOption, cv.Collations
	s.e.named[name] = &nv
	return Result{Tag: "CREATE VIEW"}, nil
}

// tempMembers are the session's temporary descendants of table name
// (a permanent table, or a permanent descendant of it, is their parent),
// as sql.Relation.Inherit holds them: what inheritDescendants leaves out
// for the session's own reads.
func (s *Session) tempMembers(name string) []sql.InheritMember {
	e := s.e
	t := e.tables[name]
	if t == nil || s.tempNS == "" || len(e.inherits) == 0 || isTemp(name) {
		return nil
	}
	tree := append([]string{name}, e.inheritDescendants(name)...)
	var kids []string
	for _, l := range e.inherits {
		if strings.HasPrefix(l.child, s.tempNS) && !isTemp(l.parent) && slices.Contains(tree, l.parent) && !slices.Contains(kids, l.child) {
			kids = append(kids, l.child)
			for _, d := range e.inheritDescendants(l.child) {
				if !slices.Contains(kids, d) {
					kids = append(kids, d)
				}
			}
		}
	}
	var out []sql.InheritMember
	for _, k := range kids {
		if m, ok := e.inheritMember(k, t.cols); ok {
			out = append(out, m)
		}
	}
	return out
}

// tempChildOf returns a session's temporary table that descends from
// the permanent table name, or "".
func (e *Engine) tempChildOf(name string) string {
	tree := append([]string{name}, e.inheritDescendants(name)...)
	for _, l := range e.inherits {
		if isTemp(l.child) && !isTemp(l.parent) && slices.Contains(tree, l.parent) {
			return l.child
		}
	}
	return ""
}

// tempSerials adds the session's temporary tables to sc's serial columns
// (pg_get_serial_sequence), by their names and as pg_temp's, shadowing
// permanent tables of the same names; their sequences are named as
// PostgreSQL names its own temporary schema's, pg_temp.name.
func (s *Session) tempSerials(sc *expr.SysCatalog) {
	if sc.Serials == nil {
		return
	}
	for name, tt := range s.temps {
		t := s.e.tables[tt.name]
		if t == nil {
			continue
		}
		cols := map[string]string{}
		for _, c := range t.def.Cols {
			cols[c.Name] = ""
		}
		for _, q := range s.e.seqs {
			if q.owner[0] == tt.name {
				cols[q.owner[1]] = "pg_temp." + expr.QuoteIdent(q.label())
			}
		}
		sc.Serials[name], sc.Serials["pg_temp."+name] = cols, cols
	}
}

// createTempPartition creates CREATE TEMP TABLE … PARTITION OF, a
// partition of one of the session's temporary partitioned tables, under
// the session's namespace as its tables are: a partition of the engine
// (partition.go) that the store never hears of.
func (s *Session) createTempPartition(ct *sql.CreateTable, text string) (Result, error) {
	s.forgetTemps()
	if _, ok := s.temps[ct.Name]; ok {
		if ct.IfNotExists {
			return Result{Tag: "CREATE TABLE", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", ct.Name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ct.Name)
	}
	s.makeTempNS()
	def := *ct
	def.Name = s.tempNS + ct.Name
	res, err := s.e.createPartition(&def, text)
	if err != nil {
		return Result{}, err
	}
	s.addTemp(ct.Name, &tempTable{name: def.Name})
	return res, nil
}
