package engine

import "github.com/deltaview/deltaview/internal/pgerr"

// SetDomainTypDefault gives the domain named its pg_type.typdefault
// text as a store recorded it (StoredDomain.TypDefault), once the
// domain's statements have run again: they set the default by the text
// of its expression now, which names a renamed function by its new
// name, while PostgreSQL keeps the text as it was set.
func (e *Engine) SetDomainTypDefault(name, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	d, ok := e.domains.byName[name]
	if !ok {
		return pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
	}
	def := *d.Def()
	if def.Default == nil || text == def.DefaultSQL {
		return nil
	}
	def.DefaultText = text
	d.Set(def)
	return nil
}
