package engine

import (
	"io"

	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/sql"
)

// COPY's data is in its ENCODING, or the session's client_encoding
// without one: COPY … FROM converts it to UTF8 as it reads, COPY … TO
// converts its lines from UTF8. UTF8 and SQL_ASCII are read as they are
// (and checked to be valid UTF8), as PostgreSQL does in a UTF8 database.

// copyEncoding is the encoding a COPY's data is in.
func (s *Session) copyEncoding(o *sql.CopyOptions) (*pgenc.Encoding, error) {
	name := o.Encoding
	if name == "" {
		name, _ = s.setting("client_encoding")
	}
	if name == "" {
		return nil, nil
	}
	if enc, ok := pgenc.Lookup(name); ok {
		name = enc
	}
	return pgenc.Get(name)
}

// decodeCopy returns r converted from enc to UTF8; r itself for none.
func decodeCopy(r io.Reader, enc *pgenc.Encoding) io.Reader {
	if enc == nil {
		return r
	}
	return enc.NewReader(r)
}

// encodeCopyOut converts a COPY … TO's text from UTF8 to enc, line by
// line (CSV lines may hold line ends: Ends says where they end). On a
// character enc lacks, out keeps the lines before its line, which
// PostgreSQL sends before the error.
func encodeCopyOut(out *CopyOut, enc *pgenc.Encoding) error {
	if enc == nil || len(out.Data) == 0 {
		return nil
	}
	data := make([]byte, 0, len(out.Data))
	start := 0
	for i, end := range out.Ends {
		var err error
		n := len(data)
		if data, err = enc.FromUTF8(data, out.Data[start:end]); err != nil {
			out.Data, out.Ends = data[:n], out.Ends[:i]
			return err
		}
		start, out.Ends[i] = end, len(data)
	}
	out.Data = data
	return nil
}
