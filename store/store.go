// Package store lets deltaview.OpenFile keep a database in a SQLite file:
// import it for its effect,
//
//	import _ "github.com/deltaview/deltaview/store"
//
// It is its own package so that a program that embeds deltaview links a
// SQLite driver only when it keeps its data in a file.
package store

import (
	"io"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/engine"
	istore "github.com/deltaview/deltaview/internal/store"
)

func init() {
	dbaccess.OpenStore = func(path string, e *engine.Engine) (io.Closer, error) {
		return istore.OpenEngine(path, e, istore.Options{})
	}
}
