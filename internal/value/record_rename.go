package value

// RenameCompositeType renames the composite type t (made by CompositeTypeOf)
// in place: t stays the same Type, so the columns, attributes, domains,
// plans and values that hold it show the new name, as PostgreSQL's follow
// the type's oid. The registry's key follows too, so CompositeTypeOf of the
// new name, number and fields gives t again (a database file reopened).
// Renaming it back undoes it.
func RenameCompositeType(t Type, name string) {
	if t.Kind != Record || t.Mod < 1 {
		return
	}
	recordTypes.mu.Lock()
	defer recordTypes.mu.Unlock()
	p := recordTypes.descs.Load()
	if p == nil || int(t.Mod) > len(*p) {
		return
	}
	old := (*p)[t.Mod-1]
	if old.Name == name || old.OID == 0 {
		return
	}
	d := *old
	d.Name = name
	// Readers hold the snapshot they loaded: the list is copied, not
	// written in place.
	descs := append([]*RecordDesc(nil), *p...)
	descs[t.Mod-1] = &d
	recordTypes.descs.Store(&descs)
	k := recordKey(old.Name, old.OID, old.ArrayOID, old.Fields, old.Unregistered)
	if recordTypes.index[k] == t.Mod {
		delete(recordTypes.index, k)
	}
	recordTypes.index[recordKey(name, d.OID, d.ArrayOID, d.Fields, d.Unregistered)] = t.Mod
}
