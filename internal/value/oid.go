package value

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// An oid is PostgreSQL's object identifier: an unsigned 32-bit integer,
// held in n. The reg* types (regclass, regtype, regproc, regprocedure,
// regnamespace, regrole, regoper, regoperator, regcollation, regconfig) are oids that read and print as the name of the
// object they identify. Looking a name up needs the catalog, which this
// package does not have: the binder resolves the name (or the oid) and
// makes the value with NewReg, which keeps the name beside the oid so
// that the value prints without the catalog. A reg* value made here,
// from a number, has no name and prints its number, as PostgreSQL prints
// the oid of an object that does not exist.

// oidKinds are the kinds of object identifiers, by type name.
var oidKinds = map[string]Kind{"oid": Oid, "regclass": RegClass, "regtype": RegType, "regproc": RegProc,
	"regprocedure": RegProcedure, "regnamespace": RegNamespace, "regrole": RegRole,
	"regoper": RegOper, "regoperator": RegOperator, "regcollation": RegCollation, "regconfig": RegConfig}

// IsOid reports whether k is oid or one of the reg* types.
func (k Kind) IsOid() bool { return k == Oid || k.IsReg() }

// IsReg reports whether k is one of the reg* types.
func (k Kind) IsReg() bool {
	return k > Oid && k <= RegRole || k == RegOper || k == RegOperator || k == RegCollation || k == RegConfig
}

// OidType is the type oid.
var OidType = Type{Oid, -1}

// NewOid returns the oid n.
func NewOid(n uint32) Value { return Value{kind: Oid, n: int64(n)} }

// NewReg returns the value of reg* kind k identifying the object oid,
// named name ("" when there is no such object).
func NewReg(k Kind, oid uint32, name string) Value {
	if name == "" {
		return Value{kind: k, n: int64(oid)}
	}
	return Value{kind: k, n: int64(oid), p: unsafe.Pointer(&name)}
}

// OID returns an oid's or a reg* value's object identifier.
func (v Value) OID() uint32 { return uint32(v.n) }

// RegName returns a reg* value's name; ok is false when it has none.
func (v Value) RegName() (string, bool) {
	switch {
	case v.kind == RegConfig:
		return regConfigName(v.OID())
	case !v.kind.IsReg() || v.p == nil:
		return "", false
	}
	return *(*string)(v.p), true
}

// parseOid is oidin, and the numeric input of the reg* types: an integer
// from -2147483648 to 4294967295, a negative one wrapping around as in
// PostgreSQL; "-" is the reg* types' spelling of 0.
func parseOid(s string, k Kind) (Value, error) {
	t := trimSpace(s)
	if k.IsReg() && t == "-" && k != RegOper && k != RegOperator {
		return Value{kind: k}, nil
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil && !isRangeErr(err) || t == "" || t[0] == '+' && k != Oid {
		if k == RegConfig {
			return parseRegConfig(s)
		}
		if k.IsReg() {
			return Null, pgerr.New(pgerr.FeatureNotSupported, "%s input of a name is supported only in a cast", k).
				WithHint("write the name as 'name'::%s", k)
		}
		return Null, errSyntax(k, s)
	}
	if err != nil || n < math.MinInt32 || n > math.MaxUint32 {
		return Null, pgerr.New(pgerr.NumericOutOfRange, "value %q is out of range for type %s", s, k)
	}
	return Value{kind: k, n: int64(uint32(n))}, nil
}

// appendOid is oidout, and the reg* types' output: the name, "-" for 0
// ("0" for regoper and regoperator, as PostgreSQL prints them), the
// number for an object that has none.
func appendOid(buf []byte, v Value) []byte {
	if name, ok := v.RegName(); ok {
		return append(buf, name...)
	}
	if v.kind.IsReg() && v.n == 0 && v.kind != RegOper && v.kind != RegOperator {
		return append(buf, '-')
	}
	return strconv.AppendUint(buf, uint64(uint32(v.n)), 10)
}

// oidCastable reports whether PostgreSQL casts from to to among the
// integers, oid and the reg* types: the integers to any of them, oid to
// and from each reg* type, implicitly; oid and the reg* types to int4 and
// int8 on assignment, which is explicit here.
func oidCastable(from, to Kind, explicit bool) (castable, known bool) {
	switch {
	case !from.IsOid() && !to.IsOid():
		return false, false
	case from.IsInteger() && to.IsOid():
		return true, true
	case from == Oid && to.IsReg(), from.IsReg() && to == Oid:
		return true, true
	case from == RegProc && to == RegProcedure, from == RegProcedure && to == RegProc,
		from == RegOper && to == RegOperator, from == RegOperator && to == RegOper:
		return true, true // binary-coercible: the same oid, named with or without its arguments
	case from.IsOid() && (to == Int4 || to == Int8):
		return explicit, true
	}
	return false, false
}

// convertOid converts among the integers, oid and the reg* types. An
// int8 out of the range oid's input takes is an error; a reg* value
// made from a number has no name.
func convertOid(v Value, to Kind) (Value, error) {
	switch {
	case v.kind.IsInteger():
		if v.n < math.MinInt32 || v.n > math.MaxUint32 {
			return Null, pgerr.New(pgerr.NumericOutOfRange, "OID out of range")
		}
		return Value{kind: to, n: int64(uint32(v.n))}, nil
	case to == Int4:
		return NewInt(Int4, int64(int32(uint32(v.n)))), nil
	case to == Int8:
		return NewInt(Int8, int64(uint32(v.n))), nil
	case to == Oid:
		return NewOid(uint32(v.n)), nil
	}
	return Value{kind: to, n: v.n}, nil
}
