package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Locking is what a query's FOR UPDATE / FOR NO KEY UPDATE / FOR SHARE /
// FOR KEY SHARE clauses ask of the session running it. Writers take turns
// (the engine's writer slot, held to the end of the transaction), so the
// session locks its rows by taking the slot, as its first change would:
// until its transaction ends no other session changes any row, which
// keeps, and exceeds, PostgreSQL's promise that the rows read cannot
// change under the transaction. A clause's OF list narrows nothing.
type Locking struct {
	// Strength is the strongest clause, "FOR UPDATE" …; "" when the
	// query locks nothing.
	Strength string
	// NoWait is set when a clause says NOWAIT: the query fails with 55P03
	// at once rather than wait for another session's transaction.
	NoWait bool
	// SkipLocked is set when a clause says SKIP LOCKED. Which rows another
	// transaction would lock is not known, so the query waits for it as
	// without the option and then reads every row.
	SkipLocked bool
}

var lockWords = map[pg_query.LockClauseStrength]string{
	pg_query.LockClauseStrength_LCS_FORKEYSHARE:    "FOR KEY SHARE",
	pg_query.LockClauseStrength_LCS_FORSHARE:       "FOR SHARE",
	pg_query.LockClauseStrength_LCS_FORNOKEYUPDATE: "FOR NO KEY UPDATE",
	pg_query.LockClauseStrength_LCS_FORUPDATE:      "FOR UPDATE",
}

// bindLocking checks sel's locking clauses as PostgreSQL does
// (CheckSelectLocking and transformLockingClause) and records them in
// b.lock; a view refuses them.
func (b *binder) bindLocking(sel *pg_query.SelectStmt) error {
	first := sel.LockingClause[0].GetLockingClause()
	word := lockWords[first.Strength]
	if b.forView {
		return b.refuse(b.keyword("for", 0), "%s is not supported in a materialized view", word).
			WithHint("a view is maintained, not read under a lock: lock the rows in the query that reads them")
	}
	notWith := func(what string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed with %s", word, what)
	}
	switch {
	case sel.Op != pg_query.SetOperation_SETOP_NONE:
		return notWith("UNION/INTERSECT/EXCEPT")
	case len(sel.DistinctClause) > 0:
		return notWith("DISTINCT clause")
	case len(sel.GroupClause) > 0:
		return notWith("GROUP BY clause")
	case sel.HavingClause != nil:
		return notWith("HAVING clause")
	case slices.ContainsFunc(sel.TargetList, func(n *pg_query.Node) bool { return hasAggregate(n.GetResTarget().GetVal()) }):
		return notWith("aggregate functions")
	case slices.ContainsFunc(sel.TargetList, func(n *pg_query.Node) bool { return hasWindowCall(n.GetResTarget().GetVal()) }):
		return notWith("window functions")
	}
	items := fromNames(sel.FromClause, nil)
	for _, n := range sel.LockingClause {
		lc := n.GetLockingClause()
		locked := items
		if len(lc.LockedRels) > 0 {
			locked = nil
		}
		for _, r := range lc.LockedRels {
			rv := r.GetRangeVar()
			if rv == nil {
				continue
			}
			i := slices.IndexFunc(items, func(it fromItem) bool { return it.name == rv.Relname })
			if i < 0 {
				return b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q in %s clause not found in FROM clause", rv.Relname, lockWords[lc.Strength])
			}
			locked = append(locked, items[i])
		}
		for _, it := range locked {
			if it.rel == "" {
				continue
			}
			if _, cte := b.lookupCTE(it.rel); cte {
				continue
			}
			if rel, ok := b.cat.Relation(it.rel); ok && rel.Kind == KindMatView {
				return pgerr.New(pgerr.WrongObjectType, "cannot lock rows in materialized view %q", it.rel)
			}
		}
		if b.lock == nil {
			continue
		}
		if lc.Strength > pg_query.LockClauseStrength_LCS_NONE && (b.lock.Strength == "" || lockRank(lockWords[lc.Strength]) > lockRank(b.lock.Strength)) {
			b.lock.Strength = lockWords[lc.Strength]
		}
		b.lock.NoWait = b.lock.NoWait || lc.WaitPolicy == pg_query.LockWaitPolicy_LockWaitError
		b.lock.SkipLocked = b.lock.SkipLocked || lc.WaitPolicy == pg_query.LockWaitPolicy_LockWaitSkip
	}
	return nil
}

func lockRank(word string) int {
	return slices.Index([]string{"FOR KEY SHARE", "FOR SHARE", "FOR NO KEY UPDATE", "FOR UPDATE"}, word)
}

// fromItem is a FROM item as a locking clause names it: its alias or
// name, and the relation it reads when it is a named relation.
type fromItem struct {
	name, rel string
}

// fromNames appends the FROM items that a locking clause may name: a
// table's alias or name, a subquery's or function's alias, and those of
// joined items.
func fromNames(items []*pg_query.Node, out []fromItem) []fromItem {
	for _, n := range items {
		switch {
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			it := fromItem{name: rv.Relname, rel: rv.Relname}
			if rv.Alias != nil {
				it.name = rv.Alias.Aliasname
			}
			out = append(out, it)
		case n.GetRangeSubselect() != nil:
			if a := n.GetRangeSubselect().Alias; a != nil {
				out = append(out, fromItem{name: a.Aliasname})
			}
		case n.GetRangeFunction() != nil:
			if a := n.GetRangeFunction().Alias; a != nil {
				out = append(out, fromItem{name: a.Aliasname})
			}
		case n.GetRangeTableSample() != nil:
			out = fromNames([]*pg_query.Node{n.GetRangeTableSample().Relation}, out)
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			if j.Alias != nil {
				out = append(out, fromItem{name: j.Alias.Aliasname})
			}
			out = fromNames([]*pg_query.Node{j.Larg, j.Rarg}, out)
		}
	}
	return out
}
