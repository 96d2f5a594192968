package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Statistics objects live in schemas, as PostgreSQL's: e.stats keys them
// as relations are keyed, "s.name" and public's by their names, and a
// statement's name is resolved as PostgreSQL resolves it: a qualified
// name in its schema (3F000 when that does not exist), an unqualified one
// through the search path, a new one in the path's first schema. The
// store keeps each object as its statement naming it by its key, which
// the path of the session that opens a file resolves again.

// statsLookup is the key of the statistics object n names through path;
// found is false when there is none, key then the name as written.
func (e *Engine) statsLookup(path []string, n sql.StatsName) (key string, found bool, err error) {
	switch {
	case n.Schema == "pg_catalog" || n.Schema == "information_schema" || n.Schema == "pg_temp":
		return n.String(), false, nil
	case n.Schema != "":
		if !e.schemaExists(n.Schema) {
			return "", false, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", n.Schema)
		}
		k := schemaKey(n.Schema, n.Name)
		if e.stats[k] == nil {
			return n.String(), false, nil
		}
		return k, true, nil
	}
	for _, s := range path {
		if k := schemaKey(s, n.Name); e.stats[k] != nil {
			return k, true, nil
		}
	}
	return n.Name, false, nil
}

// statsCreationKey is the key of a statistics object CREATE STATISTICS
// or SET SCHEMA makes in schema ("" for the path's first).
func (e *Engine) statsCreationKey(path []string, schema, name string) (string, error) {
	switch {
	case schema == "pg_catalog" || schema == "information_schema":
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schema)
	case schema == "":
		if len(path) == 0 {
			return "", pgerr.New(pgerr.InvalidSchemaName, "no schema has been selected to create in")
		}
		schema = path[0]
	case !e.schemaExists(schema):
		return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
	}
	return schemaKey(schema, name), nil
}

// statsQualified is the object keyed key as a statement names it,
// qualified by its schema, so that any search path finds it.
func (e *Engine) statsQualified(key string) string {
	schema, name := e.splitKey(key)
	return expr.QuoteIdent(schema) + "." + expr.QuoteIdent(name)
}

// statsVisible reports, by oid, whether each statistics object is the
// one its name finds through path (pg_statistics_obj_is_visible).
func (e *Engine) statsVisible(path []string) map[uint32]bool {
	out := make(map[uint32]bool, len(e.stats))
	for key := range e.stats {
		schema, name := e.splitKey(key)
		vis := false
		for _, s := range path {
			if k := schemaKey(s, name); e.stats[k] != nil {
				vis = s == schema
				break
			}
		}
		out[objectOID("statistic_ext", key)] = vis
	}
	return out
}

// statsDescribed names the statistics object keyed key as PostgreSQL's
// object descriptions do: bare when the path finds it, else qualified.
func (e *Engine) statsDescribed(path []string, key string) string {
	schema, name := e.splitKey(key)
	if e.statsVisible(path)[objectOID("statistic_ext", key)] {
		return "statistics object " + expr.QuoteIdent(name)
	}
	return "statistics object " + expr.QuoteIdent(schema) + "." + expr.QuoteIdent(name)
}

// statsInSchema lists the keys of the statistics objects of schema but
// those on a table of one of the schemas dropped, which go with their
// table unnamed, as PostgreSQL's auto dependencies go.
func (e *Engine) statsInSchema(schema string, dropped []string) []string {
	var out []string
	for _, key := range sortedKeys(e.stats) {
		s, _ := e.splitKey(key)
		ts, _ := e.splitKey(e.stats[key].table)
		if s == schema && !slices.Contains(dropped, ts) {
			out = append(out, key)
		}
	}
	return out
}

// moveStatistics runs ALTER STATISTICS key SET SCHEMA schema.
func (e *Engine) moveStatistics(path []string, key, schema string) (Result, error) {
	res := Result{Tag: "ALTER STATISTICS"}
	if schema == "pg_catalog" || schema == "information_schema" || schema == "pg_toast" || schema == "pg_temp" {
		return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of system schemas")
	}
	if schema != "public" && !e.schemaExists(schema) {
		return Result{}, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
	}
	st := e.stats[key]
	_, name := e.splitKey(key)
	next := schemaKey(schema, name)
	if next == key {
		return res, nil
	}
	if e.stats[next] != nil {
		return Result{}, pgerr.New(pgerr.DuplicateObject, "statistics object %q already exists in schema %q", name, schema)
	}
	moved := *st
	moved.name = next
	if err := e.storeStats(key, &moved); err != nil {
		return Result{}, err
	}
	if err := e.moveObjectComments(key, next, "statistics"); err != nil {
		return Result{}, err
	}
	delete(e.stats, key)
	e.stats[next] = &moved
	return res, nil
}

// dropStatsInSchema drops the statistics objects left in schema (those
// on its tables went with them), each named in a notice.
func (e *Engine) dropStatsInSchema(path []string, schema string, keys []string) ([]string, error) {
	var gone, notices []string
	for _, k := range keys {
		if e.stats[k] != nil {
			gone = append(gone, k)
		}
		notices = append(notices, "drop cascades to "+e.statsDescribed(path, k))
	}
	if len(gone) == 0 {
		return notices, nil
	}
	d := &sql.DropStatistics{}
	for _, k := range gone {
		_, name := e.splitKey(k)
		d.Names = append(d.Names, sql.StatsName{Schema: schema, Name: name})
	}
	if _, err := e.dropStatistics(d, path); err != nil {
		return nil, fmt.Errorf("drop statistics of schema %s: %w", schema, err)
	}
	return notices, nil
}

// statsSchemaLines are the DETAIL lines of DROP SCHEMA for the
// statistics objects of the schemas in names.
func (e *Engine) statsSchemaLines(path []string, names []string) []string {
	var out []string
	for _, n := range names {
		for _, k := range e.statsInSchema(n, names) {
			out = append(out, e.statsDescribed(path, k)+" depends on schema "+n)
		}
	}
	return out
}

// statsComment is COMMENT ON STATISTICS c with the object's name, as
// written, resolved to its key through the session's path; other
// comments as they are.
func (s *Session) statsComment(c *sql.Comment) *sql.Comment {
	if c.Kind != sql.CommentStatistics {
		return c
	}
	n := sql.StatsName{Name: c.Object}
	if i := strings.IndexByte(c.Object, '.'); i > 0 && (s.e.schemaExists(c.Object[:i]) || c.Object[:i] == "public") {
		n = sql.StatsName{Schema: c.Object[:i], Name: c.Object[i+1:]}
	}
	out := *c
	if key, _, err := s.e.statsLookup(s.searchPath(), n); err == nil {
		out.Object = key
	}
	return &out
}
