package xpath

import (
	"math"
	"sort"
)

// A value is a node set ([]*Node in document order, without duplicates),
// a string, a float64 or a bool.
type value interface{}

// Eval evaluates e with the document root as the context node. The result
// is a []*Node in document order, a string, a float64 or a bool.
func (e *Expr) Eval(root *Node) (interface{}, error) {
	return eval(e.root, ctx{node: root, pos: 1, size: 1})
}

// EvalAt evaluates e with n as the context node.
func (e *Expr) EvalAt(n *Node) (interface{}, error) {
	return eval(e.root, ctx{node: n, pos: 1, size: 1})
}

// ctx is an expression's context: its node, position and size.
type ctx struct {
	node      *Node
	pos, size int
}

func eval(e expr, c ctx) (value, error) {
	switch e := e.(type) {
	case numberLit:
		return float64(e), nil
	case stringLit:
		return string(e), nil
	case varRef:
		return nil, evalError("Undefined variable")
	case negExpr:
		v, err := eval(e.x, c)
		if err != nil {
			return nil, err
		}
		return -toNumber(v), nil
	case binaryExpr:
		return evalBinary(e, c)
	case funcCall:
		return e.fn.eval(c, e.args)
	case filterExpr:
		v, err := eval(e.x, c)
		if err != nil {
			return nil, err
		}
		set, ok := v.([]*Node)
		if !ok {
			return nil, evalError("Invalid type")
		}
		return filter(set, e.preds)
	case *pathExpr:
		return evalPath(e, c)
	}
	panic("xpath: unknown expression")
}

func evalBinary(e binaryExpr, c ctx) (value, error) {
	l, err := eval(e.l, c)
	if err != nil {
		return nil, err
	}
	switch e.op {
	case "or", "and":
		if toBool(l) == (e.op == "or") {
			return e.op == "or", nil
		}
		r, err := eval(e.r, c)
		if err != nil {
			return nil, err
		}
		return toBool(r), nil
	}
	r, err := eval(e.r, c)
	if err != nil {
		return nil, err
	}
	switch e.op {
	case "|":
		ls, lok := l.([]*Node)
		rs, rok := r.([]*Node)
		if !lok || !rok {
			return nil, evalError("Invalid type")
		}
		return sortUnique(append(append([]*Node(nil), ls...), rs...)), nil
	case "=", "!=", "<", ">", "<=", ">=":
		return compare(e.op, l, r), nil
	}
	x, y := toNumber(l), toNumber(r)
	switch e.op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "mul":
		return x * y, nil
	case "div":
		return x / y, nil
	}
	return math.Mod(x, y), nil
}

// compare applies a comparison operator with XPath 1.0's conversions: a
// node set compares by any of its nodes' string values.
func compare(op string, l, r value) bool {
	ls, lset := l.([]*Node)
	rs, rset := r.([]*Node)
	switch {
	case lset && rset:
		for _, a := range ls {
			av := a.StringValue()
			for _, b := range rs {
				if compareAtoms(op, av, b.StringValue()) {
					return true
				}
			}
		}
		return false
	case lset || rset:
		set, other, flip := ls, r, false
		if rset {
			set, other, flip = rs, l, true
		}
		if b, ok := other.(bool); ok {
			if flip {
				return compareAtoms(op, b, len(set) > 0)
			}
			return compareAtoms(op, len(set) > 0, b)
		}
		for _, n := range set {
			var v value = n.StringValue()
			if _, ok := other.(float64); ok {
				v = toNumber(v)
			}
			if flip && compareAtoms(op, other, v) || !flip && compareAtoms(op, v, other) {
				return true
			}
		}
		return false
	}
	return compareAtoms(op, l, r)
}

// compareAtoms compares two values that are not node sets.
func compareAtoms(op string, l, r value) bool {
	if op == "=" || op == "!=" {
		var eq bool
		_, lb := l.(bool)
		_, rb := r.(bool)
		_, ln := l.(float64)
		_, rn := r.(float64)
		switch {
		case lb || rb:
			eq = toBool(l) == toBool(r)
		case ln || rn:
			eq = toNumber(l) == toNumber(r)
		default:
			eq = toString(l) == toString(r)
		}
		return eq == (op == "=")
	}
	x, y := toNumber(l), toNumber(r)
	switch op {
	case "<":
		return x < y
	case ">":
		return x > y
	case "<=":
		return x <= y
	}
	return x >= y
}

func toBool(v value) bool {
	switch v := v.(type) {
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	case []*Node:
		return len(v) > 0
	}
	return false
}

func toNumber(v value) float64 {
	switch v := v.(type) {
	case bool:
		if v {
			return 1
		}
		return 0
	case float64:
		return v
	case string:
		return stringToNumber(v)
	case []*Node:
		return stringToNumber(toString(v))
	}
	return math.NaN()
}

func toString(v value) string {
	switch v := v.(type) {
	case bool:
		if v {
			return "true"
		}
		return "false"
	case float64:
		return NumberString(v)
	case string:
		return v
	case []*Node:
		if len(v) == 0 {
			return ""
		}
		return v[0].StringValue()
	}
	return ""
}

// sortUnique puts nodes in document order without duplicates.
func sortUnique(ns []*Node) []*Node {
	sort.SliceStable(ns, func(i, j int) bool { return ns[i].ord < ns[j].ord })
	out := ns[:0]
	for i, n := range ns {
		if i == 0 || n != ns[i-1] {
			out = append(out, n)
		}
	}
	return out
}

