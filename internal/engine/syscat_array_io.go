package engine

import "github.com/deltaview/deltaview/internal/value"

// An array type's input, output, receive and send functions, as
// pg_type.typinput, typoutput, typreceive and typsend name them, with
// PostgreSQL's oids: drivers tell array types by them (pgjdbc's
// typinput = 'pg_catalog.array_in'::regproc). They are not callable.
var arrayIOFuncs = []struct {
	oid  uint32
	name string
}{{750, "array_in"}, {751, "array_out"}, {2400, "array_recv"}, {2401, "array_send"}}

// arrayIORegs are an array type's typinput, typoutput, typreceive and
// typsend.
func arrayIORegs() [4]value.Value {
	var out [4]value.Value
	for i, f := range arrayIOFuncs {
		out[i] = value.NewReg(value.RegProc, f.oid, f.name)
	}
	return out
}
