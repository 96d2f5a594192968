package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// CLUSTER, REINDEX and LOCK TABLE, in the engine's terms.
//
//   - CLUSTER t USING idx remembers idx as t's clustered index (pg_index.
//     indisclustered) and lays t's rows out again in memory, in row id
//     order (table.layout), when replaces have scattered them; a scan
//     reads rows in id order, not in the index's order. CLUSTER t uses
//     the index remembered, CLUSTER every table that has one. The index
//     remembered is not kept in the file.
//   - REINDEX rebuilds the ordered index of each CREATE INDEX index it
//     names from the table's rows. The hash indexes of primary keys and
//     unique constraints are exact after every write and are left as they
//     are.
//   - LOCK TABLE takes the writer slot, as SELECT … FOR UPDATE does
//     (locking.go), and keeps it to the end of the transaction: every mode
//     conflicts with the changes and catalog changes of other sessions,
//     which wait for it, and NOWAIT fails with 55P03 when another
//     session's transaction holds the slot. Other sessions' reads do not
//     wait: they see the last commit, as they would have before the lock.

// storageAccess is what CLUSTER, REINDEX and LOCK need of the engine's
// locks: the writer slot, but for LOCK outside a block (refused).
func (s *Session) storageAccess(b sql.Bound) access {
	if _, ok := b.(*sql.LockTable); ok && !s.block {
		return accessSession
	}
	return accessWrite
}

func (s *Session) execStorage(b sql.Bound) (Result, error) {
	switch b := b.(type) {
	case *sql.LockTable:
		if !s.block {
			return Result{}, pgerr.New(pgerr.NoActiveTransaction, "LOCK TABLE can only be used in transaction blocks")
		}
		if err := s.lockTables(b); err != nil {
			return Result{}, err
		}
		return Result{Tag: "LOCK TABLE"}, nil
	case *sql.Cluster:
		return s.execCluster(b)
	case *sql.Reindex:
		return s.execReindex(b)
	}
	return Result{}, pgerr.New(pgerr.Internal, "unhandled statement %T", b)
}

// lockTables checks LOCK's tables and the session's privileges on them:
// the engine's lock already excludes every other writer.
func (s *Session) lockTables(b *sql.LockTable) error {
	if err := s.e.lockTargets(b); err != nil {
		return err
	}
	for _, t := range b.Tables {
		if err := s.allowed(t, lockPrivilege(b.Mode)); err != nil {
			return err
		}
	}
	return nil
}

// lockPrivilege is the privilege LOCK needs in mode: SELECT for ACCESS
// SHARE, UPDATE for the others (PostgreSQL also accepts DELETE, TRUNCATE
// or INSERT for some).
func lockPrivilege(mode string) sql.Privilege {
	if mode == "ACCESS SHARE" {
		return sql.PrivSelect
	}
	return sql.PrivUpdate
}

// lockTargets checks LOCK's relations: tables and plain views, as
// PostgreSQL locks.
func (e *Engine) lockTargets(l *sql.LockTable) error {
	for _, name := range l.Tables {
		if e.tables[name] != nil || e.named[name] != nil {
			continue
		}
		what := e.otherRelKind(name)
		if what == "" {
			return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
		}
		return pgerr.New(pgerr.WrongObjectType, "cannot lock relation %q", name).
			WithDetail("This operation is not supported for %s.", what)
	}
	return nil
}

// lockTableNoWait takes the writer slot for LOCK … NOWAIT: at once, or
// 55P03 as PostgreSQL fails when another transaction holds a conflicting
// lock. The relations are checked first, as PostgreSQL does.
func (s *Session) lockTableNoWait(l *sql.LockTable) error {
	if !s.block || s.writer {
		return nil
	}
	s.e.mu.RLock()
	err := s.e.lockTargets(l)
	s.e.mu.RUnlock()
	if err != nil {
		return err
	}
	if s.e.slot.tryAcquire() {
		s.writer = true
		return nil
	}
	return pgerr.New(pgerr.LockNotAvailable, "could not obtain lock on relation %q", l.Tables[0]).
		WithHint("another session's transaction holds the right to write; its end releases it")
}

