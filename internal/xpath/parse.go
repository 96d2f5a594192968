package xpath

import (
	"slices"
	"strings"
)

// The expression tree.
type (
	expr       interface{}
	numberLit  float64
	stringLit  string
	varRef     string
	negExpr    struct{ x expr }
	binaryExpr struct {
		op   string
		l, r expr
	}
	funcCall struct {
		fn   *function
		args []expr
	}
	// filterExpr is a primary expression with predicates.
	filterExpr struct {
		x     expr
		preds []expr
	}
	// pathExpr is a location path: from the root (abs), from the result
	// of start, or from the context node.
	pathExpr struct {
		start expr
		abs   bool
		steps []step
	}
	step struct {
		axis  axis
		test  nodeTest
		preds []expr
	}
)

type axis uint8

const (
	axisChild axis = iota
	axisDescendant
	axisDescendantOrSelf
	axisParent
	axisAncestor
	axisAncestorOrSelf
	axisFollowingSibling
	axisPrecedingSibling
	axisFollowing
	axisPreceding
	axisAttribute
	axisNamespace
	axisSelf
)

var axes = map[string]axis{
	"child": axisChild, "descendant": axisDescendant, "descendant-or-self": axisDescendantOrSelf,
	"parent": axisParent, "ancestor": axisAncestor, "ancestor-or-self": axisAncestorOrSelf,
	"following-sibling": axisFollowingSibling, "preceding-sibling": axisPrecedingSibling,
	"following": axisFollowing, "preceding": axisPreceding, "attribute": axisAttribute,
	"namespace": axisNamespace, "self": axisSelf,
}

// reverse reports whether an axis numbers its nodes in reverse document
// order.
func (a axis) reverse() bool {
	return a == axisAncestor || a == axisAncestorOrSelf || a == axisPreceding || a == axisPrecedingSibling
}

type testKind uint8

const (
	testName    testKind = iota // a QName, prefix:* or *
	testNode                    // node()
	testText                    // text()
	testComment                 // comment()
	testPI                      // processing-instruction([target])
)

type nodeTest struct {
	kind  testKind
	any   bool   // * or prefix:*
	anyNS bool   // *
	local string // the local name, or the target of processing-instruction(target)
	uri   string
	named bool // a processing-instruction test with a target
}

// Error is an expression that cannot be compiled (Compile) or evaluated;
// Detail says why, in libxml2's words.
type Error struct {
	Compile bool
	Detail  string
}

func (e *Error) Error() string { return e.Detail }

func compileError(d string) *Error { return &Error{Compile: true, Detail: d} }
func evalError(d string) *Error    { return &Error{Detail: d} }

// Expr is a compiled XPath expression.
type Expr struct{ root expr }

// Compile parses an XPath expression; ns maps the prefixes it may use to
// their namespace URIs.
func Compile(s string, ns map[string]string) (*Expr, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, ns: ns}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tokEOF {
		return nil, compileError("Invalid expression")
	}
	if p.evalErr != nil {
		return nil, p.evalErr
	}
	return &Expr{root: e}, nil
}

type parser struct {
	toks []token
	i    int
	ns   map[string]string
	// evalErr is what libxml2 finds only on evaluating: an undefined
	// prefix, function or variable, a wrong count of arguments.
	evalErr *Error
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}
func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tokOp && t.text == op
}
func (p *parser) expect(op string) error {
	if !p.isOp(op) {
		return compileError("Invalid expression")
	}
	p.i++
	return nil
}

func (p *parser) later(d string) {
	if p.evalErr == nil {
		p.evalErr = evalError(d)
	}
}

// binaryLevels are the binary operators from the loosest binding.
var binaryLevels = [][]string{{"or"}, {"and"}, {"=", "!="}, {"<", ">", "<=", ">="}, {"+", "-"}, {"mul", "div", "mod"}}

func (p *parser) expr() (expr, error) { return p.binary(0) }

func (p *parser) binary(level int) (expr, error) {
	if level == len(binaryLevels) {
		return p.unary()
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tokOp || !slices.Contains(binaryLevels[level], t.text) {
			return l, nil
		}
		p.next()
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = binaryExpr{op: t.text, l: l, r: r}
	}
}

func (p *parser) unary() (expr, error) {
	if p.isOp("-") {
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return negExpr{x}, nil
	}
	l, err := p.path()
	if err != nil {
		return nil, err
	}
	for p.isOp("|") {
		p.next()
		r, err := p.path()
		if err != nil {
			return nil, err
		}
		l = binaryExpr{op: "|", l: l, r: r}
	}
	return l, nil
}

var nodeTypes = map[string]testKind{"node": testNode, "text": testText, "comment": testComment, "processing-instruction": testPI}

