package pgwire_test

import (
	"fmt"
	"net"
	"net/netip"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestPgxNetworkTypes reads and writes inet, cidr, macaddr and macaddr8
// through pgx: the types have PostgreSQL's OIDs, so pgx decodes them from
// the binary format, and parameters sent in binary are read back, in
// every query mode.
func TestPgxNetworkTypes(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	if _, err := c.Exec(ctx(t), `CREATE TABLE h (id int PRIMARY KEY, a inet, n cidr, m macaddr, m8 macaddr8)`); err != nil {
		t.Fatal(err)
	}
	a := netip.MustParsePrefix("192.168.1.5/24")
	mac, _ := net.ParseMAC("08:00:2b:01:02:03")
	for i, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var m any = mac // binary where the statement says its type, else pgx sends the bytes as a bytea's text
		if mode != pgx.QueryExecModeCacheStatement {
			m = mac.String()
		}
		if _, err := c.Exec(ctx(t), `INSERT INTO h VALUES ($1, $2, $3, $4, '08:00:2b:01:02:03:04:05')`, mode, i, a, netip.MustParsePrefix("2001:db8::/32"), m); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		var ga, gn netip.Prefix
		var gm net.HardwareAddr
		var s string
		if err := c.QueryRow(ctx(t), `SELECT a, n, m, a::text || ' ' || n::text || ' ' || m::text || ' ' || m8::text FROM h WHERE id = $1`, mode, i).Scan(&ga, &gn, &gm, &s); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if got := fmt.Sprint(ga, " ", gn, " ", gm, " ", s); got != "192.168.1.5/24 2001:db8::/32 08:00:2b:01:02:03 192.168.1.5/24 2001:db8::/32 08:00:2b:01:02:03 08:00:2b:01:02:03:04:05" {
			t.Errorf("mode %v: got %s", mode, got)
		}
	}
	rows, err := c.Query(ctx(t), `SELECT a, n, m, m8, ARRAY[a], ARRAY[n], ARRAY[m], ARRAY[m8] FROM h`)
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range rows.FieldDescriptions() {
		oids = append(oids, f.DataTypeOID)
	}
	rows.Close()
	if got := fmt.Sprint(oids); got != "[869 650 829 774 1041 651 1040 775]" {
		t.Errorf("OIDs %s", got)
	}
}
