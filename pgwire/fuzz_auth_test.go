package pgwire_test

import (
	"context"
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/pgwire"
)

// FuzzAuth sends arbitrary bytes after a startup packet to a server whose
// catalog holds roles, so that they reach the SCRAM-SHA-256 exchange:
// no input may crash the process, and a role still logs in afterwards.
func FuzzAuth(f *testing.F) {
	startup := binary.BigEndian.AppendUint32(nil, 196608)
	for _, p := range []string{"user", "alice", "database", "deltaview"} {
		startup = append(startup, cstring(p)...)
	}
	hello := message(0, append(startup, 0))
	sasl := func(mech, data string) []byte {
		body := append(cstring(mech), binary.BigEndian.AppendUint32(nil, uint32(len(data)))...)
		return message('p', append(body, data...))
	}
	// The inputs follow the startup packet.
	seeds := [][]byte{
		nil,
		sasl("SCRAM-SHA-256", "n,,n=,r=abcdef"),
		append(sasl("SCRAM-SHA-256", "n,,n=,r=abcdef"), message('p', []byte("c=biws,r=abcdefXYZ,p=AAAA"))...),
		sasl("SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=x"),
		sasl("SCRAM-SHA-256", "y,a=alice,n=alice,r=x,m=ext"),
		{'p', 0, 0, 0, 4},
	}
	for _, s := range seeds {
		f.Add(s)
	}
	db := deltaview.Open()
	if err := db.Exec("CREATE ROLE alice LOGIN PASSWORD 'pw'"); err != nil {
		f.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- pgwire.Serve(ctx, db, ln, pgwire.Options{}) }()
	f.Cleanup(func() {
		if c, err := connectAs(ln.Addr().String(), "alice", "pw", "disable"); err != nil {
			f.Errorf("a login after the inputs: %v", err)
		} else {
			c.Close(context.Background())
		}
		cancel()
		select {
		case err := <-served:
			if err != nil {
				f.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			f.Errorf("Serve did not return 10s after its context ended")
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		exchange(t, ln.Addr().String(), append(append([]byte{}, hello...), data...))
	})
}
