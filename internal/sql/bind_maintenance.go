package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Maintenance is VACUUM, ANALYZE, CHECKPOINT or DISCARD. The engine keeps
// no dead rows, no planner statistics and no plan cache, and commits are
// durable when acknowledged, so the first three have nothing to do once
// their tables are checked; DISCARD resets the session's state. ALTER …
// ALL IN TABLESPACE pg_default SET TABLESPACE pg_default, which moves
// nothing, is one too (bindMoveAll).
type Maintenance struct {
	// Tag is the command tag: VACUUM, ANALYZE, CHECKPOINT, DISCARD ALL,
	// DISCARD PLANS, DISCARD SEQUENCES, DISCARD TEMP, or ALTER TABLE,
	// INDEX or MATERIALIZED VIEW.
	Tag string
	// NoBlock: refused inside a transaction block (VACUUM, DISCARD ALL).
	NoBlock bool
}

func (*Maintenance) bound() {}

// vacuumOptions are the options of VACUUM and ANALYZE that PostgreSQL 15
// knows; they change nothing here.
var vacuumOptions = map[string]bool{
	"verbose": true, "skip_locked": true, "analyze": true, "freeze": true, "full": true,
	"disable_page_skipping": true, "index_cleanup": true, "truncate": true, "parallel": true,
	"process_toast": true,
}

// bindVacuum checks VACUUM's and ANALYZE's options, tables and columns:
// an unknown table is 42P01, an unknown column 42703, an unknown option
// 42601.
func (b *binder) bindVacuum(v *pg_query.VacuumStmt) (Bound, error) {
	m := &Maintenance{Tag: "ANALYZE"}
	if v.IsVacuumcmd {
		m.Tag, m.NoBlock = "VACUUM", true
	}
	for _, o := range v.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		name := strings.ToLower(d.Defname)
		if !vacuumOptions[name] || !v.IsVacuumcmd && name != "verbose" && name != "skip_locked" {
			return nil, b.stmt.errf(d.Location, pgerr.SyntaxError, "unrecognized %s option %q", m.Tag, d.Defname)
		}
	}
	for _, n := range v.Rels {
		vr := n.GetVacuumRelation()
		if vr == nil || vr.Relation == nil {
			continue
		}
		rv := vr.Relation
		rel, ok := b.cat.Relation(rv.Relname)
		if !ok {
			return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
		}
		for _, c := range vr.VaCols {
			col := c.GetString_().GetSval()
			found := false
			for _, rc := range rel.Cols {
				found = found || rc.Name == col
			}
			if !found {
				return nil, pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", col, rv.Relname)
			}
		}
	}
	return m, nil
}

// bindDiscard binds DISCARD ALL | PLANS | SEQUENCES | TEMP.
func (b *binder) bindDiscard(d *pg_query.DiscardStmt) (Bound, error) {
	switch d.Target {
	case pg_query.DiscardMode_DISCARD_ALL:
		return &Maintenance{Tag: "DISCARD ALL", NoBlock: true}, nil
	case pg_query.DiscardMode_DISCARD_PLANS:
		return &Maintenance{Tag: "DISCARD PLANS"}, nil
	case pg_query.DiscardMode_DISCARD_SEQUENCES:
		return &Maintenance{Tag: "DISCARD SEQUENCES"}, nil
	}
	return &Maintenance{Tag: "DISCARD TEMP"}, nil
}
