package pgrepl

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// columnChange is a change of a table's columns upstream (ALTER TABLE …
// ADD COLUMN, DROP COLUMN), as a new Relation message announces it: the
// new columns, and which are new.
type columnChange struct {
	known   *Table
	cols    []Column
	added   []string
	dropped []string
	key     []int
}

// diffColumns compares a Relation message with the table's known
// columns; nil when they are the same. A column whose type changed, a
// column of a type deltaview does not have, or a dropped key column is
// an error naming the table and the column.
func diffColumns(known *Table, m *pglogrepl.RelationMessage) (*columnChange, error) {
	same := len(m.Columns) == len(known.Cols)
	cols := make([]Column, len(m.Columns))
	for i, c := range m.Columns {
		typ, err := known.columnType(c.DataType, c.TypeModifier)
		if err != nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "column %s of table %s, changed upstream, has a type deltaview does not have (oid %d)", c.Name, known.Qualified(), c.DataType).
				WithHint("the subscription stopped before the change; drop and create it again without the column")
		}
		cols[i] = Column{Name: c.Name, Type: typ}
		same = same && c.Name == known.Cols[i].Name && typ == known.Cols[i].Type
	}
	if same {
		return nil, nil
	}
	ch := &columnChange{known: known, cols: cols}
	old := map[string]Column{}
	for _, c := range known.Cols {
		old[c.Name] = c
	}
	now := map[string]bool{}
	for i, c := range cols {
		now[c.Name] = true
		o, ok := old[c.Name]
		switch {
		case !ok:
			ch.added = append(ch.added, c.Name)
		case o.Type != c.Type:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "column %s of table %s changed type upstream, from %s to %s", c.Name, known.Qualified(), o.Type, c.Type).
				WithHint("the subscription stopped before the change; drop and create it again")
		default:
			cols[i].NotNull = o.NotNull
		}
	}
	for _, c := range known.Cols {
		if !now[c.Name] {
			ch.dropped = append(ch.dropped, c.Name)
		}
	}
	// The columns that stay keep their order (pgoutput lists them by
	// attnum), so a column is added at the end or somewhere it was not.
	for _, k := range known.Key {
		name := known.Cols[k].Name
		i := columnIndex(cols, name)
		if i < 0 {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "key column %s of table %s was dropped upstream", name, known.Qualified()).
				WithHint("the subscription stopped before the change; drop and create it again")
		}
		ch.key = append(ch.key, i)
	}
	return ch, nil
}

// columnIndex returns the position of the column called name, or -1.
func columnIndex(cols []Column, name string) int {
	return slices.IndexFunc(cols, func(c Column) bool { return c.Name == name })
}

// what describes the change for messages: "column w added", "columns a,
// b dropped".
func (ch *columnChange) what() string {
	var parts []string
	for _, x := range []struct {
		names []string
		verb  string
	}{{ch.added, "added"}, {ch.dropped, "dropped"}} {
		switch len(x.names) {
		case 0:
		case 1:
			parts = append(parts, "column "+x.names[0]+" "+x.verb)
		default:
			parts = append(parts, "columns "+strings.Join(x.names, ", ")+" "+x.verb)
		}
	}
	return strings.Join(parts, ", ")
}

// alterTable makes the local table follow a change of its columns
// upstream, before anything of the transaction that announced it is
// applied: the table is created again with the new columns and holds the
// same rows, a dropped column gone, an added one holding what upstream
// gives the existing rows (NULL, or the default that ADD COLUMN stored).
// A table that a view here reads is left alone: the change is an error
// naming the table, the column and the view, and the subscription stops
// with nothing of the transaction applied and the slot where it was.
func (s *sub) alterTable(ctx context.Context, d *decoder, ch *columnChange) error {
	t := ch.known
	for _, c := range d.tx {
		if c.Table == t.Local {
			return pgerr.New(pgerr.FeatureNotSupported, "an upstream transaction changed rows of table %s, then its columns (%s)", t.Qualified(), ch.what()).
				WithHint("the subscription stopped before the transaction; drop and create it again")
		}
	}
	fill, err := s.missingValues(ctx, t, ch)
	if err != nil {
		return err
	}
	var rows []value.Row
	if !s.changeStream || t.Key == nil {
		var err error
		if rows, err = queryRows(s.sess, "SELECT * FROM "+pgx.Identifier{t.Local}.Sanitize()); err != nil {
			return err
		}
	}
	if err := exec(s.sess, "DROP TABLE "+pgx.Identifier{t.Local}.Sanitize()); err != nil {
		pe := pgerr.Wrap(err)
		if pe.Code == pgerr.DependentObjects {
			names := ch.added
			if len(ch.dropped) > 0 {
				names = ch.dropped
			}
			return &pgerr.Error{Code: pgerr.ObjectNotInPrereqState,
				Message: "the columns of table " + t.Qualified() + " changed upstream (" + ch.what() + "), and views here read table " + t.Local,
				Detail:  pe.Detail,
				Hint:    "the subscription stopped before the change; drop the views over " + t.Local + " here (column " + names[0] + " may be one they use), or drop and create the subscription"}
		}
		return err
	}
	next := *t
	next.Cols, next.Key = ch.cols, ch.key
	if err := exec(s.sess, createTableSQL(&next, s.changeStream)); err != nil {
		return err
	}
	// Each row takes the values of the columns that stay, by name.
	from := make([]int, len(ch.cols))
	for i, c := range ch.cols {
		from[i] = columnIndex(t.Cols, c.Name)
	}
	changes := make([]engine.SourceChange, len(rows))
	for r, old := range rows {
		row := make(value.Row, len(ch.cols))
		for i, j := range from {
			if j >= 0 {
				row[i] = old[j]
			} else {
				row[i] = fill[i]
			}
		}
		changes[r] = engine.SourceChange{Table: t.Local, Change: delta.Insert{Row: row}}
	}
	if len(changes) > 0 {
		if err := s.sess.ApplySource(changes, nil); err != nil {
			return err
		}
	}
	t.Cols, t.Key = ch.cols, ch.key
	return nil
}

