package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// valueMarker stands for VALUE while a domain's CHECK is written: a name
// no statement writes, which the deparser quotes.
const valueMarker = "dv value marker"

// domainCheckSQL is the text of a domain's CHECK expression as
// pg_get_constraintdef prints it: VALUE, the value checked, in capitals.
func domainCheckSQL(raw *pg_query.Node) (string, error) {
	n := proto.Clone(raw).(*pg_query.Node)
	walk(n.ProtoReflect(), func(m protoreflect.Message) {
		if cr, ok := m.Interface().(*pg_query.ColumnRef); ok && len(cr.Fields) == 1 && cr.Fields[0].GetString_().GetSval() == "value" {
			cr.Fields[0] = pg_query.MakeStrNode(valueMarker)
		}
	})
	text, err := deparseExpr(n)
	return strings.ReplaceAll(text, `"`+valueMarker+`"`, "VALUE"), err
}