// indexOwner returns the table of the index named name: a CREATE INDEX
// index, a primary key's or a unique constraint's; nil for none.
func (e *Engine) indexOwner(name string) *table {
	if t := e.indexes[name]; t != nil {
		return t
	}
	for _, tn := range sortedKeys(e.tables) {
		t := e.tables[tn]
		for _, u := range t.uniques {
			if u.name == name && !t.temp {
				return t
			}
		}
	}
	return nil
}

// hasIndex reports whether t has an index named name.
func (t *table) hasIndex(name string) bool {
	for _, u := range t.uniques {
		if u.name == name {
			return true
		}
	}
	for _, ix := range t.indexes {
		if ix.name == name {
			return true
		}
	}
	return slices.ContainsFunc(t.xindexes, func(ix *namedIndex) bool { return ix.name == name })
}

// notTableOrMatView is PostgreSQL's error for a relation of another kind
// where a table or a materialized view is expected.
func (e *Engine) notTableOrMatView(name string) error {
	if _, ok := e.Relation(name); ok || e.seqs[name] != nil || e.indexOwner(name) != nil {
		return pgerr.New(pgerr.WrongObjectType, "%q is not a table or materialized view", name)
	}
	return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
}

func (s *Session) execCluster(c *sql.Cluster) (Result, error) {
	e := s.e
	if c.Table == "" {
		if s.block {
			return Result{}, pgerr.New(pgerr.ActiveTransaction, "CLUSTER cannot run inside a transaction block")
		}
		for _, name := range sortedKeys(e.tables) {
			if t := e.tables[name]; t.clustered != "" && !t.temp {
				t.layout()
			}
		}
		return Result{Tag: "CLUSTER"}, nil
	}
	t := e.tables[c.Table]
	if t == nil {
		if e.views[c.Table] != nil || e.unpopulated[c.Table] != nil {
			// A materialized view takes no index here.
			if c.Index != "" {
				return Result{}, pgerr.New(pgerr.UndefinedObject, "index %q for table %q does not exist", e.bareName(c.Index), e.bareName(c.Table))
			}
			return Result{}, pgerr.New(pgerr.UndefinedObject, "there is no previously clustered index for table %q", e.bareName(c.Table))
		}
		return Result{}, e.notTableOrMatView(c.Table)
	}
	if err := s.mustOwnTable(t); err != nil {
		return Result{}, err
	}
	idx := c.Index
	if idx == "" {
		if t.clustered == "" {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "there is no previously clustered index for table %q", e.bareName(c.Table))
		}
		idx = t.clustered
	} else if !t.hasIndex(idx) {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "index %q for table %q does not exist", e.bareName(idx), e.bareName(c.Table))
	} else if slices.ContainsFunc(t.xindexes, func(ix *namedIndex) bool { return ix.name == idx && ix.x.where != nil }) {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot cluster on partial index %q", e.bareName(idx))
	}
	t.clustered = idx
	if !s.block {
		t.layout() // between transactions' changes only
	}
	var res Result
	if c.Verbose {
		res.Notices = []string{fmt.Sprintf("clustering %q: %d rows laid out in row id order", qualified(c.Table), t.rows.Len())}
		res.NoticeLevels = map[int]string{0: "INFO"}
	}
	res.Tag = "CLUSTER"
	return res, nil
}

// mustOwnTable checks that the session's role holds the privileges of
// t's owner (superusers do).
func (s *Session) mustOwnTable(t *table) error {
	return s.mustOwnRel(t.name, "table")
}

