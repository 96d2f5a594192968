package store

import (
	"io"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// OpenEngine opens the store at path and loads it into e, an empty
// engine: the tables are created and filled from the file, then the views
// are created again in creation order, each by its cold start from the
// tables, the roles and privileges are restored, and the engine's time is
// set to the last commit's. From then on e writes every change to the
// file; then the subscriptions resume from their stored positions and
// the foreign tables attach again to their views. The closer closes the file.
func OpenEngine(path string, e *engine.Engine, o Options) (io.Closer, error) {
	f, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	if err := load(f, e); err != nil {
		f.Close()
		return nil, err
	}
	e.SetStore(f)
	// Subscriptions last, once every commit they make is written to the
	// file: each resumes from the position its last commit stored.
	subs, err := f.Subscriptions()
	if err == nil {
		err = e.ResumeSubscriptions(subs)
	}
	// Foreign tables follow their views, rebuilt by now: each attaches
	// again and, when its target holds the view as at the last commit,
	// skips the load.
	if err == nil {
		var servers []engine.StoredServer
		var tables []engine.StoredForeignTable
		if servers, tables, err = f.Foreign(); err == nil {
			err = e.ResumeForeign(servers, tables)
		}
	}
	if err != nil {
		e.Close()
		e.CloseStore(f)
		return nil, err
	}
	return f, nil
}

func load(f *File, e *engine.Engine) error {
	entries, err := f.Catalog()
	if err != nil {
		return err
	}
	// Schemas first: every other object may be in one.
	schemas, err := f.Schemas()
	if err != nil {
		return err
	}
	e.LoadSchemas(schemas)
	// Types next: a table's column may have one.
	types, err := f.Types()
	if err != nil {
		return err
	}
	if err := e.LoadTypes(types); err != nil {
		return err
	}
	// Sequences next: a table's default may call one.
	seqs, err := f.Sequences()
	if err != nil {
		return err
	}
	if err := e.LoadSequences(seqs); err != nil {
		return err
	}
	s := e.NewSession()
	defer s.Close()
	s.MarkRestoring()
	// A function's body is checked when it is created, not again: what it
	// reads may have gone since, as in PostgreSQL (pg_dump's restore does
	// the same).
	if err := s.ExecScript("SET check_function_bodies = off", func(engine.Result) error { return nil }); err != nil {
		return err
	}
	pathSet := false // the last statement set the search path it was made under
	zoneSet := false // the last statement set the time zone its view captured
	run := func(en Entry) error {
		if pathSet {
			if err := s.ExecScript("RESET search_path", func(engine.Result) error { return nil }); err != nil {
				return err
			}
		}
		if zoneSet {
			if err := s.ExecScript("RESET timezone", func(engine.Result) error { return nil }); err != nil {
				return err
			}
		}
		pathSet = strings.HasPrefix(en.SQL, "SET search_path = ")
		zoneSet = strings.Contains(en.SQL, "SET timezone = ")
		if err := s.ExecScript(en.SQL, func(engine.Result) error { return nil }); err != nil {
			pe := *pgerr.Wrap(err)
			pe.Message = "database file " + f.path + ": recreating " + string(en.Kind) + " " + en.Name + ": " + pe.Message
			return &pe
		}
		return nil
	}
	// Extensions first: a domain's or a table's default may call their
	// functions; collations too, which a table's column may name.
	for _, en := range entries {
		if en.Kind == engine.KindExtension || en.Kind == engine.KindCollation {
			if err := run(en); err != nil {
				return err
			}
		}
	}
	// Domains and composite types before the tables whose columns are
	// of them; the engine has no store yet, so recreating them writes
	// nothing.
	domains, err := f.Domains()
	if err != nil {
		return err
	}
	// The functions their defaults and checks call before them
	// (open_fncalls.go).
	var defs []string
	for _, d := range domains {
		defs = append(defs, d.SQL)
	}
	for _, en := range entries {
		if en.Kind == engine.KindTable || en.Kind == engine.KindPartition {
			defs = append(defs, en.SQL)
		}
	}
	early := earlyFunctions(entries, defs, run)
	var typeStmts []Entry
	for _, d := range domains {
		typeStmts = append(typeStmts, Entry{Name: d.Name, Kind: "domain", SQL: d.SQL})
	}
	for _, t := range types {
		if t.Kind == engine.StoredTypeComposite {
			typeStmts = append(typeStmts, Entry{Name: t.Name, Kind: "type", SQL: t.SQL})
		}
	}
	if err := runTypeStatements(typeStmts, run); err != nil {
		return err
	}
	for _, d := range domains {
		if d.TypDefault != "" {
			if err := e.SetDomainTypDefault(d.Name, d.TypDefault); err != nil {
				return err
			}
		}
	}
	// Tables and partitions first, then the tables' rows: no table
	// depends on a view, and every view's cold start then reads the
	// tables whole. A partition is created before its root's rows are
	// back, as it was before they were written.
	for _, en := range entries {
		if en.Kind != engine.KindTable && en.Kind != engine.KindPartition {
			continue
		}
		if err := run(en); err != nil {
			return err
		}
	}
	// Inheritance links once every table is back, before any view reads
	// a hierarchy.
	for _, en := range entries {
		if en.Kind == engine.KindInherit {
			if err := run(en); err != nil {
				return err
			}
		}
	}
	for _, en := range entries {
		if en.Kind != engine.KindTable {
			continue
		}
		cols, ok := e.TableColumns(en.Name)
		if !ok {
			return pgerr.New(codeDataCorrupted, "database file %q: the statement stored for table %q creates no such table", f.path, en.Name)
		}
		if err := e.LoadRows(en.Name, func(put func(uint64, value.Row) error) error {
			return f.Rows(en, cols, put)
		}); err != nil {
			return err
		}
	}
	for i, en := range entries {
		if early[i] || en.Kind == engine.KindTable || en.Kind == engine.KindPartition || en.Kind == engine.KindExtension || en.Kind == engine.KindCollation || en.Kind == engine.KindInherit || afterRoles(en.Kind) {
			continue
		}
		if err := run(en); err != nil {
			return err
		}
	}
	// Roles and privileges last: a privilege names a relation.
	roles, grants, err := f.Roles()
	if err != nil {
		return err
	}
	e.LoadRoles(roles, grants)
	// Policies after the roles they name, the roles' BYPASSRLS, and the
	// relations' owners.
	for _, en := range entries {
		if !afterRoles(en.Kind) {
			continue
		}
		if err := run(en); err != nil {
			return err
		}
	}
	comments, err := f.Comments()
	if err != nil {
		return err
	}
	e.LoadComments(comments)
	next, aborted, err := f.Xids()
	if err != nil {
		return err
	}
	e.LoadXids(next, aborted)
	e.SetLastTS(f.LastTS())
	return rekeyDomainRoutines(f, e, entries)
}

// rekeyDomainRoutines keeps under their keys now the aggregates and
// operators over a domain that an earlier version stored under their
// domains' base types (engine.DomainKeysBefore); a key already stored
// is another object's, kept as it is.
func rekeyDomainRoutines(f *File, e *engine.Engine, entries []Entry) error {
	if f.readOnly {
		return nil
	}
	keys := e.DomainKeysBefore()
	stored := map[string]bool{}
	for _, en := range entries {
		stored[en.Name] = true
	}
	for _, en := range entries {
		if en.Kind != engine.KindOperator && en.Kind != engine.KindAggregate {
			continue
		}
		if k, ok := keys[en.Name]; ok && !stored[k] {
			if err := f.RenameRelation(en.Name, k, en.SQL); err != nil {
				return err
			}
			stored[k] = true
		}
	}
	return nil
}

// afterRoles reports whether entries of kind k are run once the roles
// are back: they name roles (policies, owners, grants, roles' flags and
// memberships).
func afterRoles(k engine.RelKind) bool {
	switch k {
	case engine.KindPolicy, engine.KindRoleBypassRLS, engine.KindRoleNoInherit, engine.KindRoleMember,
		engine.KindTypeOwner, engine.KindCollationOwner, engine.KindRelOwner, engine.KindColumnGrants, engine.KindDefaultACL, engine.KindDatabaseACL, engine.KindTypeACL:
		return true
	}
	return false
}
