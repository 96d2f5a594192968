// The place of the session's temporary schema in its search path: first,
// before pg_catalog, when search_path does not name pg_temp, as
// PostgreSQL searches it; where search_path names it otherwise, so that
// the relations and types of the schemas listed before it hide the
// session's of the same names. Functions are never looked up there
// unqualified, wherever it is.
package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/ident"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// tempBefore is the schemas of the search path (those that exist and may
// be used) searched before the session's temporary schema, and whether
// search_path names pg_temp at all.
func (s *Session) tempBefore() ([]string, bool) {
	if s.pathOverride != nil {
		return nil, false
	}
	v, _ := s.setting("search_path")
	parts, _ := ident.Split(v, ',')
	i := slices.Index(parts, "pg_temp")
	if i < 0 {
		return nil, false
	}
	listed := parts[:i]
	var out []string
	for _, p := range s.searchPath() {
		if slices.Contains(listed, p) || p == s.userName() && slices.Contains(listed, "$user") {
			out = append(out, p)
		}
	}
	return out, true
}

// createsInTemp reports whether the session's temporary schema is where
// unqualified objects are created: search_path names pg_temp before
// any schema that exists and may be used.
func (s *Session) createsInTemp() bool {
	before, named := s.tempBefore()
	return named && len(before) == 0
}

// tempAt is where the session's temporary schema is in its search path,
// as nameScope.tempAt holds it.
func (s *Session) tempAt() int {
	before, named := s.tempBefore()
	if !named {
		return -1
	}
	return len(before)
}

// tempHidden reports whether an unqualified name finds an object of a
// schema searched before the session's temporary schema, which then
// hides the session's object of that name; has tells whether a key
// names one.
func (s *Session) tempHidden(before []string, name string, has func(key string) bool) bool {
	for _, sc := range before {
		if has(schemaKey(sc, name)) {
			return true
		}
	}
	return false
}

// ownTempSchema is the name of the session's temporary schema
// ("pg_temp_3"), "" while it has none.
func (s *Session) ownTempSchema() string {
	return strings.TrimSuffix(s.tempNS, ".")
}

// otherTempSchema reports whether schema is the name of a temporary
// schema ("pg_temp_N") other than the session's own.
func (s *Session) otherTempSchema(schema string) bool {
	n, ok := strings.CutPrefix(schema, tempPrefix)
	if !ok || n == "" || schema == s.ownTempSchema() {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// otherTempError is PostgreSQL's error for a statement reading or
// changing another session's temporary relation.
func otherTempError() error {
	return pgerr.New(pgerr.FeatureNotSupported, "cannot access temporary tables of other sessions")
}

// tempPathNS is what the temporary schema's place adds to a binding's
// namespace (bindNS): a binding made with pg_temp elsewhere in the path
// resolves names otherwise.
func (s *Session) tempPathNS() string {
	if at := s.tempAt(); at >= 0 {
		return fmt.Sprintf("pg_temp@%d;", at)
	}
	return ""
}
