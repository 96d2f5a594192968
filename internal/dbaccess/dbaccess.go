// Package dbaccess lets the module's public packages that serve a DB
// (the PostgreSQL wire protocol) open engine sessions on it, without the
// root package exporting its engine or linking what those packages link.
package dbaccess

import (
	"io"

	"github.com/deltaview/deltaview/internal/engine"
)

// NewSession opens a session, with the DB's settings, on db, a
// *deltaview.DB; the root package sets it when it is initialised.
var NewSession func(db any) *engine.Session

// OpenStore opens the store of record at path and loads it into e, an
// empty engine; the closer closes the file. The package that links the
// store's driver sets it when it is imported; nil until then.
var OpenStore func(path string, e *engine.Engine) (io.Closer, error)

// Engine returns the engine of db, a *deltaview.DB: for the servers'
// look-ups of roles when they let clients in.
var Engine func(db any) *engine.Engine
