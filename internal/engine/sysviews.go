package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// systemView is a read-only relation computed from the engine's own
// figures each time it is read.
type systemView struct {
	cols []plan.Column
	rows func(e *Engine) []value.Row
}

func cols(spec ...any) []plan.Column {
	var out []plan.Column
	for i := 0; i < len(spec); i += 2 {
		out = append(out, plan.Column{Name: spec[i].(string), Type: spec[i+1].(value.Type)})
	}
	return out
}

var (
	text = value.TextType
	i8   = value.Int8Type
	i4   = value.Int4Type
	f8   = value.Float8Type
	tstz = value.TimestampTZType

	boolean = value.BoolType
)

var systemViews = map[string]systemView{
	"deltaview_subscriptions": {
		cols: cols("name", text, "state", text, "slot", text, "received_lsn", text, "applied_lsn", text,
			"lag_bytes", i8, "lag_seconds", f8, "rows_copied", i8, "transactions", i8, "last_error", text),
		rows: func(e *Engine) []value.Row { return e.subscriptionRows() },
	},
	"deltaview_sinks": {
		cols: cols("name", text, "server", text, "view", text, "target", text, "state", text,
			"applied_step", i8, "pending_steps", i8, "lag_seconds", f8, "transactions", i8, "reconnects", i8, "last_error", text),
		rows: func(e *Engine) []value.Row { return e.sinkRows() },
	},
	"deltaview_views": {
		cols: cols("name", text, "rows", i8, "state_bytes", i8, "created_at", tstz, "cold_start_ms", f8,
			"cold_start_rows_read", i8, "steps", i8, "last_step_us", f8, "mean_step_us", f8, "refills", i8, "definition", text,
			"max_memory", i8, "over_budget", boolean),
		rows: func(e *Engine) []value.Row {
			var out []value.Row
			for _, mv := range e.order {
				v := mv.meta()
				bytes := mv.state().Bytes
				refills := mv.refills()
				budget := value.Null
				if v.maxMemory > 0 {
					budget = value.NewInt(value.Int8, v.maxMemory)
				}
				mean := 0.0
				if v.timedSteps > 0 {
					mean = float64(v.totalSteps.Nanoseconds()) / 1e3 / float64(v.timedSteps)
				}
				out = append(out, value.Row{
					value.NewText(value.Text, v.name), value.NewInt(value.Int8, mv.rowCount()), value.NewInt(value.Int8, bytes),
					value.NewTimestamp(value.TimestampTZ, v.createdAt.UnixMicro()-pgEpochMicros),
					value.NewFloat(value.Float8, float64(v.coldStart.Microseconds())/1e3), value.NewInt(value.Int8, v.coldRows),
					value.NewInt(value.Int8, v.steps), value.NewFloat(value.Float8, float64(v.lastStep.Nanoseconds())/1e3),
					value.NewFloat(value.Float8, mean), value.NewInt(value.Int8, refills), value.NewText(value.Text, v.def.Definition),
					budget, value.NewBool(v.overBudget),
				})
			}
			return out
		},
	},
	"deltaview_operators": {
		cols: cols("view", text, "operator_id", i4, "kind", text, "state_bytes", i8, "rows", i8,
			"input_changes", i8, "output_changes", i8, "refills", i8),
		rows: func(e *Engine) []value.Row {
			var out []value.Row
			for _, v := range e.order {
				for id, o := range v.operators() {
					out = append(out, value.Row{
						value.NewText(value.Text, v.meta().name), value.NewInt(value.Int4, int64(id)), value.NewText(value.Text, o.kind),
						value.NewInt(value.Int8, o.state.Bytes), value.NewInt(value.Int8, o.state.Rows),
						value.NewInt(value.Int8, o.in), value.NewInt(value.Int8, o.out), value.NewInt(value.Int8, o.refills),
					})
				}
			}
			return out
		},
	},
	"deltaview_tables": {
		cols: cols("name", text, "rows", i8, "bytes", i8),
		rows: func(e *Engine) []value.Row {
			var out []value.Row
			reserves := e.shared.reserveBytes()
			for _, name := range sortedKeys(e.tables) {
				t := e.tables[name]
				if t.temp {
					continue // the session's own
				}
				out = append(out, value.Row{value.NewText(value.Text, name), value.NewInt(value.Int8, int64(t.rows.Len())),
					value.NewInt(value.Int8, t.bytes+t.indexBytes()+reserves[name].Bytes)})
			}
			return out
		},
	},
}

