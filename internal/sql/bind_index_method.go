package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// indexMethod checks CREATE INDEX's access method, as PostgreSQL 15's
// DefineIndex: it must exist, and support a unique, multicolumn or
// INCLUDE index when the statement asks for one.
func (b *binder) indexMethod(is *pg_query.IndexStmt, loc int32) (string, error) {
	m := is.AccessMethod
	if m == "" {
		m = "btree"
	}
	switch m {
	case "btree", "hash", "gist", "gin", "spgist", "brin":
	default:
		return "", pgerr.New(pgerr.UndefinedObject, "access method %q does not exist", m)
	}
	switch {
	case is.Unique && m != "btree":
		return "", pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support unique indexes", m)
	case len(is.IndexIncludingParams) > 0 && (m == "hash" || m == "gin" || m == "brin"):
		return "", pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support included columns", m)
	case len(is.IndexParams) > 1 && m == "hash":
		return "", pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support multicolumn indexes", m)
	}
	return m, nil
}

// Index option bits of pg_index.indoption, as PostgreSQL's.
const (
	indexOptionDesc       = 1
	indexOptionNullsFirst = 2
)

// indexElemOpts checks an index element's collation, operator class and
// ordering for access method m over an element of type t (of the
// collation colColl, "" for its type's) of a unique index or not, and
// returns what pg_get_indexdef prints after the element and its
// indoption bits.
func (b *binder) indexElemOpts(m string, ie *pg_query.IndexElem, t value.Type, colColl string, unique bool, loc int32) (string, int16, error) {
	var out strings.Builder
	if len(ie.Collation) > 0 {
		names := make([]string, len(ie.Collation))
		for i, n := range ie.Collation {
			names[i] = n.GetString_().GetSval()
		}
		k := t.Kind
		if k.IsArray() {
			k = k.Elem()
		}
		if !k.IsString() {
			return "", 0, b.stmt.errf(loc, pgerr.DatatypeMismatch, "collations are not supported by type %s", t)
		}
		if c := icuCollation(names); c != nil {
			// An ICU collation changes nothing in the index, whose
			// order is the bytes' (a collated range condition does not
			// use it); pg_get_indexdef leaves out the column's own.
			if c.Name != colColl {
				out.WriteString(" COLLATE " + expr.QuoteIdent(c.Name))
			}
		} else if uc := b.userCollationOf(names); uc != nil {
			// A user collation changes nothing in the index's order; a
			// unique index holds its equal keys as one (ElemColls).
			if uc.Name != colColl {
				name := expr.QuoteIdent(uc.Name)
				if uc.Schema != "public" {
					name = expr.QuoteIdent(uc.Schema) + "." + name
				}
				out.WriteString(" COLLATE " + name)
			}
		} else if err := b.checkCollation(names, loc); err != nil {
			return "", 0, err
		} else if name := names[len(names)-1]; name != "default" {
			out.WriteString(" COLLATE " + expr.QuoteIdent(name))
		}
	}
	class, err := b.indexOpclass(m, ie, t, loc)
	if err != nil {
		return "", 0, err
	}
	if class != "" {
		out.WriteString(" " + class)
	}
	if len(ie.Opclassopts) > 0 {
		return "", 0, b.refuse(loc, "operator class options in an index are not supported")
	}
	var option int16
	desc := ie.Ordering == pg_query.SortByDir_SORTBY_DESC
	if desc {
		option = indexOptionDesc | indexOptionNullsFirst
	}
	switch ie.NullsOrdering {
	case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
		option |= indexOptionNullsFirst
	case pg_query.SortByNulls_SORTBY_NULLS_LAST:
		option &^= indexOptionNullsFirst
	}
	if m != "btree" {
		switch {
		case ie.Ordering != pg_query.SortByDir_SORTBY_DEFAULT:
			return "", 0, pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support ASC/DESC options", m)
		case ie.NullsOrdering != pg_query.SortByNulls_SORTBY_NULLS_DEFAULT:
			return "", 0, pgerr.New(pgerr.FeatureNotSupported, "access method %q does not support NULLS FIRST/LAST options", m)
		}
		return out.String(), 0, nil
	}
	switch {
	case desc:
		out.WriteString(" DESC")
		if option&indexOptionNullsFirst == 0 {
			out.WriteString(" NULLS LAST")
		}
	case option&indexOptionNullsFirst != 0:
		out.WriteString(" NULLS FIRST")
	}
	return out.String(), option, nil
}

