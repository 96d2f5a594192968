// Package postgres makes a deltaview database able to subscribe to a
// PostgreSQL publication through logical replication:
//
//	import _ "github.com/deltaview/deltaview/source/postgres"
//
//	db := deltaview.Open()
//	defer db.Close()
//	err := db.Exec(`CREATE SUBSCRIPTION s CONNECTION 'host=… dbname=… user=…' PUBLICATION p`)
//
// The subscription creates the publication's tables here, copies them,
// then applies every upstream transaction as one commit, on goroutines
// that DROP SUBSCRIPTION and DB.Close stop. It lives apart from the root
// package so that a program links PostgreSQL's driver only by importing
// it. See docs/postgres-source.md.
package postgres

import (
	// The subscription driver registers itself with the engine.
	_ "github.com/deltaview/deltaview/internal/source/pgrepl"
)
