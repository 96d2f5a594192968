package pgrepl

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Table is one table of a publication, as the upstream catalog describes
// it, with its columns' deltaview types.
type Table struct {
	Schema, Name string
	// Local is the name of the deltaview table that receives its changes.
	Local string
	Cols  []Column
	// Key is the primary key's column positions in key order; nil when
	// the table has none.
	Key []int
	// Identity is pg_class.relreplident: 'd' default (the primary key),
	// 'f' full, 'n' nothing, 'i' an index.
	Identity byte
	// enums are the upstream OIDs of its columns' enum types, which map
	// to text.
	enums map[uint32]bool
}

// columnType returns the deltaview type of an upstream column of t: text
// for an enum it was created with, else mapType's.
func (t *Table) columnType(oid uint32, mod int32) (value.Type, error) {
	if t.enums[oid] {
		return value.TextType, nil
	}
	return mapType(oid, mod)
}

// Column is one upstream column.
type Column struct {
	Name    string
	Type    value.Type
	NotNull bool
}

// Qualified is the table's name as upstream SQL names it.
func (t *Table) Qualified() string {
	return pgx.Identifier{t.Schema, t.Name}.Sanitize()
}

// readCatalog returns the tables of publication pub, in name order. A
// table whose identity is NOTHING (or DEFAULT without a primary key) in a
// publication of UPDATE or DELETE is an error: its updates and deletions
// would name no row.
func readCatalog(ctx context.Context, conn *pgx.Conn, pub string) ([]*Table, error) {
	var updel bool
	err := conn.QueryRow(ctx, "SELECT pubupdate OR pubdelete FROM pg_publication WHERE pubname = $1", pub).Scan(&updel)
	if err == pgx.ErrNoRows {
		return nil, pgerr.New(pgerr.UndefinedObject, "publication %q does not exist upstream", pub)
	}
	if err != nil {
		return nil, upstreamErr(err)
	}
	rows, err := conn.Query(ctx, `SELECT c.oid, n.nspname, c.relname, c.relreplident::text,
		coalesce((SELECT i.indkey::text FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary), '')
		FROM pg_publication_tables pt
		JOIN pg_namespace n ON n.nspname = pt.schemaname
		JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = pt.tablename
		WHERE pt.pubname = $1 ORDER BY n.nspname, c.relname`, pub)
	if err != nil {
		return nil, upstreamErr(err)
	}
	type rel struct {
		oid    uint32
		t      *Table
		indkey string
	}
	var rels []rel
	for rows.Next() {
		var r rel
		var ident string
		r.t = &Table{}
		if err := rows.Scan(&r.oid, &r.t.Schema, &r.t.Name, &ident, &r.indkey); err != nil {
			rows.Close()
			return nil, upstreamErr(err)
		}
		r.t.Identity = ident[0]
		r.t.Local = r.t.Name
		rels = append(rels, r)
	}
	if err := rows.Err(); err != nil {
		return nil, upstreamErr(err)
	}
	seen := map[string]string{}
	var out []*Table
	for _, r := range rels {
		t := r.t
		if prev, dup := seen[t.Local]; dup {
			return nil, pgerr.New(pgerr.DuplicateTable, "tables %s and %s of publication %q would both be table %q here", prev, t.Qualified(), pub, t.Local)
		}
		seen[t.Local] = t.Qualified()
		crows, err := conn.Query(ctx, `SELECT a.attnum, a.attname, a.atttypid, a.atttypmod, a.attnotnull, format_type(a.atttypid, a.atttypmod),
			(SELECT typtype = 'e' FROM pg_type WHERE oid = a.atttypid)
			FROM pg_attribute a WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
			ORDER BY a.attnum`, r.oid)
		if err != nil {
			return nil, upstreamErr(err)
		}
		pos := map[int]int{}
		for crows.Next() {
			var num int16
			var name, typName string
			var oid uint32
			var mod int32
			var notNull, enum bool
			if err := crows.Scan(&num, &name, &oid, &mod, &notNull, &typName, &enum); err != nil {
				crows.Close()
				return nil, upstreamErr(err)
			}
			if enum {
				// An upstream enum arrives as its labels: text here,
				// whatever types this database has.
				if t.enums == nil {
					t.enums = map[uint32]bool{}
				}
				t.enums[oid] = true
			}
			typ, err := t.columnType(oid, mod)
			if err != nil {
				crows.Close()
				return nil, pgerr.New(pgerr.FeatureNotSupported, "column %s of table %s has type %s, which deltaview does not have", name, t.Qualified(), typName).
					WithHint("leave the table out of the publication, or publish a column list without the column")
			}
			pos[int(num)] = len(t.Cols)
			t.Cols = append(t.Cols, Column{Name: name, Type: typ, NotNull: notNull})
		}
		if err := crows.Err(); err != nil {
			return nil, upstreamErr(err)
		}
		for _, f := range strings.Fields(r.indkey) {
			n, _ := strconv.Atoi(f)
			p, ok := pos[n]
			if !ok {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "the primary key of table %s holds an expression or a generated column", t.Qualified())
			}
			t.Key = append(t.Key, p)
		}
		switch {
		case t.Identity == 'i':
			return nil, pgerr.New(pgerr.FeatureNotSupported, "table %s has REPLICA IDENTITY USING INDEX, which is not supported", t.Qualified()).
				WithHint("use REPLICA IDENTITY DEFAULT (with a primary key) or FULL")
		case updel && (t.Identity == 'n' || t.Identity == 'd' && t.Key == nil):
			return nil, pgerr.New(pgerr.ObjectNotInPrereqState, "table %s has no replica identity, and publication %q publishes its updates or deletions", t.Qualified(), pub).
				WithHint("give the table a primary key (REPLICA IDENTITY DEFAULT) or ALTER TABLE … REPLICA IDENTITY FULL")
		}
		out = append(out, t)
	}
	return out, nil
}

