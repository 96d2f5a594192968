package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Enum types share one kind, value.Enum, told apart by their modifier:
// resolution keeps the modifier where it drops other types' (an untyped
// literal compared with an enum reads as that enum), and two enum types
// neither compare nor convert to each other.

// isUserType reports whether t is an enum type, a user range or
// multirange type (userrange.go), or an array of one: a type its
// modifier tells apart from the others of its kind.
func isUserType(t value.Type) bool { return t.Enum() != nil || t.UserRange() != nil }

// unmodified is t without its modifier, except a user type's, which is
// the type itself.
func unmodified(t value.Type) value.Type {
	if isUserType(t) {
		return t
	}
	return plain(t.Kind)
}

// typeNameOf is t's name in messages: a user type's own, else its
// kind's.
func typeNameOf(t value.Type) string {
	if isUserType(t) {
		return t.String()
	}
	return typeName(t.Kind)
}

// errCast is the error of a conversion CanCast forbids, or of one
// enum type to another: 42846 when explicit, 42804 when implicit.
func errCast(from, to value.Type, explicit bool) error {
	if explicit {
		return pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", typeNameOf(from), to)
	}
	return pgerr.New(pgerr.DatatypeMismatch, "cannot cast type %s to %s implicitly", typeNameOf(from), to)
}

// enumTypes gives the parameters and the result of a polymorphic call
// that are of kind enum (or arrays of it) the enum type of its arguments,
// so that its untyped literals read as that type's labels.
func enumTypes(args, params []value.Type, result *value.Type) {
	mod := int32(-1)
	for _, a := range args {
		if a.Enum() != nil {
			mod = a.Mod
		}
	}
	if mod < 0 {
		return
	}
	fix := func(t *value.Type) {
		if t.Kind == value.Enum || t.Kind == value.ArrayOf(value.Enum) {
			t.Mod = mod
		}
	}
	for i := range params {
		fix(&params[i])
	}
	fix(result)
}
