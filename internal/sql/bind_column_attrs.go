package sql

import (
	"fmt"
	"math"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// A column's planner and storage attributes (ALTER COLUMN … SET
// STATISTICS, SET STORAGE, SET COMPRESSION, SET (…) and RESET (…);
// STORAGE and COMPRESSION in CREATE TABLE), a table's persistence
// (UNLOGGED) and its replica identity are checked as PostgreSQL 15 checks
// them and kept, for pg_attribute, pg_class, pg_index and psql's \d+.
// Rows are kept in memory and written to the database file at each
// commit whatever they say, so none of them changes what the engine
// does. CreateTable.SQL writes STORAGE, COMPRESSION and UNLOGGED into the
// CREATE TABLE statement, and the rest as an ALTER TABLE ONLY statement
// after it (attrsSQL), which opening the file runs again.

// ColumnAttrs are a column's attributes beyond its type and constraints.
type ColumnAttrs struct {
	// Storage is pg_attribute.attstorage when SET STORAGE chose it ('p',
	// 'e', 'x' or 'm'), 0 for the type's own.
	Storage byte
	// Compression is attcompression: 'p' pglz, 'l' lz4, 0 the default.
	Compression byte
	// Statistics is attstattarget, -1 for the default; StatisticsSet
	// tells that SET STATISTICS gave it (the zero value is 0).
	Statistics    int
	StatisticsSet bool
	// Options are attoptions, name=value as written, in PostgreSQL's
	// order: a parameter set again goes to the end.
	Options []string
}

// StatTarget is pg_attribute.attstattarget.
func (a *ColumnAttrs) StatTarget() int {
	if !a.StatisticsSet {
		return -1
	}
	return a.Statistics
}

// Replica identities, pg_class.relreplident.
const (
	ReplicaDefault = 'd'
	ReplicaFull    = 'f'
	ReplicaNothing = 'n'
	ReplicaIndex   = 'i'
)

// ReplIdent is the table's pg_class.relreplident.
func (ct *CreateTable) ReplIdent() byte {
	if ct.ReplicaIdentity == 0 {
		return ReplicaDefault
	}
	return ct.ReplicaIdentity
}

// TypeStorage is the storage PostgreSQL's pg_type gives a column of type
// t (typstorage): 'p' for a type that cannot be compressed or moved out
// of line.
func TypeStorage(t value.Type) byte {
	switch {
	case t.Kind.IsArray():
		return 'x'
	case t.Kind == value.Enum:
		return 'p'
	}
	for i := range value.BuiltinTypes {
		if b := &value.BuiltinTypes[i]; b.Kind == t.Kind {
			return b.Storage
		}
	}
	return 'x' // composite, range and the other variable-length types
}

// Storage is the column's attstorage.
func (c *ColumnDef) Storage() byte {
	if c.Attrs.Storage != 0 {
		return c.Attrs.Storage
	}
	return TypeStorage(c.Type)
}

var storageNames = map[string]byte{"plain": 'p', "external": 'e', "extended": 'x', "main": 'm'}

// storageOf checks a storage name for a column of type t, as
// PostgreSQL's SET STORAGE does; "default" (PostgreSQL 16's) is the
// type's own, 0.
func storageOf(name string, t value.Type) (byte, error) {
	if strings.EqualFold(name, "default") {
		return 0, nil
	}
	s, ok := storageNames[strings.ToLower(name)]
	if !ok {
		return 0, pgerr.New(pgerr.InvalidParameter, "invalid storage type %q", name)
	}
	if s != 'p' && TypeStorage(t) == 'p' {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "column data type %s can only have storage PLAIN", formatTypeBase(t))
	}
	if s == TypeStorage(t) {
		return 0, nil
	}
	return s, nil
}

// compressionOf checks a compression method for a column of type t, as
// PostgreSQL's GetAttributeCompression does.
func compressionOf(name string, t value.Type) (byte, error) {
	if name == "" || name == "default" {
		return 0, nil
	}
	if TypeStorage(t) == 'p' {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "column data type %s does not support compression", formatTypeBase(t))
	}
	switch name {
	case "pglz":
		return 'p', nil
	case "lz4":
		return 'l', nil
	}
	return 0, pgerr.New(pgerr.InvalidParameter, "invalid compression method %q", name)
}