// oidMoney is PostgreSQL's OID of money, which pgtype does not name.
const oidMoney = 790

// mapType returns the deltaview type of an upstream column: exactly the
// same type and modifier, or an error.
func mapType(oid uint32, mod int32) (value.Type, error) {
	switch oid {
	case pgtype.BoolOID:
		return value.BoolType, nil
	case pgtype.Int2OID:
		return value.Int2Type, nil
	case pgtype.Int4OID:
		return value.Int4Type, nil
	case pgtype.Int8OID:
		return value.Int8Type, nil
	case pgtype.Float4OID:
		return value.Float4Type, nil
	case pgtype.Float8OID:
		return value.Float8Type, nil
	case pgtype.TextOID:
		return value.TextType, nil
	case pgtype.DateOID:
		return value.DateType, nil
	case pgtype.VarcharOID, pgtype.BPCharOID:
		k := value.Varchar
		if oid == pgtype.BPCharOID {
			k = value.Char
		}
		if mod >= 4 {
			mod -= 4 // VARHDRSZ
		}
		return value.Type{Kind: k, Mod: mod}, nil
	case pgtype.NumericOID:
		if mod < 4 {
			return value.NumericType, nil
		}
		m := mod - 4
		scale := (m&0x7ff ^ 1024) - 1024
		return value.Type{Kind: value.Numeric, Mod: value.NumericMod(m>>16&0xffff, scale)}, nil
	case pgtype.TimestampOID:
		return value.Type{Kind: value.Timestamp, Mod: mod}, nil
	case pgtype.TimestamptzOID:
		return value.Type{Kind: value.TimestampTZ, Mod: mod}, nil
	case pgtype.JSONOID:
		return value.JSONType, nil
	case pgtype.JSONBOID:
		return value.JSONBType, nil
	case pgtype.IntervalOID:
		if mod < 0 {
			return value.IntervalType, nil
		}
		return value.Type{Kind: value.Interval, Mod: mod}, nil
	case pgtype.TimeOID:
		return value.Type{Kind: value.Time, Mod: mod}, nil
	case pgtype.TimetzOID:
		return value.Type{Kind: value.TimeTZ, Mod: mod}, nil
	case pgtype.ByteaOID, pgtype.UUIDOID, pgtype.BitOID, pgtype.VarbitOID:
		return bytesType(oid, mod), nil
	case pgtype.InetOID:
		return value.InetType, nil
	case pgtype.CIDROID:
		return value.CidrType, nil
	case pgtype.MacaddrOID:
		return value.MacAddrType, nil
	case pgtype.Macaddr8OID:
		return value.MacAddr8Type, nil
	case oidTSQuery:
		return value.TSQueryType, nil
	case oidTSQueryArray:
		return value.ArrayTypeOf(value.TSQueryType), nil
	case oidMoney:
		return value.MoneyType, nil // read as text, which must be in the C locale's format ($1,234.56)
	case pgtype.OIDOID:
		return value.OidType, nil
	case pgtype.PointOID:
		return value.PointType, nil
	case pgtype.LsegOID:
		return value.LSegType, nil
	case pgtype.PathOID:
		return value.PathType, nil
	case pgtype.BoxOID:
		return value.BoxType, nil
	case pgtype.PolygonOID:
		return value.PolygonType, nil
	case pgtype.LineOID:
		return value.LineType, nil
	case pgtype.CircleOID:
		return value.CircleType, nil
	case pgtype.XMLOID:
		return value.XMLType, nil
	}
	return mapTypeByName(oid)
}

