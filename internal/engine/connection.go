package engine

import (
	"net"
	"net/netip"

	"github.com/deltaview/deltaview/internal/value"
)

// SetConnection records the addresses of the TCP connection the session
// serves: inet_client_addr(), inet_server_port() and the like, and
// pg_stat_activity's client columns, return them. A session of no
// connection, or of one through a Unix socket, has none: those return
// NULL, as PostgreSQL's do for a Unix socket.
func (s *Session) SetConnection(client, server net.Addr) {
	c, okC := tcpAddr(client)
	v, okV := tcpAddr(server)
	if !okC || !okV {
		return
	}
	s.conn = connAddrs{client: c, server: v, ok: true}
	s.act.mu.Lock()
	s.act.client = c
	s.act.mu.Unlock()
}

// connAddrs are the addresses of a session's connection.
type connAddrs struct {
	client, server netip.AddrPort
	ok             bool
}

// Connection implements expr.Backend.
func (s *Session) Connection() (client, server netip.AddrPort, ok bool) {
	return s.conn.client, s.conn.server, s.conn.ok
}

func tcpAddr(a net.Addr) (netip.AddrPort, bool) {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.AddrPort{}, false
	}
	return t.AddrPort(), true
}

// inetValue is an address as an inet of a single host, or NULL for
// none.
func inetValue(a netip.AddrPort) any {
	if !a.IsValid() {
		return nil
	}
	ip := a.Addr().Unmap()
	b := ip.AsSlice()
	return value.NewInet(value.Inet, b, len(b)*8)
}
