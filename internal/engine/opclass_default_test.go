package engine

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgbinary"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// TestDefaultOpclassKinds checks the binder's list of the types with a
// default btree, hash or brin operator class against pg_opclass's rows: a
// type has one when a default class takes its oid, the type it is
// binary-coercible to, or its polymorphic family's.
func TestDefaultOpclassKinds(t *testing.T) {
	defaults := map[[2]uint32]bool{}
	for _, f := range catalogFields(builtinOpclasses, 7) {
		if f[5] == "t" {
			defaults[[2]uint32{catOID(f[1]), catOID(f[4])}] = true
		}
	}
	for k := value.Bool; k <= value.EventTrigger; k++ {
		switch k {
		case value.Enum, value.Record, value.UserRange, value.UserMultirange, value.HStore, value.CIText:
			continue // a type of a user's or an extension's, without a fixed oid
		}
		typ := value.Type{Kind: k, Mod: -1}
		oid := pgbinary.TypeOID(typ)
		in := []uint32{oid}
		switch {
		case k == value.Varchar:
			in = append(in, 25)
		case k == value.Cidr:
			in = append(in, 869)
		case k.IsReg():
			in = append(in, 26)
		case k == value.Int2Vector:
			in = append(in, 2277) // int2[]'s array_ops
		case k.IsRange():
			in = append(in, 3831)
		case k.IsMultirange():
			in = append(in, 4537)
		}
		for am, method := range map[uint32]string{403: "btree", 405: "hash", 3580: "brin"} {
			want := false
			for _, o := range in {
				want = want || defaults[[2]uint32{am, o}]
			}
			if got := sql.HasDefaultOpclass(method, typ); got != want {
				t.Errorf("%s under %s: HasDefaultOpclass %v, pg_opclass %v", k, method, got, want)
			}
		}
	}
}
