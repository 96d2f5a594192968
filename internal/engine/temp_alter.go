package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ALTER TABLE of a session's temporary table runs as any table's
// (alter.go), with the engine's store set aside for the statement:
// everything it changes — the table's rows and definition, its indexes
// made again, the sequences of the serial columns it adds, its
// inheritance links — is the session's and never reaches the database
// file. RENAME TO keeps the table in the session's temporary schema
// (sql.RenameRelations gives the new name the session's prefix), SET
// SCHEMA is 0A000 and SET [UN]LOGGED 42P16 (both refused by the binder),
// as in PostgreSQL.

// alterTemp prepares ALTER TABLE a of the session's temporary table:
// the statement to run instead, the table keyed as the engine keys it,
// and done, to call with its outcome once it ran, which puts the store
// back and records a new name and the sequences added in the session.
func (s *Session) alterTemp(a *sql.AlterTable) (*sql.AlterTable, func(*Result, *error), error) {
	e := s.e
	t := e.tables[a.Table]
	bare := tempLabel(a.Table)
	key, newBare := a.Table, bare
	if a.New != nil && isTemp(a.New.Name) && a.New.Name != a.Table { // RENAME TO
		key, newBare = a.New.Name, tempLabel(a.New.Name)
		s.forgetTemps()
		if _, ok := s.temps[newBare]; ok {
			return nil, nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", newBare)
		}
	}
	alt := *a
	if a.New != nil {
		nd := *a.New
		nd.Name = key // a temporary table's definition names it by its bare name; the engine keys it so
		alt.New = &nd
		s.tempAddedSequences(&alt, t, key)
	}
	store := e.store
	e.store = nil
	done := func(res *Result, err *error) {
		e.store = store
		for i, n := range res.Notices { // named as the session names them
			res.Notices[i] = strings.ReplaceAll(n, s.tempNS, "")
		}
		if nt := e.tables[key]; nt != nil && nt.temp {
			nt.def.Name, nt.def.Temp = newBare, true // as createTemp left them
		}
		if *err != nil {
			return
		}
		if key != a.Table {
			tt := s.temps[bare]
			delete(s.temps, bare)
			s.temps[newBare] = &tempTable{name: key, onCommit: tt.onCommit}
		}
		for _, q := range e.seqs {
			if q.owner[0] == key && strings.HasPrefix(q.name, s.tempNS) {
				if _, ok := s.temps[tempLabel(q.name)]; !ok {
					s.addTemp(tempLabel(q.name), &tempTable{name: q.name})
				}
			}
		}
	}
	return &alt, done, nil
}

// tempAddedSequences gives the sequences of the serial and identity
// columns ALTER TABLE a adds to the temporary table t (keyed key) keys of
// the session's temporary schema, and the defaults and fills that call
// them those keys.
func (s *Session) tempAddedSequences(a *sql.AlterTable, t *table, key string) {
	keys := map[string]string{} // the text nextval reads, bound → temporary
	var seqs []*sql.CreateSequence
	for _, cs := range a.New.Sequences {
		c := *cs // the bound statement's may be bound again
		c.Owner[0] = key
		if q, ok := s.e.seqs[cs.Name]; !ok || !isTemp(cs.Name) || q.owner[0] != t.name && q.owner[0] != key {
			c.Name = s.tempNS + tempLabel(cs.Name) // one the ALTER adds
			keys[sql.SeqText(cs.Name)] = sql.SeqText(c.Name)
		}
		seqs = append(seqs, &c)
	}
	a.New.Sequences = seqs
	if len(keys) == 0 {
		return
	}
	rename := func(d expr.Expr) expr.Expr {
		if d == nil {
			return nil
		}
		return expr.Rewrite(d, func(n expr.Expr) expr.Expr {
			c, ok := n.(*expr.SeqCall)
			if !ok || len(c.Args) == 0 {
				return n
			}
			if k, ok := c.Args[0].(*expr.Const); ok && keys[k.V.String()] != "" {
				args := append([]expr.Expr(nil), c.Args...)
				args[0] = &expr.Const{V: value.NewText(value.Text, keys[k.V.String()]), T: value.TextType}
				return &expr.SeqCall{Fn: c.Fn, Args: args, C: c.C}
			}
			return n
		})
	}
	a.New.Cols = append([]sql.ColumnDef(nil), a.New.Cols...)
	for i := range a.New.Cols {
		a.New.Cols[i].Default = rename(a.New.Cols[i].Default)
	}
	fill := make([]expr.Expr, len(a.Fill))
	for i, f := range a.Fill {
		fill[i] = rename(f)
	}
	a.Fill = fill
}
