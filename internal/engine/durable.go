package engine

import (
	"io"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Store is the store of record of a durable engine: a file that holds the
// catalog, every table's rows and the last committed logical time. The
// engine owns the interface; internal/store implements it over SQLite.
//
// The contract: the engine calls a Store under its write lock, one call
// at a time, before the change it records is acknowledged. A commit is
// Write, then Commit or Abort: Write stages the transaction's rows (and
// may already fail), Commit makes them durable. A Store that returns an
// error from any call has recorded nothing of that change, and the engine
// refuses the change, leaving nothing of it in memory. Errors carry a
// SQLSTATE (53100 disk full, 58030 I/O, 55P03 locked, 25006 read-only).
type Store interface {
	// Write stages one committed transaction: c is valid only during the
	// call.
	Write(c *Commit) error
	// Commit makes the staged transaction durable.
	Commit() error
	// Abort drops the staged transaction.
	Abort()
	// Create records a new relation.
	Create(r *StoredRelation) error
	// Drop records that the relations named are gone, with the privileges
	// granted on them.
	Drop(names []string) error
	// SaveRole records a role, new or changed.
	SaveRole(r StoredRole) error
	// DropRoles records that the roles named are gone, with the privileges
	// granted to them.
	DropRoles(names []string) error
	// SaveGrants records the privileges held now by each role on each
	// relation given; a grant of no privileges is removed.
	SaveGrants(g []StoredGrant) error
	// SaveSubscription records a subscription, new or changed; its
	// position is recorded by the commits that apply its transactions
	// (Commit.Source), and a new one has none.
	SaveSubscription(s StoredSubscription) error
	// DropSubscription records that a subscription is gone.
	DropSubscription(name string) error
	// SaveServer records a server (CREATE SERVER).
	SaveServer(s StoredServer) error
	// SaveForeignTable records a foreign table (CREATE FOREIGN TABLE).
	SaveForeignTable(t StoredForeignTable) error
	// DropForeign records that the servers and foreign tables named are
	// gone.
	DropForeign(servers, tables []string) error
	// Alter records that the table old is now r (ALTER TABLE: its name,
	// statement and columns may all change), holding the rows that rows
	// gives put, each under its row id; the privileges granted on it
	// follow it. It keeps its place in the catalog's order.
	Alter(old string, r *StoredRelation, rows func(put func(id uint64, row value.Row) error) error) error
}

// StoredServer is a server (CREATE SERVER) as a store records it: its
// statement's terms.
type StoredServer struct {
	Name, Wrapper string
	Options       []sql.Option // Pos is not kept
}

// StoredForeignTable is a foreign table (CREATE FOREIGN TABLE) as a store
// records it: its statement's terms, the declared columns as names and
// type names, and the epoch it writes to the target's progress table, so
// that the foreign table created again at open recognises its own row.
type StoredForeignTable struct {
	Name, Server, View, Table string
	Cols                      []StoredColumn // empty: the view's columns
	Epoch                     string
}

// StoredColumn is a declared column of a foreign table.
type StoredColumn struct {
	Name, Type string
}

// StoredSubscription is a subscription (CREATE SUBSCRIPTION) as a store
// records it: its statement's terms, whether it is enabled, and its
// position: whether its initial copy is committed, and the upstream
// position (LSN) of the last transaction applied.
type StoredSubscription struct {
	Name, Conn, Publication, Slot string
	ChangeStream, Enabled         bool
	Copied                        bool
	LSN                           uint64
}

// SourcePosition is the position an outside source reached with a
// commit: the store records it in the same transaction as the commit's
// rows, so that a source resuming from it neither misses nor repeats a
// change.
type SourcePosition struct {
	Subscription string
	LSN          uint64
}

// StoredRole is a role as a store records it: its password only as its
// SCRAM-SHA-256 verifier, empty for none.
type StoredRole struct {
	Name      string
	Login     bool
	Superuser bool
	Verifier  string
}

// StoredGrant is the privileges a role holds on a relation; Role is empty
// for PUBLIC.
type StoredGrant struct {
	Relation string
	Role     string
	Privs    sql.Privilege
}

// RelKind is the kind of a stored relation.
type RelKind string

// The kinds of relation a store records.
const (
	KindTable   RelKind = "table"
	KindView    RelKind = "view"
	KindMatView RelKind = "materialized view"
	KindIndex   RelKind = "index" // CREATE INDEX: recreated after the tables
	// KindPartition is a partition, which keeps no rows of its own:
	// recreated with the tables, before any table's rows are loaded.
	KindPartition RelKind = "partition"
)

// StoredRelation is a relation as a store records it: the statement that
// created it, run again at open, and, for a table, its columns.
type StoredRelation struct {
	Name string
	Kind RelKind
	SQL  string
	Cols []plan.Column // a table's columns; nil for a view
}

// Commit is one committed transaction as a store sees it: its row changes
// in the order they were made, the tables the engine renumbers after it,
// and the logical time it commits at.
type Commit struct {
	TS uint64
	// Source is the position of the subscription whose upstream
	// transaction the commit applies; nil for other commits.
	Source *SourcePosition
	// Renumber lists the tables whose row ids the engine renumbers after
	// the commit (compact): their rows, in id order, become 1, 2, ….
	Renumber []string
	log      []change
}

// Each calls fn with every row change of the transaction, in order: a row
// inserted under id (insert) or the row deleted from under id. An update
// is the deletion of the old row then the insertion of the new under the
// same id. It stops at fn's first error.
func (c *Commit) Each(fn func(table string, id uint64, row value.Row, insert bool) error) error {
	for _, ch := range c.log {
		if ch.w == 0 || ch.t.temp {
			continue
		}
		if err := fn(ch.t.name, ch.id, ch.row, ch.w > 0); err != nil {
			return err
		}
	}
	return nil
}

// SetStore makes s the engine's store of record: from now on every commit
// and catalog change is written to it before it is acknowledged. It is set
// once, after the engine's state was loaded from the store.
func (e *Engine) SetStore(s Store) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.store = s
}

