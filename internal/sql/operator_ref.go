// The reference DROP OPERATOR and COMMENT ON OPERATOR make to an
// operator: its name and argument types.
package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// operatorRef binds name(left | NONE, right) naming an operator; the
// schema of an unqualified name is the search path's first holding it.
// Under ifExists a missing schema or type is a reference with Missing
// set, as DROP … IF EXISTS skips it.
func (b *binder) operatorRef(ow *pg_query.ObjectWithArgs, ifExists bool) (OperRef, error) {
	ref := OperRef{Name: FuncName(ow.Objname[len(ow.Objname)-1:]), Written: nameListString(ow.Objname)}
	if len(ow.Objname) > 1 {
		if ref.Schema = FuncName(ow.Objname[:len(ow.Objname)-1]); ref.Schema == "public" {
			ref.Schema = ""
		}
		if nr, ok := b.cat.(NameResolver); ok && ifExists && ref.Schema != "" && !systemSchema(ref.Schema) && nr.Qualifier() != nil && !nr.Qualifier().SchemaExists(ref.Schema) {
			return OperRef{Missing: fmt.Sprintf("schema %q does not exist, skipping", ref.Schema)}, nil
		}
	}
	for i, a := range ow.Objargs {
		tn := a.GetTypeName()
		if tn == nil {
			continue // NONE
		}
		ktn, t, err := b.functionType(tn)
		if err != nil {
			if n, ok := skipMissing(err, tn.Names, tn); ok && ifExists {
				return OperRef{Missing: n}, nil
			}
			return OperRef{}, err
		}
		dom, err := b.paramDomain(ktn, PolyNone)
		if err != nil {
			return OperRef{}, err
		}
		if i == 0 && len(ow.Objargs) == 2 {
			ref.Left, ref.LeftDomain = &t, dom
		} else {
			ref.Right, ref.RightDomain = &t, dom
		}
	}
	if len(ow.Objname) == 1 {
		ref.Schema = b.dropOperatorSchema(ref)
	}
	return ref, nil
}
