package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The hash functions of the remaining hashable types (hashbpchar,
// hashchar, hashname, hashoid, uuid_hash, time_hash, timetz_hash,
// interval_hash, timestamp_hash, pg_lsn_hash, hashmacaddr(8), hashinet,
// hashtid, hashoidvector)
// and of arrays and records (hash_array, hash_record), each with its
// _extended form, as PostgreSQL computes them on a little-endian machine.
// Stateless. hashKind is the extended hash of one value under seed; its
// low half under seed 0 is the 32-bit hash, as in hashfn.c.

func init() {
	I8 := value.Int8
	for _, f := range []struct {
		name, ext string
		k         value.Kind
	}{
		{"hashbpchar", "hashbpcharextended", value.Char},
		{"hashchar", "hashcharextended", value.InternalChar},
		{"hashname", "hashnameextended", value.Name},
		{"hashoid", "hashoidextended", value.Oid},
		{"uuid_hash", "uuid_hash_extended", value.UUID},
		{"time_hash", "time_hash_extended", value.Time},
		{"timetz_hash", "timetz_hash_extended", value.TimeTZ},
		{"interval_hash", "interval_hash_extended", value.Interval},
		{"timestamp_hash", "timestamp_hash_extended", value.Timestamp},
		{"pg_lsn_hash", "pg_lsn_hash_extended", value.PgLSN},
		{"hashmacaddr", "hashmacaddrextended", value.MacAddr},
		{"hashmacaddr8", "hashmacaddr8extended", value.MacAddr8},
		{"hashinet", "hashinetextended", value.Inet},
		{"hashtid", "hashtidextended", value.Tid},
		{"hashoidvector", "hashoidvectorextended", value.OidVector},
	} {
		strict(f.name, kinds(f.k), value.Int4Type, func(a []value.Value) (value.Value, error) {
			h, err := hashKind(a[0], 0)
			return int4(int64(int32(uint32(h)))), err
		})
		strict(f.ext, kinds(f.k, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
			h, err := hashKind(a[0], uint64(a[1].Int()))
			return value.NewInt(value.Int8, int64(h)), err
		})
	}
	polyStrict("hash_array", []poly{pArray}, intResult, func(a []value.Value) (value.Value, error) {
		h, err := hashArray(a[0], 0)
		return int4(int64(int32(uint32(h)))), err
	})
	polyStrict("hash_array_extended", []poly{pArray, pBigint}, func(value.Kind) value.Type { return value.Int8Type }, func(a []value.Value) (value.Value, error) {
		h, err := hashArray(a[0], uint64(a[1].Int()))
		return value.NewInt(value.Int8, int64(h)), err
	})
	strict("hash_record", kinds(value.Record), value.Int4Type, func(a []value.Value) (value.Value, error) {
		h, err := hashRecord(a[0], 0)
		return int4(int64(int32(uint32(h)))), err
	})
	strict("hash_record_extended", kinds(value.Record, I8), value.Int8Type, func(a []value.Value) (value.Value, error) {
		h, err := hashRecord(a[0], uint64(a[1].Int()))
		return value.NewInt(value.Int8, int64(h)), err
	})
}

// hashArray is hash_array_extended: the elements' hashes folded as
// result*31 + hash from 1, a NULL element hashing to 0.
func hashArray(v value.Value, seed uint64) (uint64, error) {
	return foldHashes(v.Elems(), 1, seed)
}

// hashRecord is hash_record_extended: the fields' hashes folded as
// hash_array's, from 0; a field of a composite type (or an array of one)
// by hash_record again. A field of an anonymous record, which PostgreSQL
// cannot hash, is refused when the call is bound (checkHashRecordArg).
func hashRecord(v value.Value, seed uint64) (uint64, error) {
	return foldHashes(v.Fields(), 0, seed)
}

// checkHashRecordArg refuses hash_record of a record with a field of an
// anonymous record type (or an array of them) as PostgreSQL does: such a
// record has no hash function. A value alone does not tell it from a
// composite type's, so the check is on the argument's type.
func checkHashRecordArg(name string, args []value.Type) error {
	if name != "hash_record" && name != "hash_record_extended" || len(args) == 0 {
		return nil
	}
	d := args[0].RecordDesc()
	if args[0].Kind != value.Record || d == nil {
		return nil
	}
	for _, f := range d.Fields {
		t := f.Type
		if t.Kind.IsArray() {
			t = t.ElemType()
		}
		if t.IsAnonymousRecord() {
			return pgerr.New(pgerr.UndefinedFunction, "could not identify a hash function for type record")
		}
		if err := checkHashRecordArg(name, []value.Type{t}); err != nil {
			return err
		}
	}
	return nil
}

// foldHashes folds vs' hashes under seed as h*31 + hash from h, a NULL
// hashing to 0: hash_array's and hash_record's loop.
func foldHashes(vs []value.Value, h, seed uint64) (uint64, error) {
	for _, e := range vs {
		var eh uint64
		if !e.IsNull() {
			var err error
			if eh, err = hashKind(e, seed); err != nil {
				return 0, err
			}
		}
		h = h<<5 - h + eh
	}
	return h, nil
}

// hashInt8 is hashint8extended: a bigint folded to 32 bits.
func hashInt8(n int64, seed uint64) uint64 { return hashUint32(foldInt8(n), seed) }

// hashKind is the extended hash of v under seed by its type's default
// hash function in PostgreSQL; a type whose hash is not reproduced here
// is refused (0A000), one without a hash function is PostgreSQL's 42883.
func hashKind(v value.Value, seed uint64) (uint64, error) {
	switch k := v.Kind(); k {
	case value.Bool:
		if v.Bool() {
			return hashUint32(1, seed), nil
		}
		return hashUint32(0, seed), nil
	case value.Int2, value.Int4, value.Date:
		return hashUint32(uint32(int32(v.Int())), seed), nil
	case value.Int8, value.Timestamp, value.TimestampTZ, value.Time:
		return hashInt8(v.Int(), seed), nil
	case value.Oid, value.RegClass, value.RegType, value.RegProc, value.RegProcedure, value.RegNamespace, value.RegRole, value.RegOper, value.RegOperator, value.RegCollation, value.RegConfig, value.Xid, value.Cid:
		return hashUint32(v.OID(), seed), nil
	case value.Float4, value.Float8:
		return hashFloat(v.Float(), seed), nil
	case value.Numeric:
		return hashNumericExtended(v.Decimal(), seed), nil
	case value.Text, value.Varchar, value.Name, value.Bytea, value.UUID, value.MacAddr, value.MacAddr8:
		return hashBytes([]byte(v.Str()), seed), nil
	case value.Char:
		return hashBytes([]byte(strings.TrimRight(v.Str(), " ")), seed), nil
	case value.InternalChar:
		return hashUint32(uint32(int32(int8(v.CharByte()))), seed), nil
	case value.TimeTZ:
		us, zone := v.TimeTZ()
		return hashInt8(us, seed) ^ hashUint32(uint32(zone), seed), nil
	case value.Interval:
		s := v.Span()
		// interval_cmp_value's span, of which the low 64 bits hash.
		span := (int64(s.Months)*30+int64(s.Days))*86400000000 + s.Micros
		return hashInt8(span, seed), nil
	case value.PgLSN:
		return hashInt8(int64(v.LSN()), seed), nil
	case value.Tid:
		// ItemPointerData's six bytes: the block's high and low halves,
		// then the offset, each a little-endian uint16.
		n := v.Int()
		block, off := uint32(n>>16), uint16(n)
		return hashBytes([]byte{byte(block >> 16), byte(block >> 24), byte(block), byte(block >> 8), byte(off), byte(off >> 8)}, seed), nil
	case value.Inet, value.Cidr:
		addr, bits := v.Inet()
		b := make([]byte, 0, 18)
		family := byte(2) // PGSQL_AF_INET
		if len(addr) == 16 {
			family = 3
		}
		b = append(append(b, family, byte(bits)), addr...)
		return hashBytes(b, seed), nil
	case value.JSONB:
		return jsonbHashExtended(v.JSONB(), seed), nil
	case value.Record:
		return hashRecord(v, seed)
	case value.OidVector:
		// hashoidvector: the oids' bytes as the vector holds them.
		b := make([]byte, 0, 4*len(v.Elems()))
		for _, e := range v.Elems() {
			o := e.OID()
			b = append(b, byte(o), byte(o>>8), byte(o>>16), byte(o>>24))
		}
		return hashBytes(b, seed), nil
	default:
		switch {
		case k.IsArray():
			return hashArray(v, seed)
		case k.IsRange():
			return hashRange(v, seed)
		case k.IsMultirange():
			return hashMultirange(v, seed)
		}
		switch k {
		case value.Point, value.LSeg, value.Path, value.Box, value.Polygon, value.Line, value.Circle, value.JSON, value.XML, value.PgSnapshot, value.TxidSnapshot:
			return 0, pgerr.New(pgerr.UndefinedFunction, "could not identify a hash function for type %s", value.Type{Kind: k, Mod: -1})
		}
		return 0, pgerr.New(pgerr.FeatureNotSupported, "hashing values of type %s is not supported", value.Type{Kind: k, Mod: -1})
	}
}
