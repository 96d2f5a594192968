package plpgsql

import (
	"github.com/deltaview/deltaview/internal/value"
)

// CallEventTrigger runs an event trigger function (compiled with
// Signature.Trigger) for event and the command tag tag, which the body
// reads as TG_EVENT and TG_TAG. Its end, or a RETURN, ends it: an event
// trigger returns nothing.
func (f *Func) CallEventTrigger(rt Runtime, event, tag string) error {
	c := newCall(f, rt)
	if f.found < len(f.datums) {
		c.bind(f.found, &variable{name: "found", t: value.BoolType, v: value.NewBool(false)})
	}
	if cr, ok := rt.(CursorRuntime); ok {
		defer cr.PushCursors(c)()
	}
	// NEW and OLD, which the compiler declares for triggers, are NULL.
	for i := f.found + 1; i < len(f.datums) && i <= f.found+2; i++ {
		c.bind(i, &variable{name: f.datums[i].name, t: value.TextType, v: value.Null})
	}
	c.fr.vars["tg_event"] = &variable{name: "tg_event", t: value.TextType, v: value.NewText(value.Text, event)}
	c.fr.vars["tg_tag"] = &variable{name: "tg_tag", t: value.TextType, v: value.NewText(value.Text, tag)}
	if _, err := c.block(f.body); err != nil {
		if !c.placed {
			err = c.place(err, "")
		}
		return unpositioned(err)
	}
	return nil
}