func (s *Session) execReindex(r *sql.Reindex) (Result, error) {
	e := s.e
	if s.block && (r.Concurrently || r.Kind == "SCHEMA" || r.Kind == "DATABASE" || r.Kind == "SYSTEM") {
		what := "REINDEX " + r.Kind
		if r.Concurrently {
			what = "REINDEX CONCURRENTLY"
		}
		return Result{}, pgerr.New(pgerr.ActiveTransaction, "%s cannot run inside a transaction block", what)
	}
	var tables []*table
	only := "" // REINDEX INDEX: that index alone
	switch r.Kind {
	case "INDEX":
		t := e.indexOwner(r.Name)
		if t == nil {
			if _, ok := e.Relation(r.Name); ok {
				return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not an index", r.Name)
			}
			return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", r.Name)
		}
		tables, only = []*table{t}, r.Name
	case "TABLE":
		t := e.tables[r.Name]
		if t == nil {
			if e.views[r.Name] != nil || e.unpopulated[r.Name] != nil {
				return Result{Tag: "REINDEX", Notices: []string{fmt.Sprintf("table %q has no indexes to reindex", r.Name)}}, nil
			}
			return Result{}, e.notTableOrMatView(r.Name)
		}
		if len(t.uniques) == 0 && len(t.indexes) == 0 {
			return Result{Tag: "REINDEX", Notices: []string{fmt.Sprintf("table %q has no indexes to reindex", r.Name)}}, nil
		}
		tables = []*table{t}
	case "SCHEMA":
		if r.Name != "public" {
			return Result{}, pgerr.New("3F000", "schema %q does not exist", r.Name)
		}
		for _, name := range sortedKeys(e.tables) {
			if t := e.tables[name]; !t.temp {
				tables = append(tables, t)
			}
		}
	case "DATABASE", "SYSTEM":
		if r.Name != "" && r.Name != DatabaseName {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "can only reindex the currently open database")
		}
		if r.Kind == "DATABASE" {
			for _, name := range sortedKeys(e.tables) {
				if t := e.tables[name]; !t.temp {
					tables = append(tables, t)
				}
			}
		}
	}
	for _, t := range tables {
		if err := s.mustOwnTable(t); err != nil {
			return Result{}, err
		}
	}
	var res Result
	for _, t := range tables {
		for _, name := range t.rebuildIndexes(only) {
			if r.Verbose {
				res.Notices = append(res.Notices, fmt.Sprintf("index %q was reindexed", name))
			}
		}
	}
	if len(res.Notices) > 0 {
		res.NoticeLevels = map[int]string{}
		for i := range res.Notices {
			res.NoticeLevels[i] = "INFO"
		}
	}
	res.Tag = "REINDEX"
	return res, nil
}

// rebuildIndexes rebuilds t's ordered indexes from its rows (only the one named
// only, unless ""), and returns the names of the indexes reindexed: the
// hash indexes of keys, exact after every write, are named, not rebuilt.
func (t *table) rebuildIndexes(only string) []string {
	var names []string
	for _, u := range t.uniques {
		if only == "" || u.name == only {
			if !slices.ContainsFunc(t.indexes, func(ix *namedIndex) bool { return ix.unique == u }) {
				names = append(names, u.name)
			}
		}
	}
	for _, ix := range t.indexes {
		if only != "" && ix.name != only {
			continue
		}
		fresh := newOrderedIndex(ix.cols)
		if t.keepsRows() {
			fresh.build(t)
		}
		ix.ord.tr = fresh.tr
		names = append(names, ix.name)
	}
	for _, ix := range t.xindexes {
		if only == "" || ix.name == only {
			ix.xord.build(t, ix)
		}
	}
	slices.Sort(names)
	return names
}

// clusterOnCheck checks ALTER TABLE … CLUSTER ON idx as CLUSTER … USING
// idx does: the index must be one of t's, and not partial.
func (e *Engine) clusterOnCheck(t *table, a *sql.AlterTable) error {
	if a.Cluster == nil || *a.Cluster == "" {
		return nil
	}
	idx := *a.Cluster
	if !t.hasIndex(idx) {
		return pgerr.New(pgerr.UndefinedObject, "index %q for table %q does not exist", e.bareName(idx), e.bareName(a.Table))
	}
	if slices.ContainsFunc(t.xindexes, func(ix *namedIndex) bool { return ix.name == idx && ix.x.where != nil }) {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot cluster on partial index %q", e.bareName(idx))
	}
	return nil
}

// otherRelKind names the kind of relation name when it is a materialized
// view, a sequence or an index, as PostgreSQL's DETAIL "This operation is
// not supported for …" does; "" when it is none of them.
func (e *Engine) otherRelKind(name string) string {
	switch {
	case e.views[name] != nil, e.unpopulated[name] != nil:
		return "materialized views"
	case e.seqs[name] != nil:
		return "sequences"
	case e.indexOwner(name) != nil:
		return "indexes"
	}
	return ""
}
