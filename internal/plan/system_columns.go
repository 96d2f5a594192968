package plan

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// SystemColumns are the system columns of a table, in PostgreSQL's order
// of attnum from -1: ctid, xmin, cmin, xmax, cmax, tableoid. A query may
// name them; * does not list them.
var SystemColumns = []Column{
	{Name: "ctid", Type: value.TidType},
	{Name: "xmin", Type: value.XidType},
	{Name: "cmin", Type: value.CidType},
	{Name: "xmax", Type: value.XidType},
	{Name: "cmax", Type: value.CidType},
	{Name: "tableoid", Type: value.OidType},
}

// RowSystemColumns is the number of SystemColumns that tell rows apart
// (all but tableoid, a constant of the table): a scan of
// SystemRelation(t) reads them.
const RowSystemColumns = 5

// systemSuffix marks a relation name of a Scan that reads a table's rows
// each followed by its row system columns; no name of a relation holds a
// NUL.
const systemSuffix = "\x00system"

// SystemRelation is the relation a Scan names to read table's rows, each
// followed by the first RowSystemColumns of SystemColumns. A source
// (exec.Source) that stores tables answers it.
func SystemRelation(table string) string { return table + systemSuffix }

// SystemTable returns the table a SystemRelation reads; ok is false for
// any other relation name.
func SystemTable(relation string) (table string, ok bool) {
	return strings.CutSuffix(relation, systemSuffix)
}

// The row system columns of a stored row, from its row id:
//
//   - ctid is the row id as a place, 65535 rows a block from (0,1);
//   - xmin is 2, PostgreSQL's frozen transaction id (rows keep no
//     transaction ids: a row a reader sees is committed, or the reader's
//     own); xmax, cmin and cmax are 0, as for a row no transaction
//     deleted or locked.
const (
	rowsPerBlock = 65535
	frozenXid    = 2
)

// SystemValues returns the row system columns of the row with id (from 1).
func SystemValues(id uint64) [RowSystemColumns]value.Value {
	return [RowSystemColumns]value.Value{
		value.NewTid(uint32((id-1)/rowsPerBlock), uint16((id-1)%rowsPerBlock+1)),
		value.NewXid(frozenXid), value.NewCid(0), value.NewXid(0), value.NewCid(0),
	}
}
