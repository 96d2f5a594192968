package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER FUNCTION … RENAME TO and SET SCHEMA are followed by the
// aggregates, operators and triggers that name the function: PostgreSQL
// holds its oid, here each keeps the function's name (Aggregate.SFunc,
// Operator.Func, a trigger's statement), which takes the new one. A
// function is named by its key, as in rename_function.go.

// RenamedFuncName returns names, a function's name as written that
// names the function keyed old (callNamesKey), naming the function keyed
// new instead; other names are returned as they are. The names are
// copied, never changed in place.
func RenamedFuncName(names []*pg_query.Node, old, new string) ([]*pg_query.Node, bool) {
	if !callNamesKey(names, old) {
		return names, false
	}
	if len(names) == 1 && names[0].GetString_().GetSval() == old {
		return []*pg_query.Node{pg_query.MakeStrNode(new)}, true
	}
	schema, bare, qualified := strings.Cut(new, ".")
	if !qualified {
		schema, bare = "public", new
	}
	return []*pg_query.Node{pg_query.MakeStrNode(schema), pg_query.MakeStrNode(bare)}, true
}

// definedFuncOptions are the options of CREATE AGGREGATE and CREATE
// OPERATOR that name a function.
var definedFuncOptions = map[string]bool{
	"sfunc": true, "finalfunc": true, "msfunc": true, "minvfunc": true, "mfinalfunc": true,
	"combinefunc": true, "serialfunc": true, "deserialfunc": true, "function": true, "procedure": true,
}

// RenameDefinedFunction returns text, the statements that make an
// aggregate or an operator (CREATE followed by ALTERs), with the options
// naming the function keyed old (for which pick says yes, by option
// name) naming the function keyed new, and how many it renamed. The
// statements are printed again from their parse (as RewriteTrigger).
func RenameDefinedFunction(text, old, new string, pick func(option string) bool) (string, int, error) {
	tree, err := pg_query.Parse(text)
	if err != nil {
		return "", 0, err
	}
	n := 0
	for _, rs := range tree.Stmts {
		ds := rs.Stmt.GetDefineStmt()
		if ds == nil {
			continue
		}
		for _, d := range ds.Definition {
			de := d.GetDefElem()
			if de == nil || !definedFuncOptions[strings.ToLower(de.Defname)] || !pick(strings.ToLower(de.Defname)) {
				continue
			}
			names, ok := RenamedFuncName(defFuncName(de), old, new)
			if !ok {
				continue
			}
			n++
			de.Arg = &pg_query.Node{Node: &pg_query.Node_TypeName{TypeName: &pg_query.TypeName{Names: names, Location: -1}}}
		}
	}
	if n == 0 {
		return text, 0, nil
	}
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return "", 0, err
	}
	return strings.TrimSpace(out), n, nil
}

// RenameTriggerFunction returns a CREATE TRIGGER statement calling the
// function keyed new where it called the function keyed old.
func RenameTriggerFunction(text, old, new string) (string, error) {
	tree, ct, err := triggerStmt(text)
	if err != nil {
		return "", err
	}
	names, ok := RenamedFuncName(ct.Funcname, old, new)
	if !ok {
		return "", pgerr.New(pgerr.FeatureNotSupported, "the trigger's statement does not name function %s", old)
	}
	ct.Funcname = names
	out, err := pg_query.Deparse(tree)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}
