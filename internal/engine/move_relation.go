package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/ident"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER SEQUENCE | VIEW | MATERIALIZED VIEW … SET SCHEMA gives the
// relation the key of the new schema (and RENAME TO a new key in its
// own). Nothing is built again: a view's
// plan reads the relations it read, a materialized view keeps its state,
// its subscribers and its place among the views, and a sequence keeps its
// state. What names the relation by its key moves with it: the catalog's
// maps, the privileges and comments on it, and the statement the store
// keeps for it, which is written again with every name of a schema other
// than public qualified (sql.ResolvedText) and the relation's new name.
// What names it by its key and cannot be rewritten here is refused
// (0A000): a view over the view (its text names it), a trigger on a
// view, a sink; a table's default or a plain view that calls the
// sequence.

// RelationRenamer is a Store that can give a view or a materialized view
// a new name and statement in its place among the relations, with the
// privileges granted on it: the views over it, created after it when
// the store is opened, name it so.
type RelationRenamer interface {
	RenameRelation(old, new, text string) error
}

// moveRelation runs ALTER … SET SCHEMA of a sequence, a view or a
// materialized view.
func (s *Session) moveRelation(m *sql.MoveRelation) (Result, error) {
	e := s.e
	res := Result{Tag: m.Tag, Notices: m.Notices}
	if m.Key == "" || m.Key == m.NewKey {
		return res, nil
	}
	if e.relationExists(m.NewKey) {
		if m.Rename {
			return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(m.NewKey))
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists in schema %q", e.bareName(m.NewKey), m.Schema)
	}
	var err error
	if m.Kind == sql.KindSequence {
		err = s.moveSequence(m.Key, m.NewKey)
	} else {
		err = e.moveView(m.Key, m.NewKey)
	}
	if err != nil {
		return Result{}, err
	}
	e.catalogGen++
	return res, nil
}

// moveSequence gives the sequence old the key new. A sequence a column
// owns does not move alone, as in PostgreSQL (its table moves it).
func (s *Session) moveSequence(old, new string) error {
	e := s.e
	q := e.seqs[old]
	if q.owner[0] != "" && moveOp(e, old, new) != "RENAME TO" {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot move an owned sequence into another schema").
			WithDetail("Sequence %q is linked to table %q.", e.bareName(old), e.bareName(q.owner[0]))
	}
	defaults, err := e.retargetDefaults(old, new)
	if err != nil {
		return err
	}
	views, err := e.seqViews(old, new)
	if err != nil {
		return err
	}
	delete(e.seqs, old)
	q.name = new
	e.seqs[new] = q
	err = e.saveSequence(q)
	if err == nil {
		err = e.forgetStoredSequences([]string{old})
	}
	if err != nil {
		delete(e.seqs, new)
		q.name = old
		e.seqs[old] = q
		return err
	}
	if err := e.applyDefaults(defaults); err != nil {
		return err
	}
	if err := e.applyMoved(views, old, new); err != nil {
		return err
	}
	if err := e.moveComments(old, new); err != nil {
		return err
	}
	if q.unlogged {
		if err := e.saveSeqPersistence(old, nil); err != nil {
			return err
		}
		if err := e.saveSeqPersistence(new, q); err != nil {
			return err
		}
	}
	if err := e.moveOwner(old, new); err != nil {
		return err
	}
	if err := e.moveColumnGrants(old, new); err != nil {
		return err
	}
	// The session's currval follows the sequence; other sessions' ask
	// for it by its new name and find none yet.
	if v, ok := s.seq.cur[old]; ok {
		delete(s.seq.cur, old)
		s.seq.cur[new] = v
	}
	if s.seq.lastName == old {
		s.seq.lastName = new
	}
	return nil
}

// moveOp is what a move of old to new is in a statement's words: RENAME
// TO within a schema (bind_rename_relation.go), else SET SCHEMA.
func moveOp(e *Engine, old, new string) string {
	from, _ := e.splitKey(old)
	if to, _ := e.splitKey(new); to == from {
		return "RENAME TO"
	}
	return "SET SCHEMA"
}

