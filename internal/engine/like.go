package engine

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// CREATE TABLE (LIKE s INCLUDING INDEXES | COMMENTS | STATISTICS): the
// binder copies the columns, defaults, constraints and keys
// (sql/bind_like.go); the engine, once the table is made, copies what it
// alone holds: the indexes CREATE INDEX made on s, in the order they were
// made and named as PostgreSQL names them (CREATE INDEX without a name);
// the comments of s's columns, and those of the CHECK constraints and
// indexes copied; s's statistics objects, named t_col_col_stat. The
// table is recorded by its definition's text (CreateTable.SQL), not by
// the LIKE that read s as it was, and each copy by its own statement.

// copyLiked copies what ct's LIKE clauses include from their tables.
func (e *Engine) copyLiked(ct *sql.CreateTable) error {
	for _, l := range ct.Likes {
		src := e.tables[l.Table]
		if src == nil {
			continue // a view's or a composite type's: nothing more
		}
		indexNames := map[string]string{} // a source index → its copy
		if l.Indexes {
			if err := e.likeIndexes(src, ct, indexNames); err != nil {
				return err
			}
			likeKeyNames(src, ct, indexNames)
		}
		if l.Comments {
			if err := e.likeComments(src, ct, l, indexNames); err != nil {
				return err
			}
		}
		if l.Statistics {
			if err := e.likeStatistics(src, ct); err != nil {
				return err
			}
		}
	}
	return nil
}

// likeIndexes makes src's CREATE INDEX indexes again on ct's table.
func (e *Engine) likeIndexes(src *table, ct *sql.CreateTable, names map[string]string) error {
	ixs := slices.Concat(src.indexes, src.xindexes)
	slices.SortFunc(ixs, func(a, b *namedIndex) int { return cmp.Compare(a.seq, b.seq) })
	for _, ix := range ixs {
		text, err := sql.LikeIndexText(ix.text, ct.Name)
		if err != nil {
			return err
		}
		st, err := sql.Parse(text)
		if err != nil {
			return err
		}
		b, err := sql.Bind(e, st)
		if err != nil {
			return err
		}
		ci, ok := b.(*sql.CreateIndex)
		if !ok {
			return pgerr.New(pgerr.Internal, "%s binds to %T", text, b)
		}
		before := slices.Clone(e.tables[ct.Name].indexes)
		before = append(before, e.tables[ct.Name].xindexes...)
		if _, err := e.createIndex(ci, text); err != nil {
			return err
		}
		for _, made := range slices.Concat(e.tables[ct.Name].indexes, e.tables[ct.Name].xindexes) {
			if !slices.Contains(before, made) {
				names[ix.name] = made.name
			}
		}
	}
	return nil
}

// likeKeyNames adds to names the indexes of src's keys that ct's keys
// copy (the same columns, by name).
func likeKeyNames(src *table, ct *sql.CreateTable, names map[string]string) {
	colNames := func(def *sql.CreateTable, cols []int) string {
		out := ""
		for _, c := range cols {
			out += def.Cols[c].Name + "\x00"
		}
		return out
	}
	for _, u := range src.uniques {
		key := colNames(src.def, u.cols)
		if u.primary && ct.PrimaryKey != nil && colNames(ct, ct.PrimaryKey) == key {
			names[u.name] = ct.KeyName(-1)
			continue
		}
		for i, cu := range ct.Uniques {
			if !u.primary && colNames(ct, cu) == key {
				names[u.name] = ct.KeyName(i)
			}
		}
	}
}

// likeComments copies the comments of src's columns that ct has, and
// those of the CHECK constraints and indexes copied.
func (e *Engine) likeComments(src *table, ct *sql.CreateTable, l sql.Like, indexNames map[string]string) error {
	cols := map[string]string{}
	for col, text := range e.comments[src.name] {
		if col != "" && slices.ContainsFunc(ct.Cols, func(c sql.ColumnDef) bool { return c.Name == col }) {
			cols[col] = text
		}
	}
	if len(cols) > 0 {
		if err := e.setComments(ct.Name, cols); err != nil {
			return err
		}
	}
	if l.Constraints {
		cons := map[string]string{}
		for name, text := range e.comments[commentKey("constraint", src.name)] {
			if slices.ContainsFunc(ct.Checks, func(c sql.Check) bool { return c.Name == name }) {
				cons[name] = text
			}
		}
		if len(cons) > 0 {
			if err := e.setComments(commentKey("constraint", ct.Name), cons); err != nil {
				return err
			}
		}
	}
	for _, from := range slices.Sorted(maps.Keys(indexNames)) {
		if text, ok := e.comments[from][""]; ok {
			if err := e.setComments(indexNames[from], map[string]string{"": text}); err != nil {
				return err
			}
		}
	}
	return nil
}

// likeStatistics copies src's statistics objects to ct's table, each
// named as PostgreSQL's ChooseExtendedStatisticName names it; the table's
// creator takes them with the table (giveCreated).
func (e *Engine) likeStatistics(src *table, ct *sql.CreateTable) error {
	schema, bare := e.splitKey(ct.Name)
	prefix := ""
	if schema != "public" {
		prefix = schema + "."
	}
	for _, name := range sortedKeys(e.stats) {
		st := e.stats[name]
		if st.table != src.name {
			continue
		}
		base := prefix + bare
		for _, c := range st.cols {
			base += "_" + c
		}
		for range st.exprs {
			base += "_expr" // PostgreSQL's name for an expression
		}
		next := base + "_stat"
		for i := 1; e.stats[next] != nil; i++ {
			next = fmt.Sprintf("%s_stat%d", base, i)
		}
		if _, err := e.createStatistics(nil, &sql.CreateStatistics{Schema: schema, Name: next[len(prefix):], Table: ct.Name, Kinds: st.kinds, Cols: st.cols, Exprs: st.exprs}, ""); err != nil {
			return err
		}
	}
	return nil
}
