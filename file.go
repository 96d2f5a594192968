package deltaview

import (
	"io"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// OpenFile opens the database kept in the SQLite file at path, creating
// the file when it does not exist: tables load from the file and views
// are built again from them, in the order they were created. Every commit
// is written to the file before it returns (see docs/durability.md), and
// a commit the file cannot take (a full disk: SQLSTATE 53100; an I/O
// error: 58030) is refused, leaving the database as it was.
//
// The SQLite driver comes with the package github.com/deltaview/deltaview/store,
// which the program imports for its effect; without it OpenFile fails
// with SQLSTATE 0A000.
func OpenFile(path string) (*DB, error) { return OpenFileWith(path, Options{}) }

// OpenFileWith is OpenFile configured by o. o.Progress is told of each
// view's rebuild.
func OpenFileWith(path string, o Options) (*DB, error) {
	if dbaccess.OpenStore == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "no store is linked to open %q", path).
			WithHint(`import _ "github.com/deltaview/deltaview/store"`)
	}
	db := OpenWith(o)
	c, err := dbaccess.OpenStore(path, db.e)
	if err != nil {
		return nil, err
	}
	db.file = c
	return db, nil
}

// Close stops the database's subscriptions (CREATE SUBSCRIPTION: their
// goroutines end, their replication slots are kept) and closes its file,
// if it has one (its changes are already durable). A database in memory
// stays readable and writable; one kept in a file must not be used after.
func (db *DB) Close() error {
	db.clock.close()
	db.e.Close()
	if db.file == nil {
		return nil
	}
	c := db.file
	db.file = nil
	return db.e.CloseStore(c)
}

var _ io.Closer = (*DB)(nil)