// pgEpochMicros is 2000-01-01 00:00:00 UTC in Unix microseconds.
const pgEpochMicros = 946684800 * 1000000

// Relation kinds, as pg_class.relkind spells them.
const (
	RelTable   = 'r'
	RelView    = 'v'
	RelMatView = 'm'
)

// RelationInfo names a table or view of the catalog.
type RelationInfo struct {
	Name    string
	Kind    byte   // RelTable, RelView or RelMatView
	Comment string // COMMENT ON's, "" when none
	// Schema and Rel are its schema and its name in it (Name is the
	// engine's key, "schema.rel" out of public); Visible says that the
	// session's search path finds it by its name alone (Session.Relations).
	Schema, Rel string
	Visible     bool
	// Owner is the role that owns it (owner.go).
	Owner string
}

// Relations lists the catalog's tables and views, by name, each marked
// visible when the session's search path finds it unqualified.
func (s *Session) Relations() []RelationInfo {
	out := s.e.Relations()
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	path := s.searchPath()
	for i := range out {
		r := &out[i]
		for _, p := range path {
			if k := schemaKey(p, r.Rel); s.e.userRelation(k) {
				r.Visible = k == r.Name
				break
			}
		}
	}
	return out
}

// SchemaInfo is a schema and its owner, for clients that list them
// (psql's \dn).
type SchemaInfo struct {
	Name, Owner string
}