func (p *parser) path() (expr, error) {
	t := p.peek()
	_, nodeType := nodeTypes[t.text]
	startsFilter := t.kind == tokNumber || t.kind == tokLiteral || t.kind == tokVariable ||
		t.kind == tokOp && t.text == "(" || t.kind == tokFunc && !nodeType
	if startsFilter {
		x, err := p.filter()
		if err != nil {
			return nil, err
		}
		if !p.isOp("/") && !p.isOp("//") {
			return x, nil
		}
		pe := &pathExpr{start: x}
		return pe, p.relative(pe)
	}
	pe := &pathExpr{}
	switch {
	case p.isOp("/"):
		p.next()
		pe.abs = true
		if !p.startsStep() {
			return pe, nil
		}
	case p.isOp("//"):
		p.next()
		pe.abs = true
		pe.steps = append(pe.steps, step{axis: axisDescendantOrSelf, test: nodeTest{kind: testNode}})
	}
	if err := p.stepInto(pe); err != nil {
		return nil, err
	}
	return pe, p.relative(pe)
}

// relative reads the steps after a / or //.
func (p *parser) relative(pe *pathExpr) error {
	for {
		switch {
		case p.isOp("/"):
			p.next()
		case p.isOp("//"):
			p.next()
			pe.steps = append(pe.steps, step{axis: axisDescendantOrSelf, test: nodeTest{kind: testNode}})
		default:
			return nil
		}
		if err := p.stepInto(pe); err != nil {
			return err
		}
	}
}

func (p *parser) startsStep() bool {
	t := p.peek()
	switch t.kind {
	case tokName, tokAxis:
		return true
	case tokFunc:
		_, ok := nodeTypes[t.text]
		return ok
	case tokOp:
		return t.text == "." || t.text == ".." || t.text == "@"
	}
	return false
}

func (p *parser) stepInto(pe *pathExpr) error {
	s, err := p.step()
	if err != nil {
		return err
	}
	pe.steps = append(pe.steps, s)
	return nil
}

func (p *parser) step() (step, error) {
	switch {
	case p.isOp("."):
		p.next()
		return step{axis: axisSelf, test: nodeTest{kind: testNode}}, nil
	case p.isOp(".."):
		p.next()
		return step{axis: axisParent, test: nodeTest{kind: testNode}}, nil
	}
	s := step{axis: axisChild}
	if p.isOp("@") {
		p.next()
		s.axis = axisAttribute
	} else if t := p.peek(); t.kind == tokAxis {
		a, ok := axes[t.text]
		if !ok {
			return s, compileError("Invalid expression")
		}
		p.next()
		s.axis = a
	}
	t := p.next()
	switch t.kind {
	case tokName:
		s.test = p.nameTest(t.text)
	case tokFunc:
		k, ok := nodeTypes[t.text]
		if !ok {
			return s, compileError("Invalid expression")
		}
		s.test = nodeTest{kind: k}
		if k == testPI && p.peek().kind == tokLiteral {
			s.test.local, s.test.named = p.next().text, true
		}
		if err := p.expect(")"); err != nil {
			return s, err
		}
	default:
		return s, compileError("Invalid expression")
	}
	preds, err := p.predicates()
	s.preds = preds
	return s, err
}

func (p *parser) nameTest(n string) nodeTest {
	if n == "*" {
		return nodeTest{kind: testName, any: true, anyNS: true}
	}
	prefix, local := splitQName(n)
	t := nodeTest{kind: testName, local: local}
	if local == "*" {
		t.any, t.local = true, ""
	}
	if prefix != "" {
		uri, ok := p.ns[prefix]
		if prefix == "xml" {
			uri, ok = XMLNamespace, true
		}
		if !ok {
			p.later("Undefined namespace prefix")
		}
		t.uri = uri
	}
	return t
}

func (p *parser) predicates() ([]expr, error) {
	var preds []expr
	for p.isOp("[") {
		p.next()
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.isOp("]") {
			return nil, compileError("Invalid predicate")
		}
		p.next()
		preds = append(preds, e)
	}
	return preds, nil
}

func (p *parser) filter() (expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	preds, err := p.predicates()
	if err != nil || len(preds) == 0 {
		return x, err
	}
	return filterExpr{x: x, preds: preds}, nil
}

func (p *parser) primary() (expr, error) {
	t := p.next()
	switch t.kind {
	case tokNumber:
		return numberLit(t.num), nil
	case tokLiteral:
		return stringLit(t.text), nil
	case tokVariable:
		p.later("Undefined variable")
		return varRef(t.text), nil
	case tokOp:
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		return e, p.expect(")")
	}
	// a function call
	var args []expr
	if !p.isOp(")") {
		for {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if !p.isOp(",") {
				break
			}
			p.next()
		}
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	fn := functions[t.text]
	switch {
	case fn == nil || strings.Contains(t.text, ":"):
		p.later("Unregistered function")
	case len(args) < fn.min || fn.max >= 0 && len(args) > fn.max:
		p.later("Invalid number of arguments")
	}
	return funcCall{fn: fn, args: args}, nil
}