// CloseStore closes c, the engine's store, under the write lock, so that
// no commit is being written meanwhile; later changes are refused. After a
// halt (halt.go) it writes nothing more.
func (e *Engine) CloseStore(c io.Closer) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if bs, ok := e.store.(BlockStore); ok && e.txd != nil {
		// A block left open is rolled back: the file stays as before it.
		bs.EndBlock(false) //nolint:errcheck // closing drops it anyway
	}
	if e.haltErr() == nil {
		e.saveSequencesExact()
		e.saveXidsExact()
	}
	e.store = closedStore{}
	return c.Close()
}

// closedStore refuses every change: the store of a closed database.
type closedStore struct{}

func errClosedStore() error {
	return pgerr.New(pgerr.IOError, "the database file is closed: changes are refused")
}

func (closedStore) Write(*Commit) error            { return errClosedStore() }
func (closedStore) Commit() error                  { return errClosedStore() }
func (closedStore) Abort()                         {}
func (closedStore) Create(*StoredRelation) error   { return errClosedStore() }
func (closedStore) Drop([]string) error            { return errClosedStore() }
func (closedStore) SaveRole(StoredRole) error      { return errClosedStore() }
func (closedStore) DropRoles([]string) error       { return errClosedStore() }
func (closedStore) SaveGrants([]StoredGrant) error { return errClosedStore() }
func (closedStore) SaveSubscription(StoredSubscription) error {
	return errClosedStore()
}
func (closedStore) DropSubscription(string) error { return errClosedStore() }
func (closedStore) SaveServer(StoredServer) error { return errClosedStore() }
func (closedStore) SaveForeignTable(StoredForeignTable) error {
	return errClosedStore()
}
func (closedStore) DropForeign([]string, []string) error { return errClosedStore() }
func (closedStore) Alter(string, *StoredRelation, func(func(uint64, value.Row) error) error) error {
	return errClosedStore()
}