// indexOpclass checks an index element's operator class for method m and
// type t, and returns it when pg_get_indexdef prints it (it is not the
// type's default). With none named, the type must have a default class
// for the method (42704 as in PostgreSQL); a class of another type is
// 42804, an unknown one 42704.
func (b *binder) indexOpclass(m string, ie *pg_query.IndexElem, t value.Type, loc int32) (string, error) {
	def := indexDefaultOpclass(m, t)
	if m == "gist" && btreeGistKind(t.Kind) && !b.extensionInstalled("btree_gist") {
		def = ""
	}
	if len(ie.Opclass) == 0 {
		if def == "" && m != "btree" && m != "hash" && m != "brin" {
			t.Mod = -1 // PostgreSQL names the type without its modifier
			return "", pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method %q", t, m).
				WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
		}
		return "", nil
	}
	name := ie.Opclass[len(ie.Opclass)-1].GetString_().GetSval()
	if len(ie.Opclass) > 1 {
		if s := ie.Opclass[0].GetString_().GetSval(); s != "pg_catalog" && s != "public" {
			return "", b.refuse(loc, "operator class %s outside pg_catalog is not supported", name)
		}
	}
	if name == def {
		return "", nil
	}
	if kinds, ok := extraOpclasses[m][name]; ok {
		for _, k := range kinds {
			if k == t.Kind {
				if ext := opclassExtension[name]; ext != "" && !b.extensionInstalled(ext) {
					return "", pgerr.New(pgerr.UndefinedObject, "operator class %q does not exist for access method %q", name, m)
				}
				return name, nil
			}
		}
		return "", pgerr.New(pgerr.DatatypeMismatch, "operator class %q does not accept data type %s", name, t)
	}
	for k := range value.Kind(255) {
		if indexDefaultOpclass(m, value.Type{Kind: k}) == name {
			return "", pgerr.New(pgerr.DatatypeMismatch, "operator class %q does not accept data type %s", name, t)
		}
	}
	return "", pgerr.New(pgerr.UndefinedObject, "operator class %q does not exist for access method %q", name, m)
}

// indexDefaultOpclass is defaultOpclass with gin's and gist's classes
// for the types they index in PostgreSQL 15 without an extension.
func indexDefaultOpclass(m string, t value.Type) string {
	switch {
	case m == "gin" && t.Kind == value.JSONB:
		return "jsonb_ops"
	case (m == "gin" || m == "gist") && t.Kind == value.TSVector:
		return "tsvector_ops"
	case m == "brin":
		return "" // brin's classes are per type (int4_minmax_ops…): none is printed
	}
	return defaultOpclass(m, t)
}

// extraOpclasses are, per access method, the non-default operator
// classes accepted, with the types each takes; the index serves them as
// it serves the default class.
var extraOpclasses = map[string]map[string][]value.Kind{
	"btree": {
		"text_pattern_ops":    {value.Text, value.Varchar},
		"varchar_pattern_ops": {value.Text, value.Varchar},
		"bpchar_pattern_ops":  {value.Char},
	},
	"hash": {
		"text_pattern_ops":    {value.Text, value.Varchar},
		"varchar_pattern_ops": {value.Text, value.Varchar},
		"bpchar_pattern_ops":  {value.Char},
	},
	"gin": {
		"jsonb_path_ops": {value.JSONB},
		"gin_trgm_ops":   {value.Text, value.Varchar, value.Char},
	},
	"gist": {
		"gist_trgm_ops": {value.Text, value.Varchar, value.Char},
	},
	"spgist": {
		"kd_point_ops": {value.Point},
	},
}

// opclassExtension names the extension an operator class comes with.
var opclassExtension = map[string]string{"gin_trgm_ops": "pg_trgm", "gist_trgm_ops": "pg_trgm"}

// extensionInstalled reports whether CREATE EXTENSION made ext.
func (b *binder) extensionInstalled(ext string) bool {
	ic, ok := b.cat.(ExtensionInstalledCatalog)
	return ok && ic.ExtensionInstalled(ext)
}

// indexElemColl is the collation an index element's COLLATE names, as
// CreateIndex.ElemColls keeps it: -1 for none.
func (b *binder) indexElemColl(ie *pg_query.IndexElem) int16 {
	if len(ie.Collation) == 0 {
		return -1
	}
	names := make([]string, len(ie.Collation))
	for i, n := range ie.Collation {
		names[i] = n.GetString_().GetSval()
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	if c := icuCollation(names); c != nil {
		return int16(c.ID)
	}
	if uc := b.userCollationOf(names); uc != nil {
		return int16(uc.ID)
	}
	return 0
}