// Schemas lists the schemas, public and those CREATE SCHEMA made, by name.
func (s *Session) Schemas() []SchemaInfo {
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	out := []SchemaInfo{{"public", s.e.schemaOwner("public")}} // pg_database_owner
	for _, n := range sortedKeys(s.e.schemas) {
		out = append(out, SchemaInfo{n, s.e.schemas[n].owner})
	}
	slices.SortFunc(out, func(a, b SchemaInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Relations lists the catalog's tables and views, by name.
func (e *Engine) Relations() []RelationInfo {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []RelationInfo
	for n, t := range e.tables {
		if !t.temp {
			out = append(out, e.relationInfo(n, RelTable))
		}
	}
	for n := range e.views {
		out = append(out, e.relationInfo(n, RelMatView))
	}
	for n := range e.named {
		if !isTemp(n) {
			out = append(out, e.relationInfo(n, RelView))
		}
	}
	slices.SortFunc(out, func(a, b RelationInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// RelationDetail describes a table or view for clients that introspect
// the catalog (psql's \d name).
type RelationDetail struct {
	Kind    byte // RelTable, RelView or RelMatView
	Columns []ColumnDetail
	// Indexes are a table's PRIMARY KEY (first) and UNIQUE constraints,
	// then its EXCLUDE constraints (their columns only); a materialized
	// view's indexes.
	Indexes []IndexDetail
	// Definition is a view's defining query.
	Definition string
	// Options are a table's storage parameters, name=value.
	Options []string
	// Checks counts a table's CHECK constraints; ForeignKeys is set when
	// a FOREIGN KEY references the table or is declared on it (psql asks
	// for those footers only then, as PostgreSQL's relhastriggers).
	Checks      int
	ForeignKeys bool
	// Persistence and ReplIdent are a table's pg_class.relpersistence
	// and relreplident.
	Persistence, ReplIdent byte
}

// ColumnDetail is a column of a relation.
type ColumnDetail struct {
	Name    string
	Type    value.Type
	NotNull bool
	Comment string // COMMENT ON COLUMN's, "" when none
	Domain  string // the column's domain as format_type prints it (d, d[]), "" for a column of a base type
	// Generated is a stored generated column's expression, "" for
	// another column.
	Generated string
	// Storage and Compression are a table's column's attstorage and
	// attcompression, 0 for the type's and none; Stats its attstattarget
	// when SET STATISTICS gave one (HasStats).
	Storage, Compression byte
	Stats                int
	HasStats             bool
}

// IndexDetail is a table's unique index: its name, its columns, and
// whether it is the primary key.
type IndexDetail struct {
	Name    string
	Columns []string
	Primary bool
}

// Describe returns the detail of the relation named; ok is false when
// there is none.
func (s *Session) Describe(name string) (RelationDetail, bool) {
	e := s.e
	e.mu.RLock()
	defer e.mu.RUnlock()
	d, ok := e.describe(name)
	for i := range d.Columns {
		d.Columns[i].Comment = e.comments[name][d.Columns[i].Name]
	}
	return d, ok
}

func (e *Engine) describe(name string) (RelationDetail, bool) {
	if t, ok := e.tables[name]; ok {
		d := RelationDetail{Kind: RelTable, Options: t.def.RelOptions, Checks: len(t.def.Checks), ForeignKeys: t.fkeyed,
			Persistence: 'p', ReplIdent: t.def.ReplIdent()}
		if t.def.Unlogged {
			d.Persistence = 'u'
		}
		for _, c := range t.def.Cols {
			cd := ColumnDetail{Name: c.Name, Type: c.Type, NotNull: c.NotNull, Generated: c.GeneratedSQL,
				Storage: c.Storage(), Compression: c.Attrs.Compression, Stats: c.Attrs.Statistics, HasStats: c.Attrs.StatisticsSet}
			if c.Domain != nil {
				cd.Domain = c.Domain.TypeName()
			}
			d.Columns = append(d.Columns, cd)
		}
		for _, u := range t.uniques {
			ix := IndexDetail{Name: u.name, Primary: u.primary}
			for _, c := range u.cols {
				ix.Columns = append(ix.Columns, t.def.Cols[c].Name)
				if u.primary {
					d.Columns[c].NotNull = true
				}
			}
			d.Indexes = append(d.Indexes, ix)
		}
		for _, x := range t.excl {
			ix := IndexDetail{Name: x.x.Name}
			for _, el := range x.x.Elems {
				if el.Col >= 0 {
					ix.Columns = append(ix.Columns, t.def.Cols[el.Col].Name)
				}
			}
			d.Indexes = append(d.Indexes, ix)
		}
		return d, true
	}
	if v, ok := e.views[name]; ok {
		m := v.meta()
		d := RelationDetail{Kind: RelMatView, Definition: m.def.Definition}
		for _, c := range m.cols {
			d.Columns = append(d.Columns, ColumnDetail{Name: c.Name, Type: c.Type})
		}
		d.Indexes = e.viewIndexDetails(name, m.cols)
		return d, true
	}
	if v, ok := e.named[name]; ok {
		d := RelationDetail{Kind: RelView}
		if v.query != nil {
			d.Definition = v.query.SQL
		}
		for _, c := range v.cols {
			d.Columns = append(d.Columns, ColumnDetail{Name: c.Name, Type: c.Type})
		}
		return d, true
	}
	if p, ok := e.parts[name]; ok {
		return e.describePartition(p), true
	}
	return RelationDetail{}, false
}

// relationInfo is the RelationInfo of the relation keyed key.
func (e *Engine) relationInfo(key string, kind byte) RelationInfo {
	sc, n := e.splitKey(key)
	return RelationInfo{Name: key, Kind: kind, Comment: e.comments[key][""], Schema: sc, Rel: n, Visible: sc == "public", Owner: e.relOwner(key)}
}