// seqViews are the plain views that name the sequence old in a constant
// (nextval('s'), 's'::regclass), as their statements with its new key:
// PostgreSQL's view holds the sequence by oid and calls it under its new
// name. A view that names a sequence of old's name that cannot be told
// apart from it (another schema's on the search path it was made under)
// is refused (0A000). Nothing changes yet.
func (e *Engine) seqViews(old, new string) (*alterReaders, error) {
	schema, bare := e.splitKey(old)
	names := func(lit string) bool {
		parts, ok := ident.Split(lit, '.')
		switch {
		case !ok:
			return false
		case len(parts) == 1:
			return schema == "public" && parts[0] == bare
		case len(parts) == 2:
			return schemaKey(parts[0], parts[1]) == old
		}
		return false
	}
	to := e.keyText(new)
	unsure := func(lit string) bool {
		parts, ok := ident.Split(lit, '.')
		return ok && lit != to && parts[len(parts)-1] == bare
	}
	r := &alterReaders{moved: map[string]*movedReader{}}
	for _, k := range sortedKeys(e.named) {
		nv := e.named[k]
		if nv.query == nil || !strings.Contains(strings.ToLower(nv.query.SQL), strings.ToLower(bare)) {
			continue
		}
		var changed bool
		m, ok := e.rewrittenReader(k, func(st *sql.Stmt) (*sql.Stmt, error) {
			var out *sql.Stmt
			out, changed = sql.RenameSequenceArgs(st, names, to)
			return out, nil
		})
		if _, left := sql.RenameSequenceArgs(m.stmtOr(nv.query), unsure, ""); !ok || left {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER SEQUENCE %s %s is not supported: view %s may call it", old, moveOp(e, old, new), k).
				WithHint("the view names the sequence where it is: drop the view, move the sequence, then create the view again")
		}
		if changed {
			r.moved[k] = m
		}
	}
	return r, nil
}

// moveView gives the view or materialized view old the key new.
func (e *Engine) moveView(old, new string) error {
	// The views that read it are kept as their statements with its new
	// name; their plans, which inline or read it, do not change.
	readers := &alterReaders{moved: map[string]*movedReader{}}
	for _, r := range e.dependentsIndex()[old] {
		if e.named[old] == nil && e.named[r] == nil {
			// Its plan reads the view's rows by the view's key.
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER MATERIALIZED VIEW %s %s is not supported: materialized view %s reads it", old, moveOp(e, old, new), r).
				WithHint("drop the reader, move the view, then create the reader again")
		}
		m, ok := e.movedText(r, old, new)
		if !ok {
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER … %s of %s %s is not supported: the statement of %s %s, which reads it, cannot be written again", moveOp(e, old, new), e.kindName(old), old, e.kindName(r), r).
				WithHint("drop the reader, move the view, then create the reader again")
		}
		readers.moved[r] = m
	}
	indexes, err := e.viewIndexMoves(old, new)
	if err != nil {
		return err
	}
	if len(e.triggers[old]) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER VIEW %s %s of a view with triggers is not supported", old, moveOp(e, old, new)).
			WithHint("drop its triggers, move the view, then create them again")
	}
	for _, sa := range e.sinks {
		if sa.view == old {
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER MATERIALIZED VIEW %s %s of a view kept in a sink is not supported", old, moveOp(e, old, new)).
				WithHint("detach the sink first")
		}
	}
	nv := e.named[old]
	if nv != nil && len(nv.alters) > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER VIEW %s %s of a view whose columns have defaults is not supported", old, moveOp(e, old, new)).
			WithHint("drop the columns' defaults, move the view, then set them again")
	}
	var text string
	var path []string
	if nv != nil {
		text = nv.text
	} else {
		vs := e.viewStmts[old]
		text, path = vs.text, vs.path
	}
	var moved string
	if text != "" {
		var err error
		if moved, err = e.movedCreate(text, path, new); err != nil {
			return err
		}
	} else if e.store != nil {
		return pgerr.New(pgerr.Internal, "no statement text kept for view %q", old)
	}
	kind := KindView
	if nv == nil {
		kind = KindMatView
	}
	if rr, ok := e.store.(RelationRenamer); ok && e.store != nil {
		if err := rr.RenameRelation(old, new, moved); err != nil {
			return err
		}
	} else if e.store != nil {
		// The old relation goes from the store with the privileges on it,
		// which are recorded again under its new name; it is created
		// again after the relations there are, which the views over it
		// are not.
		if len(readers.moved) > 0 {
			return pgerr.New(pgerr.FeatureNotSupported, "this database's store cannot move view %s, which views read", old)
		}
		if err := e.store.Drop([]string{old}); err != nil {
			return err
		}
		if err := e.store.Create(&StoredRelation{Name: new, Kind: kind, SQL: moved}); err != nil {
			return err
		}
		var grants []StoredGrant
		for _, role := range e.granteesInOrder(old) {
			grants = append(grants, StoredGrant{Relation: new, Role: role, Privs: e.grants[old][role]})
		}
		if e.ownItemExplicit(old) {
			grants = append(grants, StoredGrant{Relation: new, Role: ownItemMark, Privs: e.grants[old][ownItemMark]})
		}
		if len(grants) > 0 {
			if err := e.store.SaveGrants(grants); err != nil {
				return err
			}
		}
	}
	if err := e.moveOwner(old, new); err != nil {
		return err
	}
	if err := e.moveColumnGrants(old, new); err != nil {
		return err
	}
	if err := e.moveRowTypeACL(old, new); err != nil {
		return err
	}
	if c := e.comments[old]; c != nil {
		m := maps.Clone(c)
		if err := e.setComments(old, nil); err != nil {
			return err
		}
		if err := e.setComments(new, m); err != nil {
			return err
		}
	}
	e.rekeyView(old, new, moved)
	if err := e.applyIndexMoves(indexes, new); err != nil {
		return err
	}
	if nv == nil {
		_, populated := e.views[new]
		if err := e.restate(new, populated); err != nil {
			return err
		}
	}
	if err := e.applyMoved(readers, old, new); err != nil {
		return err
	}
	for r, m := range readers.moved {
		e.setDefinition(r, m.stmt)
	}
	return nil
}

