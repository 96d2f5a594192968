// A materialized view's storage parameters: CREATE MATERIALIZED VIEW …
// WITH (fillfactor = 70), ALTER MATERIALIZED VIEW … SET (…) / RESET (…).
package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// A materialized view takes PostgreSQL's heap parameters, checked as a
// table's (bind_reloptions.go) and kept as written (pg_class.reloptions);
// as a table's, none changes what the engine does.

// AlterMatViewOptions is ALTER MATERIALIZED VIEW name SET (…) / RESET
// (…), its subcommands in order, or ALTER TABLE's naming a materialized
// view, which PostgreSQL runs alike under its own tag.
type AlterMatViewOptions struct {
	Name      string
	MissingOk bool
	Cmds      []MatViewOptionsCmd
	Tag       string // ALTER MATERIALIZED VIEW or ALTER TABLE
}

// MatViewOptionsCmd is one SET (…) or RESET (…): Names are the
// parameters it names, Options (SET only) their name=value text.
type MatViewOptionsCmd struct {
	Reset   bool
	Names   []string
	Options []string
}

func (*AlterMatViewOptions) bound() {}

// Apply is opts after the subcommands: a parameter set again leaves its
// place for the end, as in PostgreSQL; RESET of one not set does nothing.
func (a *AlterMatViewOptions) Apply(opts []string) []string {
	out := append([]string(nil), opts...)
	for _, c := range a.Cmds {
		kept := out[:0:0]
		for _, o := range out {
			name, _, _ := strings.Cut(o, "=")
			gone := false
			for _, n := range c.Names {
				gone = gone || n == name
			}
			if !gone {
				kept = append(kept, o)
			}
		}
		out = append(kept, c.Options...)
	}
	return out
}

// bindAlterMatViewOptions binds an ALTER MATERIALIZED VIEW whose
// subcommands are all SET (…) or RESET (…), or an ALTER TABLE of such
// subcommands naming a materialized view; ok is false for any other.
func (b *binder) bindAlterMatViewOptions(as *pg_query.AlterTableStmt) (_ Bound, ok bool, _ error) {
	if len(as.Cmds) == 0 || as.Relation == nil {
		return nil, false, nil
	}
	tag := "ALTER MATERIALIZED VIEW"
	switch as.Objtype {
	case pg_query.ObjectType_OBJECT_MATVIEW:
	case pg_query.ObjectType_OBJECT_TABLE:
		if rel, ok := b.cat.Relation(as.Relation.Relname); !ok || rel.Kind != KindMatView {
			return nil, false, nil
		}
		tag = "ALTER TABLE"
	default:
		return nil, false, nil
	}
	out := &AlterMatViewOptions{Name: as.Relation.Relname, MissingOk: as.MissingOk, Tag: tag}
	for _, n := range as.Cmds {
		c := n.GetAlterTableCmd()
		if c == nil || c.Subtype != pg_query.AlterTableType_AT_SetRelOptions && c.Subtype != pg_query.AlterTableType_AT_ResetRelOptions {
			return nil, false, nil
		}
	}
	for _, n := range as.Cmds {
		c := n.GetAlterTableCmd()
		cmd := MatViewOptionsCmd{Reset: c.Subtype == pg_query.AlterTableType_AT_ResetRelOptions}
		for _, item := range c.Def.GetList().GetItems() {
			d := item.GetDefElem()
			if d == nil {
				continue
			}
			if cmd.Reset {
				if d.Arg != nil {
					return nil, true, pgerr.New(pgerr.SyntaxError, "RESET must not include values for parameters") // no position, as in PostgreSQL
				}
				if d.Defnamespace == "" {
					cmd.Names = append(cmd.Names, d.Defname)
				}
				continue
			}
			text, err := b.relOptionText(d)
			if err != nil {
				return nil, true, err
			}
			cmd.Names = append(cmd.Names, d.Defname)
			cmd.Options = append(cmd.Options, text)
		}
		out.Cmds = append(out.Cmds, cmd)
	}
	return out, true, nil
}

// matViewRelOption adds a storage parameter of CREATE MATERIALIZED VIEW
// … WITH (…) to v.RelOptions; one given twice is 22023, as in
// PostgreSQL.
func (b *binder) matViewRelOption(d *pg_query.DefElem, v *CreateView) error {
	text, err := b.relOptionText(d)
	if err != nil {
		return err
	}
	for _, o := range v.RelOptions {
		if strings.HasPrefix(o, d.Defname+"=") {
			return pgerr.New(pgerr.InvalidParameter, "parameter %q specified more than once", d.Defname)
		}
	}
	v.RelOptions = append(v.RelOptions, text)
	return nil
}