// PostgreSQL's OIDs of tsquery and its array, which pgtype does not name.
const (
	oidTSQuery      = 3615
	oidTSQueryArray = 3645
)

// builtinTypes names PostgreSQL's built-in types by OID.
var builtinTypes = pgtype.NewMap()

// mapTypeByName maps the built-in types without a modifier that mapType
// does not list (jsonpath, tsvector, the ranges and multiranges, …) by
// their name, and arrays by their element's type (an array has no
// modifier here).
func mapTypeByName(oid uint32) (value.Type, error) {
	t, ok := builtinTypes.TypeForOID(oid)
	if !ok {
		return value.Type{}, fmt.Errorf("type oid %d", oid)
	}
	if c, ok := t.Codec.(*pgtype.ArrayCodec); ok {
		elem, err := mapType(c.ElementType.OID, -1)
		if err != nil || elem.Kind.IsArray() {
			return value.Type{}, fmt.Errorf("type %s", t.Name)
		}
		return value.ArrayTypeOf(elem), nil
	}
	vt, err := value.TypeFromName(t.Name, nil)
	if err != nil {
		return value.Type{}, fmt.Errorf("type %s", t.Name)
	}
	return vt, nil
}

// createTableSQL is the deltaview statement that creates t locally; with
// changeStream a table with a primary key is a change-stream table.
func createTableSQL(t *Table, changeStream bool) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE ")
	b.WriteString(pgx.Identifier{t.Local}.Sanitize())
	b.WriteString(" (")
	for i, c := range t.Cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pgx.Identifier{c.Name}.Sanitize())
		b.WriteString(" ")
		b.WriteString(c.Type.String())
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
	}
	if t.Key != nil {
		b.WriteString(", PRIMARY KEY (")
		for i, k := range t.Key {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pgx.Identifier{t.Cols[k].Name}.Sanitize())
		}
		b.WriteString(")")
	}
	b.WriteString(")")
	if changeStream && t.Key != nil {
		b.WriteString(" WITH (change_stream = true)")
	}
	return b.String()
}

// bytesType is mapType of bytea, uuid, bit(n) and bit varying(n), whose
// modifier is the length itself.
func bytesType(oid uint32, mod int32) value.Type {
	switch oid {
	case pgtype.ByteaOID:
		return value.ByteaType
	case pgtype.UUIDOID:
		return value.UUIDType
	case pgtype.BitOID:
		return value.Type{Kind: value.Bit, Mod: mod}
	}
	return value.Type{Kind: value.Varbit, Mod: mod}
}