// formatTypeBase is format_type_be's name of t, without its modifier.
func formatTypeBase(t value.Type) string {
	t.Mod = -1
	return t.String()
}

// columnDefAttrs reads STORAGE and COMPRESSION of a CREATE TABLE column.
func columnDefAttrs(cd *pg_query.ColumnDef, c *ColumnDef) error {
	var err error
	if cd.StorageName != "" {
		if c.Attrs.Storage, err = storageOf(cd.StorageName, c.Type); err != nil {
			return err
		}
	}
	if cd.Compression != "" {
		c.Attrs.Compression, err = compressionOf(cd.Compression, c.Type)
	}
	return err
}

// attOptions are PostgreSQL 15's attribute options.
var attOptions = map[string]relOption{
	"n_distinct":           {kind: 'r', lo: -1, hi: math.MaxFloat64},
	"n_distinct_inherited": {kind: 'r', lo: -1, hi: math.MaxFloat64},
}

// columnAttrsCmd applies ALTER COLUMN … SET STATISTICS / STORAGE /
// COMPRESSION / SET (…) / RESET (…) to the attributes of column cd; done
// is false for another command.
func (b *binder) columnAttrsCmd(w *alterWork, at *AlterTable, cmd *pg_query.AlterTableCmd) (bool, error) {
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_SetStatistics, pg_query.AlterTableType_AT_SetStorage, pg_query.AlterTableType_AT_SetCompression,
		pg_query.AlterTableType_AT_SetOptions, pg_query.AlterTableType_AT_ResetOptions:
	default:
		return false, nil
	}
	if cmd.Name == "" {
		return true, pgerr.New(pgerr.FeatureNotSupported, "cannot refer to non-index column by number")
	}
	cd, i := w.col(cmd.Name)
	if cd == nil {
		if isSystemColumn(cmd.Name) {
			return true, pgerr.New(pgerr.FeatureNotSupported, "cannot alter system column %q", cmd.Name)
		}
		return true, colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
	}
	a, err := w.attrs(b, cd, i)
	if err != nil {
		return true, err
	}
	typ, err := w.colType(b, cd, i)
	if err != nil {
		return true, err
	}
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_SetStatistics:
		n := -1
		if cmd.Def != nil {
			n = int(cmd.Def.GetInteger().GetIval())
		}
		switch {
		case n < -1:
			return true, pgerr.New(pgerr.InvalidParameter, "statistics target %d is too low", n)
		case n > 10000:
			n = 10000
			at.Warnings = append(at.Warnings, "lowering statistics target to 10000")
		}
		a.Statistics, a.StatisticsSet = n, n != -1
		// SET STATISTICS reaches the inheritance children, as in
		// PostgreSQL.
		at.ColumnCmds = append(at.ColumnCmds, fmt.Sprintf("ALTER COLUMN %s SET STATISTICS %d", QuoteIdent(cmd.Name), n))
	case pg_query.AlterTableType_AT_SetStorage:
		name := cmd.Def.GetString_().GetSval()
		if a.Storage, err = storageOf(name, typ); err != nil {
			return true, err
		}
		at.ColumnCmds = append(at.ColumnCmds, "ALTER COLUMN "+QuoteIdent(cmd.Name)+" SET STORAGE "+QuoteIdent(name))
	case pg_query.AlterTableType_AT_SetCompression:
		if a.Compression, err = compressionOf(cmd.Def.GetString_().GetSval(), typ); err != nil {
			return true, err
		}
	default:
		var names, texts []string
		for _, n := range cmd.Def.GetList().GetItems() {
			d := n.GetDefElem()
			if cmd.Subtype == pg_query.AlterTableType_AT_SetOptions {
				text, err := b.optionText(d, attOptions)
				if err != nil {
					return true, err
				}
				if slices.Contains(names, d.Defname) {
					return true, pgerr.New(pgerr.InvalidParameter, "parameter %q specified more than once", d.Defname)
				}
				texts = append(texts, text)
			}
			names = append(names, d.Defname)
		}
		// A parameter set again goes to the end, as in PostgreSQL.
		a.Options = slices.DeleteFunc(a.Options, func(o string) bool {
			name, _, _ := strings.Cut(o, "=")
			return slices.Contains(names, name)
		})
		a.Options = append(a.Options, texts...)
	}
	return true, nil
}