// filter keeps the nodes of set (in the order of their proximity
// positions) for which each predicate holds in turn.
func filter(set []*Node, preds []expr) ([]*Node, error) {
	for _, pr := range preds {
		var kept []*Node
		for i, n := range set {
			v, err := eval(pr, ctx{node: n, pos: i + 1, size: len(set)})
			if err != nil {
				return nil, err
			}
			if f, ok := v.(float64); ok {
				if f == float64(i+1) {
					kept = append(kept, n)
				}
			} else if toBool(v) {
				kept = append(kept, n)
			}
		}
		set = kept
	}
	return set, nil
}

func evalPath(e *pathExpr, c ctx) (value, error) {
	set := []*Node{c.node}
	switch {
	case e.start != nil:
		v, err := eval(e.start, c)
		if err != nil {
			return nil, err
		}
		s, ok := v.([]*Node)
		if !ok {
			return nil, evalError("Invalid type")
		}
		set = s
	case e.abs:
		r := c.node
		for r.Parent != nil {
			r = r.Parent
		}
		set = []*Node{r}
	}
	for _, s := range e.steps {
		var out []*Node
		for _, n := range set {
			sel := s.test.filter(s.axis, axisNodes(s.axis, n))
			sel, err := filter(sel, s.preds)
			if err != nil {
				return nil, err
			}
			out = append(out, sel...)
		}
		set = sortUnique(out)
	}
	return set, nil
}

func (t nodeTest) filter(a axis, ns []*Node) []*Node {
	out := ns[:0]
	for _, n := range ns {
		if t.matches(a, n) {
			out = append(out, n)
		}
	}
	return out
}

func (t nodeTest) matches(a axis, n *Node) bool {
	switch t.kind {
	case testNode:
		return true
	case testText:
		return n.Kind == Text || n.Kind == CDATA
	case testComment:
		return n.Kind == Comment
	case testPI:
		return n.Kind == PI && (!t.named || n.Local == t.local)
	}
	principal := Element
	switch a {
	case axisAttribute:
		principal = Attribute
	case axisNamespace:
		principal = Namespace
	}
	if n.Kind != principal {
		return false
	}
	if principal == Namespace {
		return t.any || n.Local == t.local
	}
	return t.anyNS || n.URI == t.uri && (t.any || n.Local == t.local)
}

// axisNodes lists the nodes of an axis from n, in the axis's order.
func axisNodes(a axis, n *Node) []*Node {
	var out []*Node
	switch a {
	case axisSelf:
		out = append(out, n)
	case axisChild:
		out = append(out, n.Children...)
	case axisDescendant, axisDescendantOrSelf:
		if a == axisDescendantOrSelf {
			out = append(out, n)
		}
		out = appendDescendants(out, n)
	case axisParent:
		if n.Parent != nil {
			out = append(out, n.Parent)
		}
	case axisAncestor, axisAncestorOrSelf:
		if a == axisAncestorOrSelf {
			out = append(out, n)
		}
		for p := n.Parent; p != nil; p = p.Parent {
			out = append(out, p)
		}
	case axisAttribute:
		out = append(out, n.Attrs...)
	case axisNamespace:
		out = namespaceNodes(n)
	case axisFollowingSibling, axisPrecedingSibling:
		if n.Kind == Attribute || n.Kind == Namespace || n.Parent == nil {
			return nil
		}
		sib := n.Parent.Children
		i := indexOf(sib, n)
		if a == axisFollowingSibling {
			return append(out, sib[i+1:]...)
		}
		for j := i - 1; j >= 0; j-- {
			out = append(out, sib[j])
		}
	case axisFollowing:
		// From an attribute, libxml2 starts after its element's subtree.
		x := n
		if n.Kind == Attribute || n.Kind == Namespace {
			x = n.Parent
		}
		for ; x.Parent != nil; x = x.Parent {
			sib := x.Parent.Children
			for _, s := range sib[indexOf(sib, x)+1:] {
				out = append(out, s)
				out = appendDescendants(out, s)
			}
		}
	case axisPreceding:
		x := n
		if n.Kind == Attribute || n.Kind == Namespace {
			x = n.Parent
		}
		for ; x.Parent != nil; x = x.Parent {
			sib := x.Parent.Children
			for j := indexOf(sib, x) - 1; j >= 0; j-- {
				var sub []*Node
				sub = appendDescendants(append(sub, sib[j]), sib[j])
				for k := len(sub) - 1; k >= 0; k-- {
					out = append(out, sub[k])
				}
			}
		}
	}
	return out
}

func appendDescendants(out []*Node, n *Node) []*Node {
	for _, c := range n.Children {
		out = append(out, c)
		out = appendDescendants(out, c)
	}
	return out
}

func indexOf(ns []*Node, n *Node) int {
	for i, x := range ns {
		if x == n {
			return i
		}
	}
	return -1
}

// namespaceNodes are the namespaces in scope at an element, in libxml2's
// order: xml, then the nearest declaration of each prefix, from the
// element up (xmlns="" too, as libxml2 lists it).
func namespaceNodes(e *Node) []*Node {
	if e.Kind != Element {
		return nil
	}
	seen := map[string]bool{}
	out := []*Node{{Kind: Namespace, Local: "xml", URI: XMLNamespace, Parent: e, ord: e.ord}}
	for x := e; x != nil; x = x.Parent {
		for _, d := range x.NSDecls {
			if seen[d.Local] {
				continue
			}
			seen[d.Local] = true
			out = append(out, &Node{Kind: Namespace, Local: d.Local, URI: d.URI, Parent: e, ord: e.ord})
		}
	}
	return out
}
