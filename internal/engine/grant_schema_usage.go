package engine

import "github.com/deltaview/deltaview/internal/pgerr"

// schemasAllowed returns 42501 unless the session's role holds USAGE on
// the schema of each object keyed keys, as PostgreSQL's lookup of a
// qualified name checks it before a GRANT or REVOKE looks at the
// object's privileges (the object's owner needs it too); superusers pass.
func (s *Session) schemasAllowed(keys []string) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	for _, key := range keys {
		if s.schemaAllowed(key) != nil {
			name, _ := s.e.splitKey(key)
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", name) // without a HINT, as PostgreSQL's
		}
	}
	return nil
}
