package value

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/tsearch"
)

// regconfig is an oid of pg_ts_config. The configurations are built in
// (english and simple, tsearch.Config) and never change, so a regconfig
// value is read and printed without the catalog: in a materialized view,
// in a table's column and from the durable file alike.

// RegConfigType is the type regconfig.
var RegConfigType = Type{RegConfig, -1}

// NewRegConfig returns the regconfig value of configuration c.
func NewRegConfig(c *tsearch.Config) Value { return Value{kind: RegConfig, n: int64(c.OID)} }

// regConfigName is the name the configuration of oid prints, unqualified
// as pg_catalog is always searched; ok is false for an oid none has.
func regConfigName(oid uint32) (string, bool) {
	if c := tsearch.ConfigByOID(oid); c != nil {
		_, n, _ := tsearch.ResolveName(c.Name)
		return n[len("pg_catalog."):], true
	}
	return "", false
}

// parseRegConfig is regconfig's input of a name, maybe qualified by its
// schema, pg_catalog. PostgreSQL's configurations of the other snowball
// languages are 0A000.
func parseRegConfig(s string) (Value, error) {
	n, full, err := tsearch.ResolveName(s)
	switch err {
	case tsearch.ErrNameSyntax:
		return Null, pgerr.New("42602", "invalid name syntax")
	case tsearch.ErrCrossDatabase:
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", full)
	case tsearch.ErrTooManyDots:
		return Null, pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", full)
	}
	if c := tsearch.LookupConfig(n); c != nil {
		return NewRegConfig(c), nil
	}
	if tsearch.IsSnowballLanguage(n) {
		return Null, pgerr.New(pgerr.FeatureNotSupported, "text search configuration %q is not supported", n).
			WithHint("the english and simple configurations are supported")
	}
	return Null, pgerr.New(pgerr.UndefinedObject, "text search configuration \"%s\" does not exist", full)
}

// TSConfigOf returns the configuration a regconfig value names: an oid
// none has is PostgreSQL's failed cache lookup.
func TSConfigOf(v Value) (*tsearch.Config, error) {
	if c := tsearch.ConfigByOID(v.OID()); c != nil {
		return c, nil
	}
	return nil, pgerr.New(pgerr.Internal, "cache lookup failed for text search configuration %d", v.OID())
}
