package xpath

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// function is one of XPath 1.0's core functions: it takes from min to max
// arguments (max -1: any number).
type function struct {
	min, max int
	call     func(c ctx, args []value) (value, error)
}

// eval evaluates the arguments and calls f.
func (f *function) eval(c ctx, args []expr) (value, error) {
	vs := make([]value, len(args))
	for i, a := range args {
		v, err := eval(a, c)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return f.call(c, vs)
}

var functions map[string]*function

func init() {
	str := func(f func(s string) value) *function {
		return &function{0, 1, func(c ctx, a []value) (value, error) {
			if len(a) == 0 {
				return f(c.node.StringValue()), nil
			}
			return f(toString(a[0])), nil
		}}
	}
	str2 := func(f func(a, b string) value) *function {
		return &function{2, 2, func(c ctx, a []value) (value, error) { return f(toString(a[0]), toString(a[1])), nil }}
	}
	num := func(f func(float64) float64) *function {
		return &function{1, 1, func(c ctx, a []value) (value, error) { return f(toNumber(a[0])), nil }}
	}
	functions = map[string]*function{
		"last":     {0, 0, func(c ctx, a []value) (value, error) { return float64(c.size), nil }},
		"position": {0, 0, func(c ctx, a []value) (value, error) { return float64(c.pos), nil }},
		"count": {1, 1, func(c ctx, a []value) (value, error) {
			s, err := nodeSet(a[0])
			return float64(len(s)), err
		}},
		"id":         {1, 1, idFunc},
		"local-name": nodeName(func(n *Node) string { return n.Local }),
		"namespace-uri": nodeName(func(n *Node) string {
			if n.Kind == Element || n.Kind == Attribute {
				return n.URI
			}
			return ""
		}),
		"name": nodeName(func(n *Node) string {
			if n.Kind == Element || n.Kind == Attribute {
				return n.QName()
			}
			return n.Local
		}),
		"string": str(func(s string) value { return s }),
		"concat": {2, -1, func(c ctx, a []value) (value, error) {
			var b strings.Builder
			for _, v := range a {
				b.WriteString(toString(v))
			}
			return b.String(), nil
		}},
		"starts-with": str2(func(a, b string) value { return strings.HasPrefix(a, b) }),
		"contains":    str2(func(a, b string) value { return strings.Contains(a, b) }),
		"substring-before": str2(func(a, b string) value {
			before, _, found := strings.Cut(a, b)
			if !found {
				return ""
			}
			return before
		}),
		"substring-after": str2(func(a, b string) value {
			_, after, _ := strings.Cut(a, b)
			return after
		}),
		"substring":     {2, 3, substring},
		"string-length": str(func(s string) value { return float64(utf8.RuneCountInString(s)) }),
		"normalize-space": str(func(s string) value {
			return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r < utf8.RuneSelf && isSpace(byte(r)) }), " ")
		}),
		"translate": {3, 3, func(c ctx, a []value) (value, error) {
			return translate(toString(a[0]), toString(a[1]), toString(a[2])), nil
		}},
		"boolean": {1, 1, func(c ctx, a []value) (value, error) { return toBool(a[0]), nil }},
		"not":     {1, 1, func(c ctx, a []value) (value, error) { return !toBool(a[0]), nil }},
		"true":    {0, 0, func(c ctx, a []value) (value, error) { return true, nil }},
		"false":   {0, 0, func(c ctx, a []value) (value, error) { return false, nil }},
		"lang":    {1, 1, lang},
		"number": {0, 1, func(c ctx, a []value) (value, error) {
			if len(a) == 0 {
				return stringToNumber(c.node.StringValue()), nil
			}
			return toNumber(a[0]), nil
		}},
		"sum": {1, 1, func(c ctx, a []value) (value, error) {
			s, err := nodeSet(a[0])
			total := 0.0
			for _, n := range s {
				total += stringToNumber(n.StringValue())
			}
			return total, err
		}},
		"floor":   num(math.Floor),
		"ceiling": num(math.Ceil),
		"round":   num(round),
	}
}

func nodeSet(v value) ([]*Node, error) {
	s, ok := v.([]*Node)
	if !ok {
		return nil, evalError("Invalid type")
	}
	return s, nil
}

// nodeName makes local-name, namespace-uri or name: of the first node of
// the argument, or of the context node.
func nodeName(f func(*Node) string) *function {
	return &function{0, 1, func(c ctx, a []value) (value, error) {
		n := c.node
		if len(a) == 1 {
			s, err := nodeSet(a[0])
			if err != nil || len(s) == 0 {
				return "", err
			}
			n = s[0]
		}
		if n.Kind == Root || n.Kind == Text || n.Kind == CDATA || n.Kind == Comment {
			return "", nil
		}
		return f(n), nil
	}}
}

// round is XPath's round: to the nearest integer, halves up; between -0.5
// and 0, negative zero.
func round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	if x < 0 && x >= -0.5 {
		return math.Copysign(0, -1)
	}
	return math.Floor(x + 0.5)
}

// substring is substring(s, start [, length]) by XPath's rounding rules.
func substring(c ctx, a []value) (value, error) {
	rs := []rune(toString(a[0]))
	start := round(toNumber(a[1]))
	end := math.Inf(1)
	if len(a) == 3 {
		end = start + round(toNumber(a[2]))
	}
	var b strings.Builder
	for i, r := range rs {
		if p := float64(i + 1); p >= start && p < end {
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

func translate(s, from, to string) string {
	fr, tr := []rune(from), []rune(to)
	var b strings.Builder
	for _, r := range s {
		i := -1
		for j, f := range fr {
			if f == r {
				i = j
				break
			}
		}
		switch {
		case i < 0:
			b.WriteRune(r)
		case i < len(tr):
			b.WriteRune(tr[i])
		}
	}
	return b.String()
}

// lang(s) is whether the context node's xml:lang (or its nearest
// ancestor's) is s or a sublanguage of it, ignoring case.
func lang(c ctx, a []value) (value, error) {
	want := strings.ToLower(toString(a[0]))
	for n := c.node; n != nil; n = n.Parent {
		for _, at := range n.Attrs {
			if at.Local == "lang" && at.URI == XMLNamespace {
				l := strings.ToLower(at.Data)
				return l == want || strings.HasPrefix(l, want+"-"), nil
			}
		}
	}
	return false, nil
}

// idFunc is id(x): the elements whose xml:id is one of the
// white-space-separated tokens of x (of each node's string value, for a
// node set). A document type's ID attributes are not read.
func idFunc(c ctx, a []value) (value, error) {
	var tokens []string
	if s, ok := a[0].([]*Node); ok {
		for _, n := range s {
			tokens = append(tokens, strings.Fields(n.StringValue())...)
		}
	} else {
		tokens = strings.Fields(toString(a[0]))
	}
	root := c.node
	for root.Parent != nil {
		root = root.Parent
	}
	var out []*Node
	for _, n := range appendDescendants(nil, root) {
		for _, at := range n.Attrs {
			if at.Local == "id" && at.URI == XMLNamespace && slices.Contains(tokens, at.Data) {
				out = append(out, n)
			}
		}
	}
	return out, nil
}
