package pgwire_test

import (
	"net/netip"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestConnectionAddresses checks inet_client_addr(), inet_client_port(),
// inet_server_addr(), inet_server_port() and pg_stat_activity's client
// columns against the addresses of the client's own TCP connection, and
// that a session of no connection (the Go API) gets NULLs, as a Unix
// socket's does in PostgreSQL.
func TestConnectionAddresses(t *testing.T) {
	db := deltaview.Open()
	c := connect(t, startServer(t, db))
	local := netip.MustParseAddrPort(c.PgConn().Conn().LocalAddr().String())
	remote := netip.MustParseAddrPort(c.PgConn().Conn().RemoteAddr().String())
	var client, server, actAddr netip.Prefix
	var clientPort, serverPort, actPort int32
	if err := c.QueryRow(ctx(t), `SELECT inet_client_addr(), inet_client_port(), inet_server_addr(), inet_server_port(), client_addr, client_port
FROM pg_stat_activity WHERE pid = pg_backend_pid()`).Scan(&client, &clientPort, &server, &serverPort, &actAddr, &actPort); err != nil {
		t.Fatal(err)
	}
	if client.Addr() != local.Addr() || uint16(clientPort) != local.Port() || actAddr.Addr() != local.Addr() || uint16(actPort) != local.Port() {
		t.Errorf("client %v:%d, pg_stat_activity %v:%d; the connection's local address is %v", client, clientPort, actAddr, actPort, local)
	}
	if server.Addr() != remote.Addr() || uint16(serverPort) != remote.Port() {
		t.Errorf("server %v:%d; the connection's remote address is %v", server, serverPort, remote)
	}
	rs, err := db.Query(`SELECT inet_client_addr(), inet_client_port(), inet_server_addr(), inet_server_port()`)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range rs.Rows[0] {
		if !v.IsNull() {
			t.Errorf("column %d in the Go API: %v, want NULL", i, v)
		}
	}
}
