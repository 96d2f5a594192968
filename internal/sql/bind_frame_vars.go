package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// frameOffsetVariables is PostgreSQL's 42P10 error for a frame offset
// that reads a column of the query (ROWS BETWEEN x PRECEDING …), at the
// first column it names. mode is ROWS, GROUPS or RANGE; def is the
// window's location, used when no column is found in n.
func (b *binder) frameOffsetVariables(n *pg_query.Node, mode string, def int32) error {
	loc := nodeLoc(n, def)
	found := false
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		if found {
			return
		}
		if c, ok := m.Interface().(*pg_query.ColumnRef); ok {
			loc, found = c.Location, true
			return
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Kind() != protoreflect.MessageKind || fd.IsMap() {
				return true
			}
			if fd.IsList() {
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message())
				}
			} else {
				walk(v.Message())
			}
			return !found
		})
	}
	walk(n.ProtoReflect())
	return b.stmt.errf(loc, pgerr.InvalidColumnRef, "argument of %s must not contain variables", mode)
}