// setDefinition gives the materialized view name the defining query of
// st, its CREATE statement now, as the catalogs show it.
func (e *Engine) setDefinition(name string, st *sql.Stmt) {
	if v, ok := e.views[name]; ok && v.meta().def != nil {
		def := *v.meta().def
		def.Definition = sql.ViewDefinition(st)
		v.meta().def = &def
	}
	if cv, ok := e.unpopulated[name]; ok {
		c := *cv
		c.Definition = sql.ViewDefinition(st)
		e.unpopulated[name] = &c
	}
}

// rekeyView moves every entry of the catalog's maps keyed by the view old
// to new; text is its statement now.
func (e *Engine) rekeyView(old, new, text string) {
	rekey := func(m any) {
		switch m := m.(type) {
		case map[string][]string:
			if v, ok := m[old]; ok {
				delete(m, old)
				m[new] = v
			}
		case map[string]map[string]sql.Privilege:
			if v, ok := m[old]; ok {
				delete(m, old)
				m[new] = v
			}
		case map[string]string:
			if v, ok := m[old]; ok {
				delete(m, old)
				m[new] = v
			}
		}
	}
	rekey(e.deps)
	rekey(e.funcDeps)
	rekey(e.domains.views)
	rekey(e.grants)
	rekey(e.grantOrder)
	rekey(e.notes)
	if nv := e.named[old]; nv != nil {
		delete(e.named, old)
		nv.name = new
		if text != "" {
			nv.text = text
		}
		e.named[new] = nv
	}
	if v, ok := e.views[old]; ok {
		delete(e.views, old)
		m := v.meta()
		m.name = new
		if m.def != nil {
			def := *m.def
			def.Name = new
			if st, err := sql.Parse(text); err == nil && st != nil && text != "" {
				def.Definition = sql.ViewDefinition(st)
			}
			m.def = &def
		}
		e.views[new] = v
	}
	if cv, ok := e.unpopulated[old]; ok {
		delete(e.unpopulated, old)
		c := *cv
		c.Name = new
		if st, err := sql.Parse(text); err == nil && st != nil && text != "" {
			c.Definition = sql.ViewDefinition(st)
		}
		e.unpopulated[new] = &c
	}
	if vs, ok := e.viewStmts[old]; ok {
		delete(e.viewStmts, old)
		if text != "" {
			vs.text, vs.path = text, nil
		}
		e.viewStmts[new] = vs
	}
	for _, si := range e.shared.m {
		for i, v := range si.views {
			if v == old {
				si.views[i] = new
			}
		}
	}
	for _, sub := range e.subs {
		if sub.view == old {
			sub.view = new
		}
	}
	e.read, e.waves = nil, nil
}