// isSystemColumn reports whether name is one of a table's system columns.
func isSystemColumn(name string) bool {
	switch name {
	case "ctid", "xmin", "cmin", "xmax", "cmax", "tableoid":
		return true
	}
	return false
}

// attrs returns the attributes of column cd (the i-th) of the table
// being altered, kept beside its definition: the CREATE TABLE text it is
// bound from carries none of them.
func (w *alterWork) attrs(b *binder, cd *pg_query.ColumnDef, i int) (*ColumnAttrs, error) {
	if a := w.colAttrs[cd]; a != nil {
		return a, nil
	}
	// A column added by the statement: what its definition says.
	t, err := w.colType(b, cd, i)
	if err != nil {
		return nil, err
	}
	c := ColumnDef{Type: t}
	if err := columnDefAttrs(cd, &c); err != nil {
		return nil, err
	}
	cd.StorageName, cd.Compression = "", ""
	w.colAttrs[cd] = &c.Attrs
	return &c.Attrs, nil
}

// colType is the type of column cd (the i-th) of the table being
// altered: its old type, or the one the statement gives it.
func (w *alterWork) colType(b *binder, cd *pg_query.ColumnDef, i int) (value.Type, error) {
	if o := w.origin[i]; o >= 0 && w.old.Cols[o].Type.Kind != 0 && !w.retyped[o] {
		return w.old.Cols[o].Type, nil
	}
	if serial, ok := serialType(cd.TypeName); ok {
		return value.Type{Kind: serial, Mod: -1}, nil
	}
	return b.typeFromName(cd.TypeName)
}

// startAttrs keeps the attributes of the table's columns and the table's
// own beside the CREATE TABLE tree that ALTER TABLE edits.
func (w *alterWork) startAttrs(def *CreateTable) {
	w.colAttrs = map[*pg_query.ColumnDef]*ColumnAttrs{}
	for i, cd := range w.cols() {
		a := def.Cols[i].Attrs
		a.Options = slices.Clone(a.Options)
		w.colAttrs[cd] = &a
		cd.StorageName, cd.Compression = "", ""
	}
	w.replica, w.replicaIndex = def.ReplicaIdentity, def.ReplicaIndex
}

// endAttrs gives the columns of the table bound from the edited tree
// their attributes.
func (w *alterWork) endAttrs(ct *CreateTable) {
	for i, cd := range w.cols() {
		if a := w.colAttrs[cd]; a != nil {
			ct.Cols[i].Attrs = *a
		}
	}
	ct.ReplicaIdentity, ct.ReplicaIndex = w.replica, w.replicaIndex
}

// replicaIdentityCmd applies REPLICA IDENTITY; the engine checks the
// index of USING INDEX, which it holds.
func (w *alterWork) replicaIdentityCmd(at *AlterTable, cmd *pg_query.AlterTableCmd) {
	ri := cmd.Def.GetReplicaIdentityStmt()
	w.replica, w.replicaIndex = ri.IdentityType[0], ri.Name
	if w.replica == ReplicaDefault {
		w.replica = 0
	}
	at.ReplicaIndex = ri.Name
}

// persistenceCmd applies SET LOGGED and SET UNLOGGED. As in PostgreSQL,
// a table SET LOGGED must reference only permanent tables (checked
// here), and one SET UNLOGGED be referenced only by unlogged tables
// (checked by the engine, which knows them).
func (b *binder) persistenceCmd(w *alterWork, at *AlterTable, unlogged bool) error {
	if TempKey(w.name) { // a session's temporary table
		return pgerr.New(pgerr.InvalidTableDef, "cannot change logged status of table %q because it is temporary", w.name[strings.IndexByte(w.name, '.')+1:])
	}
	if w.old.Unlogged == unlogged {
		return nil // nothing to do, as in PostgreSQL
	}
	w.cs.Relation.Relpersistence = "p"
	if unlogged {
		w.cs.Relation.Relpersistence = "u"
	}
	at.Persistence = true
	at.Rewrite |= RewritePersistence
	for _, fk := range w.old.ForeignKeys {
		if fk.RefTable == w.name || unlogged {
			continue
		}
		if rel, ok := b.cat.Relation(fk.RefTable); ok && rel.Def != nil && rel.Def.Unlogged != unlogged {
			return PersistenceError(w.name, fk.RefTable, unlogged)
		}
	}
	return nil
}

