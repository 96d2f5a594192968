package expr

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/value"
)

// An anonymous record (ROW(…)) as json: its fields are named f1, f2, …,
// as PostgreSQL names them, each value as to_json writes it.
func init() {
	strictJSON("row_to_json", kinds(value.Record), value.JSONType, func(a []value.Value, o jsonOut) (value.Value, error) {
		return value.NewJSON(string(appendRecordJSON(nil, a[0], o))), nil
	})
}

func appendRecordJSON(buf []byte, v value.Value, o jsonOut) []byte {
	buf = append(buf, '{')
	for i, f := range v.Fields() {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(strconv.AppendInt(append(buf, `"f`...), int64(i+1), 10), `":`...)
		buf = appendJSON(buf, f, o)
	}
	return append(buf, '}')
}