// movedCreate is the statement text, run under the search path path
// (nil: the default, or one that text sets first), that created a view,
// written again to create it as new: every name of a schema other than
// public qualified, so that it needs no search path.
func (e *Engine) movedCreate(text string, path []string, new string) (string, error) {
	const set = "SET search_path = "
	if strings.HasPrefix(text, set) {
		i := strings.Index(text, ";\n")
		if i < 0 {
			return "", pgerr.New(pgerr.Internal, "cannot read the statement kept for view %q", new)
		}
		path, text = e.pathOf(text[len(set):i], ""), text[i+2:]
	}
	if path == nil {
		path = defaultPath
	}
	fail := func(err error) (string, error) {
		return "", pgerr.New(pgerr.FeatureNotSupported, "cannot write the statement of view %q again: %v", new, err).
			WithHint("drop the view and create it in its new schema")
	}
	st, err := sql.Parse(text)
	if err != nil || st == nil {
		return fail(fmt.Errorf("it does not parse"))
	}
	scope := nameScope{e: e, path: path, restoring: true}
	if st, err = sql.QualifyNames(st, scope); err != nil {
		return fail(err)
	}
	if !sql.RenameCreated(st, new) {
		return fail(fmt.Errorf("it creates no view"))
	}
	out, err := sql.ResolvedText(st, scope)
	if err != nil {
		return fail(err)
	}
	return out, nil
}

// retargetedDefaults are the definitions of the tables whose defaults
// call a moved sequence, with defaults that call it by its new key.
type retargetedDefaults map[string]*sql.CreateTable

// retargetDefaults gives, for every table with a column whose default
// calls the sequence old, its definition with that default calling new,
// as PostgreSQL's defaults follow their sequence; a default that calls
// it inside a larger expression is refused (0A000).
func (e *Engine) retargetDefaults(old, new string) (retargetedDefaults, error) {
	out := retargetedDefaults{}
	for _, tn := range sortedKeys(e.tables) {
		t := e.tables[tn]
		var def *sql.CreateTable
		for i, c := range t.def.Cols {
			if c.Default == nil || !callsSequence(c.Default, old) {
				continue
			}
			if !isSeqDefault(c.Default) {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER SEQUENCE %s %s is not supported: the default of column %s of table %s calls it inside an expression", old, moveOp(e, old, new), c.Name, tn).
					WithHint("set that default to nextval('%s') alone, or drop it, before the move", old)
			}
			if def == nil {
				d := *t.def
				d.Cols = slices.Clone(t.def.Cols)
				def = &d
			}
			def.Cols[i].Default = retargetSeq(c.Default, new)
			if c.DefaultSQL != "" {
				def.Cols[i].DefaultSQL = "nextval('" + strings.ReplaceAll(e.keyText(new), "'", "''") + "'::regclass)"
			}
		}
		if def != nil {
			out[tn] = def
		}
	}
	return out, nil
}

// isSeqDefault reports whether d is nextval of a constant name, cast or
// not: a default retargetSeq rewrites.
func isSeqDefault(d expr.Expr) bool {
	if c, ok := d.(*expr.Cast); ok {
		d = c.E
	}
	s, ok := d.(*expr.SeqCall)
	if !ok || s.Fn != "nextval" || len(s.Args) != 1 {
		return false
	}
	_, ok = s.Args[0].(*expr.Const)
	return ok
}

// applyDefaults takes the tables' retargeted definitions over, in the
// store (as the table's CREATE statement, as ALTER TABLE records it) and
// in memory.
func (e *Engine) applyDefaults(d retargetedDefaults) error {
	for _, tn := range sortedKeys(d) {
		if ss, ok := e.store.(StatementStore); ok && e.store != nil && !e.tables[tn].temp {
			if err := ss.SetStatement(tn, d[tn].SQL()); err != nil {
				return err
			}
		}
		e.tables[tn].def = d[tn]
	}
	return nil
}
