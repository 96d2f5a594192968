package pgwire_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestInfoSchemaDomainOIDs reads information_schema's columns of its
// domains: the row description gives each its domain's base type, as
// PostgreSQL sends it (sql_identifier name, character_data and yes_or_no
// character varying, cardinal_number integer, time_stamp timestamptz).
func TestInfoSchemaDomainOIDs(t *testing.T) {
	c := connect(t, startServer(t, deltaview.Open()))
	rows, err := c.Query(ctx(t), `SELECT c.table_name, c.data_type, c.is_nullable, c.ordinal_position, t.created
		FROM information_schema.columns c, information_schema.triggers t LIMIT 0`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[19 1043 1043 23 1184]" {
		t.Errorf("OIDs %s", got)
	}
}
