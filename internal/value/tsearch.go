package value

import (
	"errors"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/tsearch"
)

// A tsvector or a tsquery points at its stored form, internal/tsearch's
// Vector or Query: bytes whose order is PostgreSQL's order of the type,
// so that Compare and the key encoding treat them as strings.

// TSVectorType and TSQueryType have no modifier.
var (
	TSVectorType = Type{TSVector, -1}
	TSQueryType  = Type{TSQuery, -1}
)

// NewTSVector returns a tsvector.
func NewTSVector(v tsearch.Vector) Value {
	return Value{kind: TSVector, p: unsafe.Pointer(unsafe.StringData(string(v))), n: int64(len(v))}
}

// NewTSQuery returns a tsquery.
func NewTSQuery(q tsearch.Query) Value {
	return Value{kind: TSQuery, p: unsafe.Pointer(unsafe.StringData(string(q))), n: int64(len(q))}
}

func (v Value) textSearchBytes() string { return unsafe.String((*byte)(v.p), int(v.n)) }

// TSVector returns a tsvector's vector; "" for another kind.
func (v Value) TSVector() tsearch.Vector {
	if v.kind != TSVector {
		return ""
	}
	return tsearch.Vector(v.textSearchBytes())
}

// TSQuery returns a tsquery's query; "" for another kind.
func (v Value) TSQuery() tsearch.Query {
	if v.kind != TSQuery {
		return ""
	}
	return tsearch.Query(v.textSearchBytes())
}

// parseTextSearch is the input function of tsvector and tsquery.
func parseTextSearch(s string, k Kind) (Value, error) {
	if k == TSVector {
		tv, err := tsearch.ParseVector(s)
		if err != nil {
			return Null, TextSearchError(err)
		}
		return NewTSVector(tv), nil
	}
	q, err := tsearch.ParseQuery(s)
	if err != nil {
		return Null, TextSearchError(err)
	}
	return NewTSQuery(q), nil
}

// TextSearchError turns an error of internal/tsearch into a *pgerr.Error
// with its SQLSTATE; other errors are returned as they are.
func TextSearchError(err error) error {
	var e *tsearch.Error
	if errors.As(err, &e) {
		return pgerr.New(e.Code, "%s", e.Msg)
	}
	return err
}
