package sink

import (
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	dsql "github.com/deltaview/deltaview/internal/sql"
)

// The driver's list of servers changes under the engine's lock as a
// catalog change (engine.Foreign's AddServer and DropServers): the engine
// writes the store and undoes the change with the transaction block that
// made it.

var _ engine.Foreign = (*driver)(nil)

// AddServer implements engine.Foreign.
func (d *driver) AddServer(cs *dsql.CreateServer) (func(), error) {
	s, err := newServer(cs)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, pgerr.New(pgerr.ObjectNotInPrereqState, "the database is closed")
	}
	if d.servers[cs.Name] != nil {
		if cs.IfNotExists {
			return nil, nil
		}
		return nil, pgerr.New(pgerr.DuplicateObject, "server %q already exists", cs.Name)
	}
	d.servers[cs.Name] = s
	return func() {
		d.mu.Lock()
		if d.servers[cs.Name] == s {
			delete(d.servers, cs.Name)
		}
		d.mu.Unlock()
	}, nil
}

// DropServers implements engine.Foreign.
func (d *driver) DropServers(ds *dsql.DropSink) ([]string, func(), error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	gone := map[string]*server{}
	var names []string
	for _, name := range ds.Names {
		s := d.servers[name]
		if s == nil {
			if ds.IfExists {
				continue
			}
			return nil, nil, pgerr.New(pgerr.UndefinedObject, "server %q does not exist", name)
		}
		var users []string
		for _, f := range d.tables {
			if f.server == name {
				users = append(users, f.name)
			}
		}
		if len(users) > 0 {
			sort.Strings(users)
			return nil, nil, &pgerr.Error{Code: pgerr.DependentObjects,
				Message: "cannot drop server " + name + " because other objects depend on it",
				Detail:  "foreign table " + strings.Join(users, ", ") + " depends on server " + name,
				Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
		}
		if gone[name] == nil {
			gone[name] = s
			names = append(names, name)
		}
	}
	for _, name := range names {
		delete(d.servers, name)
	}
	return names, func() {
		d.mu.Lock()
		for name, s := range gone {
			if d.servers[name] == nil {
				d.servers[name] = s
			}
		}
		d.mu.Unlock()
	}, nil
}
