package engine

import "github.com/deltaview/deltaview/internal/value"

// An array type's input, output, receive and send functions, as
// pg_type.typinput, typoutput, typreceive and typsend name them, with
// PostgreSQL's oids: drivers tell array types by them (pgjdbc's
// typinput = 'pg_catalog.array_in'::regproc, Rails' typinput =
// 'array_in(cstring,oid,integer)'::regprocedure). They are not callable.
var arrayIOFuncs = []struct {
	oid       uint32
	name, sig string // sig: as regprocedure prints it
}{{750, "array_in", "array_in(cstring,oid,integer)"}, {751, "array_out", "array_out(anyarray)"},
	{2400, "array_recv", "array_recv(internal,oid,integer)"}, {2401, "array_send", "array_send(anyarray)"}}

// arrayIORegs are an array type's typinput, typoutput, typreceive and
// typsend.
func arrayIORegs() [4]value.Value {
	var out [4]value.Value
	for i, f := range arrayIOFuncs {
		out[i] = value.NewReg(value.RegProc, f.oid, f.name)
	}
	return out
}
