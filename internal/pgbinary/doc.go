// Package pgbinary holds PostgreSQL's binary formats of values: each
// type's send and receive format (AppendBinary, DecodeParam), the type
// oids they name, and the binary COPY format (AppendCopyRow, ReadCopy).
// The server's wire protocol speaks them to clients; the engine reads
// and writes binary COPY files with them.
//
// A numeric, for example, is sent as numeric_send sends it:
//
//	AppendBinary(nil, v, value.Numeric) // 1.50 → 0002 0000 0000 0002 0001 1388
package pgbinary
