package expr

import (
	"bytes"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// convert_to, convert_from, convert and length(bytea, name): text read
// or written in one of PostgreSQL's encodings, through internal/pgenc,
// with PostgreSQL's errors. UTF8 is the database's encoding; SQL_ASCII's
// bytes are taken as they are.

func init() {
	strict("convert_to", kinds(value.Text, value.Text), value.ByteaType, func(a []value.Value) (value.Value, error) {
		enc, err := encodingOf(textOf(a[1]), "destination")
		if err != nil {
			return value.Null, err
		}
		b, err := fromUTF8([]byte(textOf(a[0])), enc)
		if err != nil {
			return value.Null, err
		}
		return value.NewBytea(b), nil
	})
	strict("convert_from", kinds(value.Bytea, value.Text), value.TextType, func(a []value.Value) (value.Value, error) {
		enc, err := encodingOf(textOf(a[1]), "source")
		if err != nil {
			return value.Null, err
		}
		b, err := toUTF8([]byte(a[0].Str()), enc)
		if err != nil {
			return value.Null, err
		}
		return text(string(b)), nil
	})
	strict("convert", kinds(value.Bytea, value.Text, value.Text), value.ByteaType, func(a []value.Value) (value.Value, error) {
		src, err := encodingOf(textOf(a[1]), "source")
		if err != nil {
			return value.Null, err
		}
		dst, err := encodingOf(textOf(a[2]), "destination")
		if err != nil {
			return value.Null, err
		}
		b, err := convertBytes([]byte(a[0].Str()), src, dst)
		if err != nil {
			return value.Null, err
		}
		return value.NewBytea(b), nil
	})
	strict("length", kinds(value.Bytea, value.Text), value.Int4Type, func(a []value.Value) (value.Value, error) {
		enc, ok := pgenc.Lookup(textOf(a[1]))
		if !ok {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "invalid encoding name \"%s\"", textOf(a[1]))
		}
		n, err := lengthIn([]byte(a[0].Str()), enc)
		if err != nil {
			return value.Null, err
		}
		return value.NewInt(value.Int4, int64(n)), nil
	})
}

// encodingOf resolves an encoding name as PostgreSQL's
// pg_char_to_encoding does (any case, punctuation ignored); an unknown
// one is 22023.
func encodingOf(name, which string) (string, error) {
	if enc, ok := pgenc.Lookup(name); ok {
		return enc, nil
	}
	return "", pgerr.New(pgerr.InvalidParameter, "invalid %s encoding name \"%s\"", which, name)
}

// conversion is enc's conversion to and from UTF8; PostgreSQL has none
// for MULE_INTERNAL (42883).
func conversion(enc string, toUTF8 bool) (*pgenc.Encoding, error) {
	e, err := pgenc.Get(enc)
	if err != nil {
		from, to := enc, "UTF8"
		if !toUTF8 {
			from, to = to, from
		}
		return nil, pgerr.New(pgerr.UndefinedFunction, "default conversion function for encoding \"%s\" to \"%s\" does not exist", from, to)
	}
	return e, nil
}

// toUTF8 is convert_from: b in enc, checked, as UTF8.
func toUTF8(b []byte, enc string) ([]byte, error) {
	switch enc {
	case "UTF8", "SQL_ASCII":
		return b, verifyUTF8(b)
	}
	e, err := conversion(enc, true)
	if err != nil {
		// PostgreSQL checks the bytes before it looks for a conversion.
		if verr := verifyIn(b, enc); verr != nil {
			return nil, verr
		}
		return nil, err
	}
	return e.ToUTF8(nil, b)
}

// fromUTF8 is convert_to: b, valid UTF8, in enc.
func fromUTF8(b []byte, enc string) ([]byte, error) {
	switch enc {
	case "UTF8", "SQL_ASCII":
		return b, nil
	}
	e, err := conversion(enc, false)
	if err != nil {
		return nil, err
	}
	return e.FromUTF8(nil, b)
}

// convertBytes is convert: b is checked in src, then, when the two
// differ and neither is SQL_ASCII, converted (from SQL_ASCII, b is
// checked in dst instead): through UTF8 when one side is UTF8, else by
// PostgreSQL's own conversion between the two, where it has one (42883
// where it has none).
func convertBytes(b []byte, src, dst string) ([]byte, error) {
	if err := verifyIn(b, src); err != nil {
		return nil, err
	}
	switch {
	case src == "SQL_ASCII" && dst != src:
		// Nothing converts, but the result must be valid.
		return b, verifyIn(b, dst)
	case src == dst || dst == "SQL_ASCII":
		return b, nil
	case src == "UTF8":
		return fromUTF8(b, dst)
	case dst == "UTF8":
		return toUTF8(b, src)
	}
	d, err := pgenc.GetDirect(src, dst)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, pgerr.New(pgerr.UndefinedFunction, "default conversion function for encoding \"%s\" to \"%s\" does not exist", src, dst)
	}
	return d.Convert(nil, b)
}

// verifyIn is pg_verify_mbstr: the error for the first bytes of b that
// are not valid in enc.
func verifyIn(b []byte, enc string) error {
	switch enc {
	case "UTF8":
		return verifyUTF8(b)
	case "SQL_ASCII":
		return verifyNoNUL(b, enc)
	}
	e, err := pgenc.Checker(enc)
	if err != nil {
		return err
	}
	return e.Verify(b)
}

// verifyNoNUL is 22021 for a NUL, the one byte SQL_ASCII does not allow.
func verifyNoNUL(b []byte, enc string) error {
	if bytes.IndexByte(b, 0) >= 0 {
		return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"%s\": 0x00", enc)
	}
	return nil
}

// verifyUTF8 is 22021 for b's first bytes that are not UTF8, NUL included.
func verifyUTF8(b []byte) error {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == 0 || r == utf8.RuneError && n <= 1 {
			return errByteSequence(string(b[i:]))
		}
		i += n
	}
	return nil
}

// lengthIn is length(b, enc): b's characters in enc, which must be valid.
func lengthIn(b []byte, enc string) (int, error) {
	switch enc {
	case "UTF8":
		if err := verifyUTF8(b); err != nil {
			return 0, err
		}
		return utf8.RuneCount(b), nil
	case "SQL_ASCII":
		return len(b), verifyNoNUL(b, enc)
	}
	e, err := pgenc.Checker(enc)
	if err != nil {
		return 0, err
	}
	return e.Len(b)
}
