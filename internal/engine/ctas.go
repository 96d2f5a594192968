package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// createTableAs runs CREATE TABLE … AS and SELECT … INTO: the query's rows
// are computed first, then the table is created (recorded in the store by
// a CREATE TABLE of its columns) and filled in one commit. When the
// commit fails the table is dropped again: the statement leaves nothing.
func (e *Engine) createTableAs(c *sql.CreateTableAs) (Result, error) {
	ct := c.Table
	if _, ok := e.Relation(ct.Name); ok || e.indexes[ct.Name] != nil {
		if ct.IfNotExists {
			return Result{Tag: "CREATE TABLE AS", Notices: []string{fmt.Sprintf("relation %q already exists, skipping", e.bareName(ct.Name))}}, nil
		}
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(ct.Name))
	}
	var rows []value.Row
	if !c.NoData {
		var err error
		if rows, err = e.ctasRows(c.Query); err != nil {
			return Result{}, err
		}
	}
	if _, ok := e.Relation(ct.Name); ok || e.indexes[ct.Name] != nil {
		// PL/pgSQL code the query called created it (routine_catalog.go).
		return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(ct.Name))
	}
	e.tables[ct.Name] = newTable(ct)
	if err := e.storeCreate(ct.Name, KindTable, ct.SQL()); err != nil {
		return Result{}, err
	}
	if c.NoData {
		return Result{Tag: "CREATE TABLE AS"}, nil
	}
	t := e.tables[ct.Name]
	_, err := e.autocommit(func() (Result, error) {
		for _, row := range rows {
			if _, err := e.insertRow(t, row); err != nil {
				return Result{}, err
			}
		}
		return Result{}, nil
	})
	if err != nil {
		e.dropAll([]string{ct.Name}, map[string]bool{ct.Name: true})
		if e.store != nil {
			e.store.Drop([]string{ct.Name})
		}
		return Result{}, err
	}
	return Result{Tag: countTag("SELECT ", len(rows))}, nil
}
