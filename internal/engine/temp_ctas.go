package engine

import (
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// createTempAs runs CREATE TEMP TABLE … AS and SELECT … INTO TEMP: the
// query's rows are computed first, then the session's temporary table is
// made (createTemp: never stored) and filled in one commit, or inside the
// session's transaction block. When the fill fails the table is dropped
// again: the statement leaves nothing.
func (s *Session) createTempAs(c *sql.CreateTableAs) (Result, error) {
	e := s.e
	var rows []value.Row
	if !c.NoData {
		var err error
		if rows, err = e.ctasRows(c.Query); err != nil {
			return Result{}, err
		}
	}
	res, err := s.createTemp(c.Table)
	if err != nil || res.Notices != nil { // IF NOT EXISTS of one there
		if err == nil {
			res.Tag = "CREATE TABLE AS"
		}
		return res, err
	}
	if c.NoData {
		return Result{Tag: "CREATE TABLE AS"}, nil
	}
	name := s.temps[c.Table.Name].name
	t := e.tables[name]
	_, err = e.autocommit(func() (Result, error) {
		for _, row := range rows {
			if _, err := e.insertRow(t, row); err != nil {
				return Result{}, err
			}
		}
		return Result{}, nil
	})
	if err != nil {
		s.dropTemps(func(tt *tempTable) bool { return tt.name != name })
		return Result{}, err
	}
	return Result{Tag: countTag("SELECT ", len(rows))}, nil
}