// storeWrite writes a commit's changes and its logical time ts to the
// store, and makes them durable when commit is set; without it the caller
// calls the store's Commit after its own work (the sinks). A transaction
// of change events alone (tables that keep no rows) writes only the
// logical time.
func (e *Engine) storeWrite(log []change, ts uint64, src *SourcePosition, commit bool) (bool, error) {
	if e.store == nil || len(log) == 0 {
		return false, nil
	}
	cm := &e.storeCommit
	*cm = Commit{TS: ts, Source: src, log: log, Renumber: cm.Renumber[:0]}
	defer func() { cm.log = nil }()
	for i, c := range log {
		if (i == 0 || c.t != log[i-1].t) && !c.t.temp && c.t.needsCompact() && !contains(cm.Renumber, c.t.name) {
			cm.Renumber = append(cm.Renumber, c.t.name)
		}
	}
	if err := e.store.Write(cm); err != nil {
		e.store.Abort()
		return false, err
	}
	if commit {
		if err := e.store.Commit(); err != nil {
			return false, err
		}
		return false, nil
	}
	return true, nil
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// storeCreate records the relation just created under name; on failure
// the relation is dropped from memory again.
func (e *Engine) storeCreate(name string, kind RelKind, text string) error {
	if e.store == nil {
		return nil
	}
	r := &StoredRelation{Name: name, Kind: kind, SQL: text}
	if t, ok := e.tables[name]; ok {
		r.Cols = t.cols
	}
	if text == "" {
		return pgerr.New(pgerr.Internal, "no statement text to store for %s %q", kind, name)
	}
	if err := e.store.Create(r); err != nil {
		e.dropAll([]string{name}, map[string]bool{name: true})
		return err
	}
	return nil
}

// LoadRows puts a table's stored rows, each under its row id, into the
// table: for a store opening its file, before any view exists, with no
// store set. The rows are the table's own from then on.
func (e *Engine) LoadRows(name string, fill func(put func(id uint64, row value.Row) error) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.tables[name]
	if !ok {
		return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	return fill(func(id uint64, row value.Row) error {
		if len(row) != len(t.cols) {
			return pgerr.New("XX001", "stored row of table %q has %d columns, want %d", name, len(row), len(t.cols))
		}
		t.put(id, row)
		return nil
	})
}

// SetLastTS sets the logical time of the last commit, as a store read it.
func (e *Engine) SetLastTS(ts uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ts = ts
}

// TableColumns returns a table's columns, or false when there is no such
// table.
func (e *Engine) TableColumns(name string) ([]plan.Column, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	t, ok := e.tables[name]
	if !ok {
		return nil, false
	}
	return t.cols, true
}

// detachSinks detaches every sink after the store failed to make durable
// a step the sinks had committed: they now hold a step the engine refused.
func (e *Engine) detachSinks(step uint64, err error) {
	for len(e.sinks) > 0 {
		e.detachFailed(e.sinks[0], step, err)
	}
}

// LoadRoles puts the roles and privileges a store read into the engine:
// for a store opening its file, after its relations were created, with no
// store set. Privileges on relations that do not exist are dropped. The
// grants of a relation come in the order they were first made (its ACL's
// order); one of no privileges stands for a relation whose every grant
// was revoked, whose ACL holds its owner's item alone.
func (e *Engine) LoadRoles(roles []StoredRole, grants []StoredGrant) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range roles {
		if e.roles == nil {
			e.roles = map[string]*role{}
		}
		e.roles[r.Name] = &role{name: r.Name, login: r.Login, superuser: r.Superuser, verifier: r.Verifier}
	}
	for _, g := range grants {
		if grantee, grantor, other := strings.Cut(g.Role, "\x00"); g.Role != ownItemMark && (e.roles[grantee] == nil && grantee != "" || other && grantor != "" && e.roles[grantor] == nil) {
			continue // an item of another grantor keys grantee and grantor (acl_items.go)
		}
		if e.grants == nil {
			e.grants = map[string]map[string]sql.Privilege{}
		}
		m := e.grants[g.Relation]
		if m == nil {
			m = map[string]sql.Privilege{}
			e.grants[g.Relation] = m
		}
		if g.Privs == 0 {
			continue // the relation's ACL, every grant of it revoked
		}
		m[g.Role] = g.Privs
		e.noteGrant(g.Relation, g.Role, g.Privs)
	}
	e.pruneGrants()
}

// SaveSubscription records a subscription in the store, if the engine
// has one.
func (e *Engine) SaveSubscription(s StoredSubscription) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.store == nil {
		return nil
	}
	return e.store.SaveSubscription(s)
}

// DropStoredSubscription records in the store, if the engine has one,
// that a subscription is gone.
func (e *Engine) DropStoredSubscription(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.store == nil {
		return nil
	}
	return e.store.DropSubscription(name)
}

// ResumeSubscriptions hands the subscriptions a store read to the
// subscription driver, which starts the enabled ones from their stored
// positions: for a store opening its file, after SetStore. Without a
// driver linked they stay in the file, not running.
func (e *Engine) ResumeSubscriptions(subs []StoredSubscription) error {
	if len(subs) == 0 {
		return nil
	}
	d := e.subscriptions()
	if d == nil {
		return nil
	}
	for _, s := range subs {
		if err := d.Resume(s); err != nil {
			return err
		}
	}
	return nil
}

// SaveForeignTable records a foreign table in the store, if the engine
// has one.
func (e *Engine) SaveForeignTable(t StoredForeignTable) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.store == nil {
		return nil
	}
	return e.store.SaveForeignTable(t)
}

// DropStoredForeign records in the store, if the engine has one, that
// servers and foreign tables are gone.
func (e *Engine) DropStoredForeign(servers, tables []string) error {
	if len(servers) == 0 && len(tables) == 0 {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.store == nil {
		return nil
	}
	return e.store.DropForeign(servers, tables)
}

// ResumeForeign hands the servers and foreign tables a store read to the
// sink driver, which attaches each foreign table to its view again: for a
// store opening its file, after SetStore, the views being rebuilt.
// Without a driver linked they stay in the file, not running.
func (e *Engine) ResumeForeign(servers []StoredServer, tables []StoredForeignTable) error {
	if len(servers) == 0 && len(tables) == 0 {
		return nil
	}
	d := e.foreign()
	if d == nil {
		return nil
	}
	return d.Resume(servers, tables)
}

// Step returns the logical time of the last commit.
func (e *Engine) Step() uint64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.ts
}

// BlockStore is a Store that can hold a transaction block's catalog
// changes and rows in one transaction of its own (txddl.go), so that the
// file never holds half a block. Between BeginBlock and the block's end,
// every other call of the Store writes inside that transaction: Write and
// Commit stage the block's last rows and then make the whole block durable;
// Abort drops only what the last Write staged. Mark returns a point of the
// block that RollbackTo undoes the block back to (the point is gone after);
// Stage keeps inside the block what the last Write staged. EndBlock commits
// or rolls back the block if it is still open (a block whose COMMIT wrote no
// rows, or a ROLLBACK). A store that is not a BlockStore refuses catalog
// changes inside a block.
type BlockStore interface {
	BeginBlock() error
	Mark() (int, error)
	RollbackTo(mark int) error
	Stage() error
	EndBlock(commit bool) error
}
