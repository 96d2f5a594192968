package engine

import "github.com/deltaview/deltaview/internal/value"

// TypeNameOf returns the name of the type with oid as regtype prints it to
// the session (qualified where its schema is out of the search path), and
// whether such a type exists: for a parameter type that the protocol's
// Parse message declares by an oid that is not a built-in type's (an
// enum, a composite, a domain, an extension's type).
func (s *Session) TypeNameOf(oid uint32) (string, bool) {
	e := s.e
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.sysCatalogFor(s.searchPath(), "").Name(value.RegType, oid)
}
