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

// vectorIOFuncs are int2vector's and oidvector's typinput, typoutput,
// typreceive and typsend, with PostgreSQL's oids.
var vectorIOFuncs = map[value.Kind][4]struct {
	oid  uint32
	name string
}{
	value.Int2Vector: {{40, "int2vectorin"}, {41, "int2vectorout"}, {2410, "int2vectorrecv"}, {2411, "int2vectorsend"}},
	value.OidVector:  {{54, "oidvectorin"}, {55, "oidvectorout"}, {2420, "oidvectorrecv"}, {2421, "oidvectorsend"}},
}

// vectorIORegs are the vector type k's typinput, typoutput, typreceive
// and typsend.
func vectorIORegs(k value.Kind) [4]value.Value {
	var out [4]value.Value
	for i, f := range vectorIOFuncs[k] {
		out[i] = value.NewReg(value.RegProc, f.oid, f.name)
	}
	return out
}
