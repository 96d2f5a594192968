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

// typeRenamedIndex is an index of a table with its statement and texts
// written again.
type typeRenamedIndex struct {
	ix   *namedIndex
	t    *table
	text string
	def  *sql.CreateIndex
}

// typeRenameIndexes writes again the tables' indexes that name the type
// r renames; an index whose text cannot be read is refused (0A000).
func (e *Engine) typeRenameIndexes(r enumRename) ([]typeRenamedIndex, error) {
	refuse := func(ix *namedIndex) error {
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER TYPE … RENAME of type %s is not supported: index %s names it in a way its text does not show", r.key, ix.name).
			WithHint("drop the index, rename the type, and create it again")
	}
	var out []typeRenamedIndex
	for _, tn := range sortedKeys(e.tables) {
		t := e.tables[tn]
		for _, ix := range slices.Concat(t.indexes, t.xindexes) {
			text, n, err := sql.RenameTypeInText(ix.text, false, r.key, r.newKey)
			if err != nil {
				return nil, refuse(ix)
			}
			if n == 0 {
				continue
			}
			def := *ix.def
			def.KeySQL, def.WhereConj = slices.Clone(def.KeySQL), slices.Clone(def.WhereConj)
			texts := append([]*string{&def.WhereSQL}, pointers(def.KeySQL)...)
			texts = append(texts, pointers(def.WhereConj)...)
			for _, s := range texts {
				if *s == "" {
					continue
				}
				if *s, _, err = sql.RenameTypeInText(*s, true, r.key, r.newKey); err != nil {
					return nil, refuse(ix)
				}
			}
			out = append(out, typeRenamedIndex{ix: ix, t: t, text: text, def: &def})
		}
	}
	return out, nil
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
		// In place: a block's image keeps each index's text and
		// definition (takeIndexNames).
		x.ix.text, x.ix.def = x.text, x.def
		x.ix.x.setTexts(keyExtTexts{keySQL: x.def.KeySQL, whereSQL: x.def.WhereSQL, whereConj: x.def.WhereConj})
		if e.store == nil || x.t.temp {
			continue
		}
		if err := e.store.Drop([]string{x.ix.name}); err != nil {
			return err
		}
		if err := e.store.Create(&StoredRelation{Name: x.ix.name, Kind: KindIndex, SQL: x.text}); err != nil {
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
	for _, tn := range sortedKeys(e.tables) {
		t := e.tables[tn]
		for _, ix := range slices.Concat(t.indexes, t.xindexes) {
			if _, n, err := sql.RenameTypeInText(ix.text, false, key, key+"\x01"); err != nil || n > 0 {
				return true
			}
		}
	}
	return false
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
