package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// CREATE OR REPLACE VIEW may give a view columns after its old ones. A
// plain view that selects * from it keeps its columns, as PostgreSQL's
// does (it names columns by number): its statement is kept with the *
// spelled out as the columns it covered (SpellStars).

// SpellStars returns st with each select-list * that log (a binding of
// st with the new columns in place) expanded to a column of relation rel
// numbered keep or above spelled out as the columns it covers below
// keep, qualified as PostgreSQL prints them (v.a, v.b); ok false when no
// * covers such a column. st itself is left as it is. A * over a join's
// merged column, which has no qualifier, is refused (0A000).
func SpellStars(st *Stmt, log *RefLog, rel string, keep int) (out *Stmt, ok bool, err error) {
	node := proto.Clone(st.Node).(*pg_query.Node)
	spelled := false
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		sel, isSel := m.Interface().(*pg_query.SelectStmt)
		if !isSel || err != nil {
			return
		}
		var list []*pg_query.Node
		for _, t := range sel.TargetList {
			rt := t.GetResTarget()
			cr := rt.GetVal().GetColumnRef()
			if cr == nil || cr.Fields[len(cr.Fields)-1].GetAStar() == nil {
				list = append(list, t)
				continue
			}
			cols := log.stars[cr.Location]
			grows := false
			for _, c := range cols {
				grows = grows || c.origin.Table == rel && c.origin.Col >= keep
			}
			if !grows {
				list = append(list, t)
				continue
			}
			for _, c := range cols {
				if c.origin.Table == rel && c.origin.Col >= keep {
					continue
				}
				if c.qual == "" {
					err = pgerr.New(pgerr.FeatureNotSupported, "a view selects the columns of view %q through * over a join's merged column", rel)
					return
				}
				ref := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(c.qual), pg_query.MakeStrNode(c.name)}, cr.Location)
				list = append(list, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Val: ref, Location: rt.Location}}})
			}
			spelled = true
		}
		sel.TargetList = list
	})
	if err != nil || !spelled {
		return st, false, err
	}
	o := *st
	o.Node, o.Refs = node, nil
	return &o, true, nil
}
