package plan

import (
	"math"
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// OrderJoins plans each tree of inner joins in n anew, whatever the order
// its inputs were written in: the inputs of a tree of three or more are
// joined one at a time, each next one joining those before on an equality
// key when any does, so that no cross product is built while a connected
// order exists. Among the inputs joined on a key, one whose key is unique
// on either side comes first (the join then has no more rows than its
// other side), and of those the one with the fewest estimated rows joined;
// every input is tried as the first, and the order whose intermediate
// results add up to the fewest estimated rows is kept. Equalities between
// plain columns form classes (a = b and b = c join a's input to c's
// directly). Outer, semi and anti joins keep their place: the trees on
// their sides are planned apart. stats gives a stored relation's row
// count and its unique keys (column sets). The result has n's columns in
// n's order. It keeps no state beyond the tree being planned.
func OrderJoins(n Node, stats func(relation string) (rows float64, uniques [][]int)) Node {
	o := &orderer{stats: stats}
	return o.node(n)
}

type orderer struct {
	stats func(string) (float64, [][]int)
}

func (o *orderer) rows(rel string) float64 {
	r, _ := o.stats(rel)
	return r
}

// uniqueKeys returns column sets of n's output that no two rows share
// (with no NULL among them), as far as n's form shows: a table's keys
// through filters and projections of its columns, an aggregate's group
// key, all the columns of a DISTINCT. An empty set means at most one row.
func (o *orderer) uniqueKeys(n Node) [][]int {
	switch x := n.(type) {
	case *Scan:
		_, u := o.stats(x.Relation)
		return u
	case *Filter:
		return o.uniqueKeys(x.Input)
	case *Project:
		return projectKeys(o.uniqueKeys(x.Input), x.Exprs)
	case *Aggregate:
		k := make([]int, len(x.GroupBy))
		for i := range k {
			k[i] = i
		}
		return [][]int{k}
	case *Distinct:
		k := make([]int, len(x.Columns()))
		for i := range k {
			k[i] = i
		}
		return [][]int{k}
	case *Join:
		if !x.Kind.Outputs() {
			return o.uniqueKeys(x.Left)
		}
	}
	return nil
}

// node plans the join trees of n's FROM part: it descends through filters
// and joins only (anything else was planned when it was bound).
func (o *orderer) node(n Node) Node {
	switch t := n.(type) {
	case *Filter:
		if innerTree(t.Input) {
			return o.tree(n)
		}
		if in := o.node(t.Input); in != t.Input {
			return &Filter{Input: in, Pred: t.Pred}
		}
	case *Join:
		if t.Kind == InnerJoin {
			return o.tree(n)
		}
		if !t.Kind.Outputs() {
			if pushed := o.pushSemi(t); pushed != nil {
				return o.node(pushed)
			}
		}
		l, r := o.node(t.Left), t.Right
		if t.Kind.Outputs() {
			r = o.node(t.Right)
		}
		if l != t.Left || r != t.Right {
			c := *t
			c.Left, c.Right = l, r
			return &c
		}
	}
	return n
}

// pushSemi moves a semi or anti join over a tree of inner joins onto the
// tree's one input that its condition reads, when the tree has at least
// twice that input's estimated rows: (A ⋈ B) ⋉ C is (A ⋉ C) ⋈ B when the
// condition reads only A, and the semi join then indexes and probes A's
// rows rather than the join's, which repeat them. It returns nil when the
// join stays.
func (o *orderer) pushSemi(j *Join) Node {
	if !innerTree(j.Left) {
		return nil
	}
	var t joinTree
	o.flatten(j.Left, 0, &t)
	lw := len(j.Left.Columns())
	leaf := -1
	reads := func(c int) bool {
		i := len(t.offset) - 1
		for i > 0 && t.offset[i] > c {
			i--
		}
		if leaf >= 0 && leaf != i {
			return false
		}
		leaf = i
		return true
	}
	for _, k := range j.LeftKeys {
		for _, c := range expr.Columns(k) {
			if !reads(c) {
				return nil
			}
		}
	}
	if j.Residual != nil {
		for _, c := range expr.Columns(j.Residual) {
			if c < lw && !reads(c) {
				return nil
			}
		}
	}
	if leaf < 0 || 2*o.estimate(t.leaves[leaf]) > o.estimate(j.Left) {
		return nil
	}
	in, off := t.leaves[leaf], t.offset[leaf]
	w := len(in.Columns())
	semi := *j
	semi.Left, semi.Cols = in, in.Columns()
	semi.LeftKeys = make([]expr.Expr, len(j.LeftKeys))
	for i, k := range j.LeftKeys {
		semi.LeftKeys[i] = Shift(k, -off)
	}
	if j.Residual != nil {
		semi.Residual = expr.Rewrite(j.Residual, func(x expr.Expr) expr.Expr {
			if c, ok := x.(*expr.Col); ok {
				if c.Idx < lw {
					return &expr.Col{Idx: c.Idx - off, T: c.T, Name: c.Name}
				}
				return &expr.Col{Idx: c.Idx - lw + w, T: c.T, Name: c.Name}
			}
			return x
		})
	}
	leaves := slices.Clone(t.leaves)
	leaves[leaf] = &semi
	return rebuild(j.Left, leaves)
}

// innerTree reports whether n is an inner join, under filters.
func innerTree(n Node) bool {
	for {
		switch t := n.(type) {
		case *Filter:
			n = t.Input
		case *Join:
			return t.Kind == InnerJoin
		default:
			return false
		}
	}
}

// joinTree is one tree of inner joins flattened: its inputs, where each
// one's columns start in the tree's output, and its conditions over the
// tree's output columns.
type joinTree struct {
	leaves []Node
	offset []int
	conds  []expr.Expr
}

func (o *orderer) flatten(n Node, off int, t *joinTree) {
	switch x := n.(type) {
	case *Join:
		if x.Kind == InnerJoin {
			lw := len(x.Left.Columns())
			o.flatten(x.Left, off, t)
			o.flatten(x.Right, off+lw, t)
			for i := range x.LeftKeys {
				t.conds = append(t.conds, &expr.Cmp{Op: expr.EQ, L: Shift(x.LeftKeys[i], off), R: Shift(x.RightKeys[i], off+lw)})
			}
			t.conds = append(t.conds, Conjuncts(Shift(x.Residual, off))...)
			return
		}
	case *Filter:
		if innerTree(x.Input) {
			o.flatten(x.Input, off, t)
			t.conds = append(t.conds, Conjuncts(Shift(x.Pred, off))...)
			return
		}
	}
	t.leaves = append(t.leaves, o.node(n))
	t.offset = append(t.offset, off)
}

// cond is a condition of a join tree that reads two or more of its
// inputs, or none.
type cond struct {
	e       expr.Expr
	leaves  []int
	applied bool
}

func (o *orderer) tree(n Node) Node {
	var t joinTree
	o.flatten(n, 0, &t)
	cols := n.Columns()
	if len(t.leaves) < 3 {
		return rebuild(n, t.leaves)
	}
	leafOf := make([]int, len(cols))
	for i, off := range t.offset {
		for c := range t.leaves[i].Columns() {
			leafOf[off+c] = i
		}
	}
	leavesOf := func(e expr.Expr) []int {
		var ls []int
		for _, c := range expr.Columns(e) {
			l := leafOf[c]
			if !slices.Contains(ls, l) {
				ls = append(ls, l)
			}
		}
		return ls
	}

	// Equalities of two plain columns of different inputs form classes;
	// the rest are applied where the inputs they read are all joined.
	parent := make([]int, len(cols))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	inClass := make([]bool, len(cols))
	var conds []*cond
	var top []expr.Expr                           // volatile: over the whole tree
	filters := make([][]expr.Expr, len(t.leaves)) // per input, over the tree's columns
	for _, c := range t.conds {
		if k, ok := c.(*expr.Const); ok && !k.V.IsNull() && k.V.Bool() {
			continue // ON true
		}
		if c.Volatile() {
			top = append(top, c)
			continue
		}
		if a, b, ok := columnEquality(c); ok && leafOf[a] != leafOf[b] {
			parent[find(a)] = find(b)
			inClass[a], inClass[b] = true, true
			continue
		}
		switch ls := leavesOf(c); len(ls) {
		case 1:
			filters[ls[0]] = append(filters[ls[0]], c)
		default:
			conds = append(conds, &cond{e: c, leaves: ls})
		}
	}
	// classes[r] lists the class's columns in order; leafClasses the
	// classes each input has a column in.
	classes := map[int][]int{}
	var roots []int
	for c := range cols {
		if !inClass[c] {
			continue
		}
		r := find(c)
		if _, ok := classes[r]; !ok {
			roots = append(roots, r)
		}
		classes[r] = append(classes[r], c)
	}
	leafClasses := make([][]int, len(t.leaves))
	for _, r := range roots {
		for _, c := range classes[r] {
			if l := leafOf[c]; !slices.Contains(leafClasses[l], r) {
				leafClasses[l] = append(leafClasses[l], r)
			}
		}
	}
	leafConds := make([][]*cond, len(t.leaves))
	var constant []expr.Expr // reads no input: filters the first one
	for _, c := range conds {
		if len(c.leaves) == 0 {
			constant = append(constant, c.e)
			continue
		}
		for _, l := range c.leaves {
			leafConds[l] = append(leafConds[l], c)
		}
	}

	est := make([]float64, len(t.leaves))
	base := make([]float64, len(t.leaves)) // before the input's own filters
	keys := make([][][]int, len(t.leaves)) // unique keys, as tree columns
	for i, l := range t.leaves {
		base[i] = o.estimate(l)
		est[i] = base[i]
		for range filters[i] {
			est[i] /= 2
		}
		for _, k := range o.uniqueKeys(l) {
			tk := make([]int, len(k))
			for j, c := range k {
				tk[j] = c + t.offset[i]
			}
			keys[i] = append(keys[i], tk)
		}
	}
	s := &search{leaves: len(t.leaves), classes: classes, leafClasses: leafClasses, leafConds: leafConds,
		leafOf: leafOf, inClass: inClass, find: find, leavesOf: leavesOf, est: est, base: base, keys: keys}
	var order []int
	best := math.Inf(1)
	for first := range t.leaves {
		if !s.keyed(first) && s.anyKeyed() {
			continue
		}
		if ord, cost := s.run(first); cost < best || cost == best && est[first] < est[order[0]] {
			order, best = ord, cost
		}
	}

	pos := make([]int, len(cols)) // tree column → column of the plan built so far
	for i := range pos {
		pos[i] = -1
	}
	joined := make([]bool, len(t.leaves))
	classSeen := map[int]bool{}
	var cur Node
	width := 0
	add := func(l int) {
		leaf := t.leaves[l]
		off := t.offset[l]
		lw := len(leaf.Columns())
		local := func(e expr.Expr) expr.Expr { return Shift(e, -off) }
		var own []expr.Expr
		for _, f := range filters[l] {
			own = append(own, local(f))
		}
		if cur == nil {
			for _, f := range constant {
				own = append(own, f)
			}
		}
		var lk, rk []expr.Expr
		for _, r := range leafClasses[l] {
			members := classes[r]
			var rep *expr.Col // a column of the class already joined
			for _, c := range members {
				if pos[c] >= 0 {
					rep = &expr.Col{Idx: pos[c], T: cols[c].Type, Name: cols[c].Name}
					break
				}
			}
			var firstHere *expr.Col
			for _, c := range members {
				if leafOf[c] != l {
					continue
				}
				col := &expr.Col{Idx: c - off, T: cols[c].Type, Name: cols[c].Name}
				switch {
				case rep != nil:
					lk = append(lk, expr.EqualityKey(rep))
					rk = append(rk, expr.EqualityKey(col))
				case firstHere == nil:
					firstHere = col
				default:
					own = append(own, &expr.Cmp{Op: expr.EQ, L: firstHere, R: col})
				}
			}
			classSeen[r] = true
		}
		in := leaf
		if len(own) > 0 {
			in = withFilter(leaf, own)
		}
		if cur == nil {
			cur = in
		} else {
			var res []expr.Expr
			for _, c := range leafConds[l] {
				if c.applied || !readsOnly(c.leaves, joined, l) {
					continue
				}
				c.applied = true
				res = append(res, expr.Rewrite(c.e, func(x expr.Expr) expr.Expr {
					if col, ok := x.(*expr.Col); ok {
						idx := pos[col.Idx]
						if leafOf[col.Idx] == l {
							idx = width + col.Idx - off
						}
						return &expr.Col{Idx: idx, T: col.T, Name: col.Name}
					}
					return x
				}))
			}
			j := &Join{Kind: InnerJoin, Left: cur, Right: in, LeftKeys: lk, RightKeys: rk, Residual: AndOf(res),
				Cols: append(append([]Column{}, cur.Columns()...), in.Columns()...)}
			cur = j
			if j.Residual != nil {
				cur = extractJoinKeys(j)
			}
		}
		for c := 0; c < lw; c++ {
			pos[off+c] = width + c
		}
		width += lw
		joined[l] = true
	}
	for _, l := range order {
		add(l)
	}

	out := cur
	identity := true
	for c := range cols {
		if pos[c] != c {
			identity = false
			break
		}
	}
	if !identity {
		exprs := make([]expr.Expr, len(cols))
		for c := range cols {
			exprs[c] = &expr.Col{Idx: pos[c], T: cols[c].Type, Name: cols[c].Name}
		}
		out = &Project{Input: cur, Exprs: exprs, Cols: cols}
	}
	// Conditions left over read inputs no order joins (they cannot, as
	// every input is joined); volatile ones are evaluated once per row of
	// the whole tree, as written.
	for _, c := range conds {
		if !c.applied && len(c.leaves) > 0 {
			top = append(top, c.e)
		}
	}
	if len(top) > 0 {
		out = &Filter{Input: out, Pred: AndOf(top)}
	}
	return out
}

// rebuild returns the tree n with its inputs replaced by leaves, in
// order.
func rebuild(n Node, leaves []Node) Node {
	i := 0
	var walk func(Node) Node
	walk = func(n Node) Node {
		switch x := n.(type) {
		case *Join:
			if x.Kind == InnerJoin {
				l := walk(x.Left)
				r := walk(x.Right)
				if l == x.Left && r == x.Right {
					return n
				}
				c := *x
				c.Left, c.Right = l, r
				return &c
			}
		case *Filter:
			if innerTree(x.Input) {
				if in := walk(x.Input); in != x.Input {
					return &Filter{Input: in, Pred: x.Pred}
				}
				return n
			}
		}
		l := leaves[i]
		i++
		return l
	}
	return walk(n)
}

// columnEquality recognises a = b of two plain columns of one type.
func columnEquality(e expr.Expr) (int, int, bool) {
	cmp, ok := e.(*expr.Cmp)
	if !ok || cmp.Op != expr.EQ {
		return 0, 0, false
	}
	a, ok1 := cmp.L.(*expr.Col)
	b, ok2 := cmp.R.(*expr.Col)
	if !ok1 || !ok2 || a.T.Kind != b.T.Kind || a.T.Kind == value.Unknown {
		return 0, 0, false
	}
	return a.Idx, b.Idx, true
}

// readsOnly reports whether the inputs ls are all joined or l, and
// include l.
func readsOnly(ls []int, joined []bool, l int) bool {
	has := false
	for _, x := range ls {
		switch {
		case x == l:
			has = true
		case !joined[x]:
			return false
		}
	}
	return has
}

// splits reports whether one side reads only joined inputs and the other
// only l (an equality that is a join key when l is joined).
func splits(a, b []int, joined []bool, l int) bool {
	onlyJoined := func(ls []int) bool {
		for _, x := range ls {
			if !joined[x] {
				return false
			}
		}
		return len(ls) > 0
	}
	onlyL := func(ls []int) bool { return len(ls) == 1 && ls[0] == l }
	return onlyJoined(a) && onlyL(b) || onlyJoined(b) && onlyL(a)
}

// estimate guesses n's row count: stored relations' counts, halved per
// filter conjunct, a join on a key as large as its larger input.
func (o *orderer) estimate(n Node) float64 {
	switch x := n.(type) {
	case *Scan:
		if r := o.rows(x.Relation); r > 1 {
			return r
		}
		return 1
	case *Filter:
		e := o.estimate(x.Input)
		for range Conjuncts(x.Pred) {
			e /= 2
		}
		return max(e, 1)
	case *Values:
		return float64(max(len(x.Rows), 1))
	case *Aggregate:
		if len(x.GroupBy) == 0 {
			return 1
		}
		return max(o.estimate(x.Input)/2, 1)
	case *Join:
		l, r := o.estimate(x.Left), o.estimate(x.Right)
		switch {
		case !x.Kind.Outputs():
			return l
		case x.Kind == FullJoin:
			return l + r
		case len(x.LeftKeys) == 0:
			return l * r
		}
		return max(l, r)
	case *UnionAll:
		s := 0.0
		for _, c := range x.Inputs {
			s += o.estimate(c)
		}
		return s
	case *TopK:
		return min(o.estimate(x.Input), float64(max(x.Limit, 1)))
	}
	if kids := n.Children(); len(kids) > 0 {
		return o.estimate(kids[0])
	}
	return 1000
}

// search chooses the order of one join tree's inputs (orderer.tree):
// from a given first input, greedily, each next input the one that joins
// those before on a key unique on one side, else on any key, else by any
// condition, else at all, the fewest estimated rows first.
type search struct {
	leaves      int
	classes     map[int][]int
	leafClasses [][]int
	leafConds   [][]*cond
	leafOf      []int
	inClass     []bool
	find        func(int) int
	leavesOf    func(expr.Expr) []int
	est, base   []float64
	keys        [][][]int
}

// keyed reports whether input l joins another on an equality.
func (s *search) keyed(l int) bool {
	if len(s.leafClasses[l]) > 0 {
		return true
	}
	for _, c := range s.leafConds[l] {
		if cmp, ok := c.e.(*expr.Cmp); ok && cmp.Op == expr.EQ && len(c.leaves) == 2 {
			return true
		}
	}
	return false
}

func (s *search) anyKeyed() bool {
	for l := range s.leaves {
		if s.keyed(l) {
			return true
		}
	}
	return false
}

// curKey is a unique key of the inputs joined so far, with the rows of
// the relation it came from, before filters: the joined rows hold
// est/dom of that relation's keys.
type curKey struct {
	cols []int
	dom  float64
}

// run orders the inputs from first and returns the order with the sum of
// the estimated rows of its intermediate results.
func (s *search) run(first int) ([]int, float64) {
	joined := make([]bool, s.leaves)
	seen := map[int]bool{}
	order := []int{first}
	cur := s.est[first]
	var curKeys []curKey
	join := func(l int) {
		joined[l] = true
		for _, r := range s.leafClasses[l] {
			seen[r] = true
		}
	}
	for _, k := range s.keys[first] {
		curKeys = append(curKeys, curKey{k, s.base[first]})
	}
	join(first)
	cost := 0.0
	for len(order) < s.leaves {
		next, bestTier, bestRows := -1, 0, 0.0
		var nextUnique, nextCurUnique bool
		for l := range s.leaves {
			if joined[l] {
				continue
			}
			link := s.link(l, joined, seen)
			// l's columns equal to joined ones, through a class.
			covered := func(k []int) bool {
				for _, c := range k {
					if !s.inClass[c] || !seen[s.find(c)] || !slices.Contains(s.leafClasses[l], s.find(c)) {
						return false
					}
				}
				return true
			}
			lUnique, curUnique := false, false
			rows := math.Inf(1)
			if link == 2 {
				for _, k := range s.keys[l] {
					if covered(k) {
						lUnique = true
						rows = cur * s.est[l] / s.base[l]
						break
					}
				}
				for _, k := range curKeys {
					if covered(k.cols) {
						curUnique = true
						rows = min(rows, s.est[l]*cur/k.dom)
					}
				}
			}
			tier := 0
			switch {
			case lUnique || curUnique:
			case link == 2:
				tier, rows = 1, max(cur, s.est[l])
			case link == 1:
				tier, rows = 2, cur*s.est[l]/2
			default:
				tier, rows = 3, cur*s.est[l]
			}
			if next < 0 || tier < bestTier || tier == bestTier && rows < bestRows {
				next, bestTier, bestRows = l, tier, rows
				nextUnique, nextCurUnique = lUnique, curUnique
			}
		}
		// The keys unique in the result: the joined inputs' when l's key
		// is unique, l's when theirs is.
		var keys []curKey
		if nextUnique {
			keys = curKeys
		}
		if nextCurUnique {
			for _, k := range s.keys[next] {
				keys = append(keys, curKey{k, s.base[next]})
			}
		}
		curKeys = keys
		cur = max(bestRows, 1)
		cost += cur
		order = append(order, next)
		join(next)
	}
	return order, cost
}

// link says how input l joins those joined: 2 on an equality key, 1 by
// some other condition, 0 not at all.
func (s *search) link(l int, joined []bool, seen map[int]bool) int {
	for _, r := range s.leafClasses[l] {
		if seen[r] {
			return 2
		}
	}
	best := 0
	for _, c := range s.leafConds[l] {
		if !readsOnly(c.leaves, joined, l) {
			continue
		}
		best = 1
		if cmp, ok := c.e.(*expr.Cmp); ok && cmp.Op == expr.EQ && splits(s.leavesOf(cmp.L), s.leavesOf(cmp.R), joined, l) {
			return 2
		}
	}
	return best
}