// missingValues returns, by new column position, what upstream gives
// the existing rows in each added column: the value ADD COLUMN … DEFAULT
// stored (pg_attribute.attmissingval), else NULL. A column added with a
// volatile default (whose values upstream wrote by rewriting the table,
// which the stream does not carry) is an error when there are rows.
func (s *sub) missingValues(ctx context.Context, t *Table, ch *columnChange) ([]value.Value, error) {
	fill := make([]value.Value, len(ch.cols))
	for i := range fill {
		fill[i] = value.Null
	}
	if len(ch.added) == 0 {
		return fill, nil
	}
	cfg, err := replicationConfig(s.conn, false)
	if err != nil {
		return nil, err
	}
	pcfg, err := pgx.ParseConfig("")
	if err != nil {
		return nil, err
	}
	pcfg.Config = *cfg
	conn, err := pgx.ConnectConfig(ctx, pcfg)
	if err != nil {
		return nil, upstreamErr(err)
	}
	defer conn.Close(context.Background())
	for _, name := range ch.added {
		var missing *string
		var hasDefault bool
		err := conn.QueryRow(ctx, `SELECT CASE WHEN a.atthasmissing THEN (a.attmissingval::text::text[])[1] END, d.adbin IS NOT NULL
			FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
			WHERE a.attrelid = $1::regclass AND a.attname = $2 AND NOT a.attisdropped`, t.Qualified(), name).Scan(&missing, &hasDefault)
		if err == pgx.ErrNoRows {
			return nil, pgerr.New(pgerr.ObjectNotInPrereqState, "column %s of table %s, added upstream, is no longer there", name, t.Qualified()).
				WithHint("the subscription stopped before the change; drop and create it again")
		}
		if err != nil {
			return nil, upstreamErr(err)
		}
		i := columnIndex(ch.cols, name)
		switch {
		case missing != nil:
			v, err := value.Parse(*missing, ch.cols[i].Type)
			if err != nil {
				return nil, err
			}
			fill[i] = v
		case hasDefault:
			rows, err := queryRows(s.sess, "SELECT 1 FROM "+pgx.Identifier{t.Local}.Sanitize()+" LIMIT 1")
			if err != nil || len(rows) > 0 {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "column %s of table %s was added upstream with a volatile default: the values of the existing rows are not in the stream", name, t.Qualified()).
					WithHint("the subscription stopped before the change; drop and create it again, which copies the table")
			}
		}
	}
	return fill, nil
}

// use records relation id's last Relation message, if not yet, when a
// transaction not applied yet changes its rows.
func (s *sub) use(ctx context.Context, d *decoder, id uint32) error {
	m, ok := d.announced[id]
	if !ok || d.skip {
		return nil
	}
	delete(d.announced, id)
	return s.relation(ctx, d, m)
}

// relation handles a Relation message: a change of the table's columns
// is applied here first (alterTable), then the relation is recorded.
func (s *sub) relation(ctx context.Context, d *decoder, m *pglogrepl.RelationMessage) error {
	if known, ok := d.tables[(&Table{Schema: m.Namespace, Name: m.RelationName}).Qualified()]; ok {
		ch, err := diffColumns(known, m)
		if err != nil {
			return err
		}
		if ch != nil {
			if err := s.alterTable(ctx, d, ch); err != nil {
				return err
			}
		}
	}
	return d.relation(m)
}

// queryRows runs a query on sess and returns its rows.
func queryRows(sess *engine.Session, text string) ([]value.Row, error) {
	st, err := sql.Parse(text)
	if err != nil {
		return nil, err
	}
	res, err := sess.Exec(st)
	if err != nil {
		return nil, err
	}
	return res[len(res)-1].Rows, nil
}
