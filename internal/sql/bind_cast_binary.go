package sql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// CREATE CAST … WITHOUT FUNCTION declares the types binary-coercible:
// PostgreSQL then reads the source's bytes as the target's. Its checks
// come first, with its errors (42P17): the types must have the same
// length, passing and alignment, and neither be a composite type, an
// enum, an array or a domain. Of the pairs that pass them, the engine
// converts those between string types (text, varchar, char, json, xml)
// as WITH INOUT does: the same value, where PostgreSQL checks nothing (a
// json or xml target here reads the text as the type's input does, so
// text that is not json is 22P02 where PostgreSQL keeps it). Other pairs
// (int4 AS date, bytea AS text, ranges) are refused (0A000).

// physical is a type's storage as pg_type has it: typlen, typbyval,
// typalign.
type physical struct {
	len   int16
	byval bool
	align byte
}

func typePhysical(t value.Type) physical {
	switch {
	case t.Enum() != nil:
		return physical{4, true, 'i'}
	case t.Kind == value.Record:
		return physical{-1, false, 'd'}
	case t.Kind.IsArray():
		p := typePhysical(value.Type{Kind: t.Kind.Elem(), Mod: -1})
		if p.align != 'd' {
			p.align = 'i'
		}
		return physical{-1, false, p.align}
	case t.UserRange() != nil:
		// A range is aligned as its subtype, at least on 4 bytes.
		if typePhysical(t.UserRange().Subtype).align == 'd' {
			return physical{-1, false, 'd'}
		}
		return physical{-1, false, 'i'}
	}
	for _, b := range value.BuiltinTypes {
		if b.Kind == t.Kind {
			return physical{b.Len, b.ByVal, b.Align}
		}
	}
	return physical{-1, false, 'd'}
}

// binaryStrings are the types a binary-coercible cast converts between.
var binaryStrings = map[value.Kind]bool{value.Text: true, value.Varchar: true, value.Char: true, value.JSON: true, value.XML: true}

// binaryCast checks a cast WITHOUT FUNCTION as PostgreSQL does, and
// marks c binary when the engine converts it.
func (b *binder) binaryCast(c *UserCast, st, tt value.Type, sdom, ddom bool, loc int32) error {
	if typePhysical(st) != typePhysical(tt) {
		return pgerr.New(codeInvalidObjectDef, "source and target data types are not physically compatible")
	}
	switch {
	case st.Kind == value.Record || tt.Kind == value.Record:
		return pgerr.New(codeInvalidObjectDef, "composite data types are not binary-compatible")
	case st.Enum() != nil || tt.Enum() != nil:
		return pgerr.New(codeInvalidObjectDef, "enum data types are not binary-compatible")
	case st.Kind.IsArray() || tt.Kind.IsArray():
		return pgerr.New(codeInvalidObjectDef, "array data types are not binary-compatible")
	case sdom || ddom:
		return pgerr.New(codeInvalidObjectDef, "domain data types must not be marked binary-compatible")
	}
	if !binaryStrings[st.Kind] || !binaryStrings[tt.Kind] || st.UserRange() != nil || tt.UserRange() != nil {
		return b.refuse(loc, "CREATE CAST (%s AS %s) WITHOUT FUNCTION is not supported", c.Source, c.Target).
			WithHint("a cast without function is supported between text, varchar, char, json and xml; write WITH INOUT, or WITH FUNCTION and a function that converts the value")
	}
	c.Binary = true
	return nil
}

// pgCastExists reports whether PostgreSQL 15 has a built-in cast from st
// to tt, both built-in types.
func pgCastExists(st, tt value.Type) bool {
	oid := func(t value.Type) uint32 {
		if t.Enum() != nil || t.UserRange() != nil || t.Kind == value.Record {
			return 0
		}
		for _, b := range value.BuiltinTypes {
			switch {
			case b.Kind == t.Kind:
				return b.OID
			case t.Kind.IsArray() && b.Kind == t.Kind.Elem():
				return b.ArrayOID
			}
		}
		return 0
	}
	s, t := oid(st), oid(tt)
	return s != 0 && t != 0 && value.PGCastExists(s, t)
}
