package expr

// The btree_gist extension: gist operator classes for the scalar types,
// with = and <> in each, which an EXCLUDE USING gist constraint over a
// scalar column needs (the booking example: room WITH =, during WITH
// &&). The engine indexes no gist: installing it lets the binder accept
// such constraints (sql.Exclusion). Its support functions and the
// distance operator <-> are not provided.
func init() {
	registerExtension(&Extension{
		Name: "btree_gist", Version: "1.7", Relocatable: true,
		Comment: "support for indexing common datatypes in GiST",
	})
}
