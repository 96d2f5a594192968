package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ALTER TYPE … RENAME TO of an enum or a range type that a table's index
// names in its expressions or predicate: PostgreSQL's index holds the
// type's oid, so pg_get_indexdef shows the new name; here the index's
// statement and the texts of its key and predicate are written again
// under it (its bound expressions hold the type itself, which follows).

// typeRenamedIndex is an index of a table (ix, of t) or of a materialized
// view (mx) with its statement and texts written again.
type typeRenamedIndex struct {
	ix   *namedIndex
	t    *table
	mx   *matIndex
	text string
	def  *sql.CreateIndex
}

// eachIndex calls f with every index of a table, then of a materialized
// view, as it is (text and def its own), in name order.
func (e *Engine) eachIndex(f func(x typeRenamedIndex) error) error {
	for _, tn := range sortedKeys(e.tables) {
		t := e.tables[tn]
		for _, ix := range slices.Concat(t.indexes, t.xindexes) {
			if err := f(typeRenamedIndex{ix: ix, t: t, text: ix.text, def: ix.def}); err != nil {
				return err
			}
		}
	}
	for _, name := range sortedKeys(e.matIndexes) {
		mx := e.matIndexes[name]
		if err := f(typeRenamedIndex{mx: mx, text: mx.text, def: mx.made}); err != nil {
			return err
		}
	}
	return nil
}

// name is the index's name.
func (x typeRenamedIndex) name() string {
	if x.mx != nil {
		return x.mx.name
	}
	return x.ix.name
}

// typeRenameIndexes writes again the indexes of tables and materialized
// views that name the type r renames; an index whose text cannot be read
// is refused (0A000).
func (e *Engine) typeRenameIndexes(r enumRename) ([]typeRenamedIndex, error) {
	var out []typeRenamedIndex
	err := e.eachIndex(func(x typeRenamedIndex) error {
		refuse := pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … RENAME of type %s is not supported: index %s names it in a way its text does not show", r.key, x.name()).
			WithHint("drop the index, rename the type, and create it again")
		text, n, err := sql.RenameTypeInText(x.text, false, r.key, r.newKey)
		if err != nil || x.def == nil && n > 0 {
			return refuse
		}
		if n == 0 {
			return nil
		}
		def := *x.def
		def.KeySQL, def.WhereConj = slices.Clone(def.KeySQL), slices.Clone(def.WhereConj)
		texts := append([]*string{&def.WhereSQL}, pointers(def.KeySQL)...)
		texts = append(texts, pointers(def.WhereConj)...)
		for _, s := range texts {
			if *s == "" {
				continue
			}
			if *s, _, err = sql.RenameTypeInText(*s, true, r.key, r.newKey); err != nil {
				return refuse
			}
		}
		x.text, x.def = text, &def
		out = append(out, x)
		return nil
	})
	return out, err
}

// pointers are the addresses of the elements of s.
func pointers(s []string) []*string {
	out := make([]*string, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

// applyTypeRenameIndexes keeps the indexes written again, in the catalog
// and the store.
func (e *Engine) applyTypeRenameIndexes(ixs []typeRenamedIndex) error {
	for _, x := range ixs {
		name := x.name()
		if x.mx != nil {
			// In place: a block's image copies the index whole, but
			// not its expressions' texts, which take a copy.
			x.mx.text, x.mx.made = x.text, x.def
			if x.mx.x != nil {
				cp := *x.mx.x
				cp.setTexts(keyExtTexts{keySQL: x.def.KeySQL, whereSQL: x.def.WhereSQL, whereConj: x.def.WhereConj})
				x.mx.x = &cp
			}
		} else {
			// In place: a block's image keeps each index's text and
			// definition (takeIndexNames).
			x.ix.text, x.ix.def = x.text, x.def
			x.ix.x.setTexts(keyExtTexts{keySQL: x.def.KeySQL, whereSQL: x.def.WhereSQL, whereConj: x.def.WhereConj})
		}
		if e.store == nil || x.t != nil && x.t.temp {
			continue
		}
		if err := e.store.Drop([]string{name}); err != nil {
			return err
		}
		if err := e.store.Create(&StoredRelation{Name: name, Kind: KindIndex, SQL: x.text}); err != nil {
			return err
		}
	}
	return nil
}

// renamesInUse reports whether RENAME TO of the type t, keyed key, must
// write other objects again: something uses it, or an index's statement
// names it (which no column of its type may tell).
func (e *Engine) renamesInUse(key string, t value.Type) bool {
	if len(e.typeDependents(key, t)) > 0 {
		return true
	}
	names := false
	e.eachIndex(func(x typeRenamedIndex) error {
		_, n, err := sql.RenameTypeInText(x.text, false, key, key+"\x01")
		names = names || err != nil || n > 0
		return nil
	})
	return names
}

// keyExtTexts are the texts of an index's expressions and predicate.
type keyExtTexts struct {
	keySQL    []string
	whereSQL  string
	whereConj []string
}

// texts are x's texts (none for nil).
func (x *keyExt) texts() keyExtTexts {
	if x == nil {
		return keyExtTexts{}
	}
	return keyExtTexts{keySQL: x.keySQL, whereSQL: x.whereSQL, whereConj: x.whereConj}
}

// setTexts gives x the texts t, in place: a UNIQUE index's hash index
// shares it.
func (x *keyExt) setTexts(t keyExtTexts) {
	if x != nil {
		x.keySQL, x.whereSQL, x.whereConj = t.keySQL, t.whereSQL, t.whereConj
	}
}
