package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Refresh is REFRESH MATERIALIZED VIEW [CONCURRENTLY] name [WITH [NO]
// DATA]. A populated view already equals its query, so refreshing it
// changes nothing; WITH NO DATA empties it and stops its maintenance, and
// a refresh of an unpopulated view builds it again (a cold start).
type Refresh struct {
	View         string
	Concurrently bool
	NoData       bool
}

// Cluster is CLUSTER [VERBOSE] [table [USING index]]; Table is "" for
// every table clustered before.
type Cluster struct {
	Table, Index string
	Verbose      bool
}

// Reindex is REINDEX [(options)] {INDEX | TABLE | SCHEMA | DATABASE |
// SYSTEM} [CONCURRENTLY] name.
type Reindex struct {
	// Kind is INDEX, TABLE, SCHEMA, DATABASE or SYSTEM.
	Kind         string
	Name         string
	Concurrently bool
	Verbose      bool
}

// LockTable is LOCK [TABLE] name, … [IN mode MODE] [NOWAIT].
type LockTable struct {
	Tables []string
	// Mode is the lock mode as PostgreSQL names it: ACCESS SHARE, …,
	// ACCESS EXCLUSIVE (the default).
	Mode   string
	NoWait bool
}

func (*Refresh) bound()   {}
func (*Cluster) bound()   {}
func (*Reindex) bound()   {}
func (*LockTable) bound() {}

// lockModes are PostgreSQL's table lock modes by their number in
// LockStmt.Mode (lockdefs.h).
var lockModes = []string{"", "ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE",
	"SHARE", "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE"}

// bindStorageStmt binds REFRESH MATERIALIZED VIEW, CLUSTER, REINDEX and
// LOCK; ok is false for other statements. Their relations are checked by
// the engine, which knows indexes and unpopulated views.
func (b *binder) bindStorageStmt(n *pg_query.Node) (Bound, bool, error) {
	switch {
	case n.GetRefreshMatViewStmt() != nil:
		r := n.GetRefreshMatViewStmt()
		if r.Concurrent && r.SkipData {
			return nil, true, pgerr.New(pgerr.SyntaxError, "CONCURRENTLY and WITH NO DATA options cannot be used together")
		}
		return &Refresh{View: r.Relation.GetRelname(), Concurrently: r.Concurrent, NoData: r.SkipData}, true, nil
	case n.GetClusterStmt() != nil:
		c := n.GetClusterStmt()
		out := &Cluster{Index: c.Indexname}
		if c.Relation != nil {
			out.Table = c.Relation.Relname
		}
		for _, o := range c.Params {
			d := o.GetDefElem()
			if d == nil {
				continue
			}
			if strings.ToLower(d.Defname) != "verbose" {
				return nil, true, b.stmt.errf(d.Location, pgerr.SyntaxError, "unrecognized CLUSTER option %q", d.Defname)
			}
			out.Verbose = defTrue(d)
		}
		return out, true, nil
	case n.GetReindexStmt() != nil:
		r := n.GetReindexStmt()
		out := &Reindex{Kind: strings.TrimPrefix(r.Kind.String(), "REINDEX_OBJECT_"), Name: r.Name}
		if r.Relation != nil {
			out.Name = r.Relation.Relname
		}
		for _, o := range r.Params {
			d := o.GetDefElem()
			if d == nil {
				continue
			}
			switch strings.ToLower(d.Defname) {
			case "verbose":
				out.Verbose = defTrue(d)
			case "concurrently":
				out.Concurrently = defTrue(d)
			case "tablespace":
			default:
				return nil, true, b.stmt.errf(d.Location, pgerr.SyntaxError, "unrecognized REINDEX option %q", d.Defname)
			}
		}
		return out, true, nil
	case n.GetCreateStatsStmt() != nil:
		st, err := b.bindCreateStatistics(n.GetCreateStatsStmt())
		return st, true, err
	case n.GetAlterStatsStmt() != nil:
		st, err := b.bindAlterStatistics(n.GetAlterStatsStmt())
		return st, true, err
	case n.GetDropStmt() != nil && n.GetDropStmt().RemoveType == pg_query.ObjectType_OBJECT_STATISTIC_EXT:
		st, err := b.bindDropStatistics(n.GetDropStmt())
		return st, true, err
	case n.GetAlterOwnerStmt() != nil && n.GetAlterOwnerStmt().ObjectType == pg_query.ObjectType_OBJECT_STATISTIC_EXT:
		st, err := b.bindAlterStatisticsOwner(n.GetAlterOwnerStmt())
		return st, true, err
	case n.GetRenameStmt() != nil && n.GetRenameStmt().RenameType == pg_query.ObjectType_OBJECT_STATISTIC_EXT:
		rs := n.GetRenameStmt()
		name := statsName(rs.Object.GetList().GetItems())
		return &AlterStatistics{Schema: name.Schema, Name: name.Name, Rename: rs.Newname, IfExists: rs.MissingOk, Target: -1}, true, nil
	case n.GetLockStmt() != nil:
		l := n.GetLockStmt()
		out := &LockTable{Mode: "ACCESS EXCLUSIVE", NoWait: l.Nowait}
		if l.Mode > 0 && int(l.Mode) < len(lockModes) {
			out.Mode = lockModes[l.Mode]
		}
		for _, r := range l.Relations {
			if rv := r.GetRangeVar(); rv != nil {
				out.Tables = append(out.Tables, rv.Relname)
			}
		}
		return out, true, nil
	}
	return nil, false, nil
}

// defTrue reads a boolean option: true when it has no value.
func defTrue(d *pg_query.DefElem) bool {
	if d.Arg == nil {
		return true
	}
	switch v := d.Arg.GetNode().(type) {
	case *pg_query.Node_Boolean:
		return v.Boolean.Boolval
	case *pg_query.Node_Integer:
		return v.Integer.Ival != 0
	case *pg_query.Node_String_:
		s := strings.ToLower(v.String_.Sval)
		return s == "true" || s == "on" || s == "1" || s == "yes"
	}
	return true
}
