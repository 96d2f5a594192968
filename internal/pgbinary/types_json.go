package pgbinary

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's OIDs of json, jsonb and jsonpath and of their arrays.
const (
	oidJSON          = 114
	oidJSONB         = 3802
	oidJSONArray     = 199
	oidJSONBArray    = 3807
	oidJSONPath      = 4072
	oidJSONPathArray = 4073
)

// JSONOID returns the OID of a json, jsonb or jsonpath type or of an array of them;
// 0 for other kinds.
func JSONOID(k value.Kind) uint32 {
	switch k {
	case value.JSON:
		return oidJSON
	case value.JSONB:
		return oidJSONB
	case value.ArrayOf(value.JSON):
		return oidJSONArray
	case value.ArrayOf(value.JSONB):
		return oidJSONBArray
	case value.JSONPath:
		return oidJSONPath
	case value.ArrayOf(value.JSONPath):
		return oidJSONPathArray
	}
	return 0
}

// jsonbBinaryVersion is the first byte of jsonb's and jsonpath's binary
// format, before the text.
const jsonbBinaryVersion = 1

// decodeJSONBParam reads a jsonb parameter in binary format: the version
// byte, then the text, passed on as text for jsonb's input function.
func decodeJSONBParam(b []byte, n int) (value.Value, error) {
	if len(b) == 0 || b[0] != jsonbBinaryVersion {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "unsupported jsonb version number in bind parameter %d", n)
	}
	return value.NewText(value.Text, string(b[1:])), nil
}