// PersistenceError is PostgreSQL's error for SET LOGGED or SET UNLOGGED
// of table when a foreign key ties it to other, of the other persistence.
func PersistenceError(table, other string, unlogged bool) error {
	if unlogged {
		return pgerr.New(pgerr.InvalidTableDef, "could not change table %q to unlogged because it references logged table %q", table, other)
	}
	return pgerr.New(pgerr.InvalidTableDef, "could not change table %q to logged because it references unlogged table %q", table, other)
}

// attrsSQL is the ALTER TABLE ONLY statement that gives the table the
// attributes its CREATE TABLE statement cannot: statistics targets,
// attribute options and the replica identity; "" when it has none.
func (ct *CreateTable) attrsSQL() string {
	var cmds []string
	if n := ct.numberingSQL(); n != "" {
		cmds = append(cmds, n)
	}
	for _, c := range ct.Cols {
		col := "ALTER COLUMN " + QuoteIdent(c.Name)
		if c.Attrs.StatisticsSet {
			cmds = append(cmds, fmt.Sprintf("%s SET STATISTICS %d", col, c.Attrs.Statistics))
		}
		if len(c.Attrs.Options) > 0 {
			opts := make([]string, len(c.Attrs.Options))
			for i, o := range c.Attrs.Options {
				name, v, _ := strings.Cut(o, "=")
				opts[i] = name + " = '" + strings.ReplaceAll(v, "'", "''") + "'"
			}
			cmds = append(cmds, col+" SET ("+strings.Join(opts, ", ")+")")
		}
	}
	if ct.OfType != "" {
		cmds = append(cmds, "OF "+QuoteIdent(ct.OfType))
	}
	switch ct.ReplicaIdentity {
	case ReplicaFull:
		cmds = append(cmds, "REPLICA IDENTITY FULL")
	case ReplicaNothing:
		cmds = append(cmds, "REPLICA IDENTITY NOTHING")
	case ReplicaIndex:
		cmds = append(cmds, "REPLICA IDENTITY USING INDEX "+QuoteIdent(ct.ReplicaIndex))
	}
	if cmds == nil {
		return ""
	}
	return "; ALTER TABLE ONLY " + QuoteIdent(ct.Name) + " " + strings.Join(cmds, ", ")
}

// columnAttrsSQL is what CREATE TABLE writes of column c's attributes
// after its type.
func (c *ColumnDef) columnAttrsSQL() string {
	s := ""
	if c.Attrs.Storage != 0 {
		for name, v := range storageNames {
			if v == c.Attrs.Storage {
				s += " STORAGE " + name
			}
		}
	}
	switch c.Attrs.Compression {
	case 'p':
		s += " COMPRESSION pglz"
	case 'l':
		s += " COMPRESSION lz4"
	}
	return s
}

// The bits of CREATE TABLE (LIKE t INCLUDING …) that copy a column's
// attributes (PostgreSQL's CREATE_TABLE_LIKE_COMPRESSION and _STORAGE);
// statistics targets and options are not copied, as in PostgreSQL.
const (
	likeCompression = 1 << 1
	likeStorage     = 1 << 8
)

// likeColumnAttrs gives the column cd that LIKE copies from c the storage
// and compression INCLUDING STORAGE and INCLUDING COMPRESSION copy.
func likeColumnAttrs(lc *pg_query.TableLikeClause, c *ColumnDef, cd *pg_query.ColumnDef) {
	if lc.Options&likeStorage != 0 && c.Attrs.Storage != 0 {
		for name, v := range storageNames {
			if v == c.Attrs.Storage {
				cd.StorageName = name
			}
		}
	}
	if lc.Options&likeCompression != 0 {
		cd.Compression = map[byte]string{'p': "pglz", 'l': "lz4"}[c.Attrs.Compression]
	}
}
