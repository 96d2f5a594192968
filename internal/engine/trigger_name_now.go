package engine

// tableNameNow returns what gives the name and schema of the table named
// rel as they are when called, for a trigger's TG_TABLE_NAME read after
// its body renamed the table (plpgsql.TriggerData.NameNow); nil when rel
// is not a table (a view's INSTEAD OF trigger), whose name stays.
func (e *Engine) tableNameNow(rel string) func() (string, string) {
	t := e.tables[rel]
	if t == nil {
		return nil
	}
	return func() (string, string) {
		now := t
		for now.succ != nil { // an ALTER TABLE made the table again
			now = now.succ
		}
		key := rel
		if e.tables[rel] != now {
			for k, u := range e.tables { // renamed: found by the table itself, as PostgreSQL by its oid
				if u == now {
					key = k
					break
				}
			}
		}
		schema, name := e.splitKey(key)
		return name, schema
	}
}
