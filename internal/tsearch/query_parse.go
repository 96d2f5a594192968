package tsearch

// The tsquery parser, as PostgreSQL's parse_tsquery: a tokenizer for the
// standard syntax (tsquery input, to_tsquery), for plain text
// (plainto_tsquery, phraseto_tsquery: the whole text is one operand) or
// for web search syntax; operators go through a stack by priority into a
// polish list, which becomes a tree; stop words leave placeholders that
// are then removed.

// queryMode chooses the tokenizer.
type queryMode uint8

const (
	modeStandard queryMode = iota
	modePlain
	modeWeb
)

type tokenKind uint8

const (
	ptEnd tokenKind = iota
	ptErr
	ptVal
	ptOpr
	ptOpen
	ptClose
)

const (
	waitOperand = iota + 1
	waitOperator
	waitFirstOperand
)

type queryParser struct {
	in    string
	at    int
	count int // open parentheses
	state int
	mode  queryMode
	val   valueParser
	pol   []*Node // the polish list, in push order
	// push turns an operand into items of pol.
	push func(p *queryParser, word string, weight uint8, prefix bool) error
}

func (p *queryParser) syntaxError() error {
	return errorf(codeSyntax, "syntax error in tsquery: \"%s\"", p.in)
}

func (p *queryParser) pushOperator(op uint8, distance int) {
	if op != OpPhrase {
		distance = 0
	}
	p.pol = append(p.pol, &Node{Op: op, Distance: distance})
}

func (p *queryParser) pushValue(word string, weight uint8, prefix bool) error {
	if len(word) > MaxLexemeLen {
		return errorf(codeLimit, "word is too long in tsquery: \"%s\"", p.in)
	}
	p.pol = append(p.pol, Value(word, weight, prefix))
	return nil
}

func (p *queryParser) pushStop() { p.pol = append(p.pol, &Node{Op: opStop}) }

// token is one token of the query.
type token struct {
	kind     tokenKind
	op       uint8
	distance int
	word     string
	weight   uint8
	prefix   bool
}

func (p *queryParser) cur() (byte, bool) {
	if p.at >= len(p.in) {
		return 0, true
	}
	return p.in[p.at], false
}

// modifiers reads ':' then weights and '*' after an operand.
func (p *queryParser) modifiers() (weight uint8, prefix bool) {
	if p.at >= len(p.in) || p.in[p.at] != ':' {
		return 0, false
	}
	for p.at++; p.at < len(p.in); p.at++ {
		switch p.in[p.at] {
		case 'a', 'A':
			weight |= 8
		case 'b', 'B':
			weight |= 4
		case 'c', 'C':
			weight |= 2
		case 'd', 'D':
			weight |= 1
		case '*':
			prefix = true
		default:
			return
		}
	}
	return
}

// phraseOperator reads <-> or <N> at p.at; ok is false when it is not one.
func (p *queryParser) phraseOperator() (distance int, ok bool, err error) {
	s, i := p.in, p.at
	if i >= len(s) || s[i] != '<' {
		return 0, false, nil
	}
	i++
	distance = 1
	switch {
	case i < len(s) && s[i] == '-':
		i++
	case i < len(s) && isDigitB(s[i]):
		j := i
		n := 0
		for j < len(s) && isDigitB(s[j]) {
			n = min(n*10+int(s[j]-'0'), 1<<30)
			j++
		}
		if n > MaxPos+1 {
			return 0, false, errorf(codeInvalidParam, "distance in phrase operator must be an integer value between zero and %d inclusive", MaxPos+1)
		}
		distance, i = n, j
	default:
		return 0, false, nil
	}
	// PostgreSQL's loop stops at the end of the text before it returns:
	// the operator must be followed by something.
	if i >= len(s) || s[i] != '>' || i+1 >= len(s) {
		return 0, false, nil
	}
	p.at = i + 1
	return distance, true, nil
}

func (p *queryParser) nextStandard() (token, error) {
	for {
		c, end := p.cur()
		switch p.state {
		case waitFirstOperand, waitOperand:
			switch {
			case c == '!' && !end:
				p.at++
				p.state = waitOperand
				return token{kind: ptOpr, op: OpNot}, nil
			case c == '(' && !end:
				p.at++
				p.state = waitOperand
				p.count++
				return token{kind: ptOpen}, nil
			case c == ':' && !end:
				return token{}, p.syntaxError()
			case end || !isSpace(c):
				p.val.at = p.at
				ok, _, err := p.val.next()
				if err != nil {
					return token{}, err
				}
				if ok {
					p.at = p.val.at
					w, pre := p.modifiers()
					p.state = waitOperator
					return token{kind: ptVal, word: string(p.val.word), weight: w, prefix: pre}, nil
				}
				if p.state == waitFirstOperand {
					return token{kind: ptEnd}, nil
				}
				return token{}, errorf(codeSyntax, "no operand in tsquery: \"%s\"", p.in)
			}
		case waitOperator:
			switch {
			case c == '&' && !end:
				p.at++
				p.state = waitOperand
				return token{kind: ptOpr, op: OpAnd}, nil
			case c == '|' && !end:
				p.at++
				p.state = waitOperand
				return token{kind: ptOpr, op: OpOr}, nil
			}
			if d, ok, err := p.phraseOperator(); err != nil {
				return token{}, err
			} else if ok {
				p.state = waitOperand
				return token{kind: ptOpr, op: OpPhrase, distance: d}, nil
			}
			switch {
			case c == ')' && !end:
				p.at++
				p.count--
				if p.count < 0 {
					return token{kind: ptErr}, nil
				}
				return token{kind: ptClose}, nil
			case end:
				if p.count != 0 {
					return token{kind: ptErr}, nil
				}
				return token{kind: ptEnd}, nil
			case !isSpace(c):
				return token{kind: ptErr}, nil
			}
		}
		p.at += charLen(p.in, p.at)
	}
}

// orOperator reports whether "or" follows as web search's OR operator, and
// moves past it.
func (p *queryParser) orOperator() bool {
	s, i := p.in, p.at
	if i+2 > len(s) || (s[i]|0x20) != 'o' || (s[i+1]|0x20) != 'r' {
		return false
	}
	i += 2
	if i >= len(s) {
		return false
	}
	if c := s[i]; c == '-' || c == '_' || isASCIILetterB(c) || isDigitB(c) {
		return false
	}
	for {
		i += charLen(s, i)
		if i >= len(s) {
			return false
		}
		if !isSpace(s[i]) {
			break
		}
	}
	p.at += 2
	return true
}

func isASCIILetterB(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// nextWeb is web search's tokenizer: words joined by an implicit AND,
// "or", -word, and quoted text as one operand.
func (p *queryParser) nextWeb() (token, error) {
	for {
		c, end := p.cur()
		switch p.state {
		case waitFirstOperand, waitOperand:
			switch {
			case c == '-' && !end:
				p.at++
				p.state = waitOperand
				return token{kind: ptOpr, op: OpNot}, nil
			case c == '"' && !end:
				p.at++
				from := p.at
				for p.at < len(p.in) && p.in[p.at] != '"' {
					p.at++
				}
				w := p.in[from:p.at]
				if p.at < len(p.in) {
					p.at++
				}
				p.state = waitOperator
				p.count++
				return token{kind: ptVal, word: w}, nil
			case !end && isOperator(c):
				p.at++
				p.state = waitOperand
				continue
			case end || !isSpace(c):
				p.val.at = p.at
				ok, _, err := p.val.next()
				if err != nil {
					return token{}, err
				}
				if ok {
					p.at = p.val.at
					p.state = waitOperator
					return token{kind: ptVal, word: string(p.val.word)}, nil
				}
				if p.state == waitFirstOperand {
					return token{kind: ptEnd}, nil
				}
				p.pushStop()
				return token{kind: ptEnd}, nil
			}
		case waitOperator:
			switch {
			case c == '"' && !end:
				p.state = waitOperand
				return token{kind: ptOpr, op: OpAnd}, nil
			case p.orOperator():
				p.state = waitOperand
				return token{kind: ptOpr, op: OpOr}, nil
			case end:
				return token{kind: ptEnd}, nil
			case !isSpace(c):
				p.state = waitOperand
				return token{kind: ptOpr, op: OpAnd}, nil
			}
		}
		p.at += charLen(p.in, p.at)
	}
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func (p *queryParser) next() (token, error) {
	switch p.mode {
	case modePlain:
		if p.at >= len(p.in) {
			return token{kind: ptEnd}, nil
		}
		w := p.in[p.at:]
		p.at = len(p.in)
		p.count++
		return token{kind: ptVal, word: w}, nil
	case modeWeb:
		return p.nextWeb()
	}
	return p.nextStandard()
}

type opElem struct {
	op       uint8
	distance int
}

const stackDepth = 32

func (p *queryParser) cleanStack(stack []opElem, op uint8) []opElem {
	pr := priority(op)
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if op != OpNot && pr > priority(top.op) || op == OpNot && pr >= priority(top.op) {
			break
		}
		stack = stack[:len(stack)-1]
		p.pushOperator(top.op, top.distance)
	}
	return stack
}

// makePol reads tokens up to the end or a closing parenthesis into p.pol.
func (p *queryParser) makePol(depth int) error {
	if depth > 1000 {
		return errorf("54001", "stack depth limit exceeded")
	}
	var stack []opElem
	for {
		t, err := p.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case ptEnd:
			p.cleanStack(stack, OpOr)
			return nil
		case ptVal:
			if err := p.push(p, t.word, t.weight, t.prefix); err != nil {
				return err
			}
		case ptOpr:
			stack = p.cleanStack(stack, t.op)
			if len(stack) == stackDepth {
				return errorf("XX000", "tsquery stack too small")
			}
			stack = append(stack, opElem{t.op, t.distance})
		case ptOpen:
			if err := p.makePol(depth + 1); err != nil {
				return err
			}
		case ptClose:
			p.cleanStack(stack, OpOr)
			return nil
		default:
			return p.syntaxError()
		}
	}
}

// parseQuery parses in; push turns each operand into items.
func parseQuery(in string, mode queryMode, push func(p *queryParser, word string, weight uint8, prefix bool) error) (*Node, error) {
	p := &queryParser{in: in, mode: mode, state: waitFirstOperand, push: push}
	p.val = valueParser{in: in, isQuery: true, isWeb: mode == modeWeb}
	if err := p.makePol(0); err != nil {
		return nil, err
	}
	if len(p.pol) == 0 {
		return nil, nil
	}
	// The polish list read backwards is the prefix form: an operator, its
	// right operand, its left operand.
	i := len(p.pol) - 1
	var build func() (*Node, error)
	stop := false
	build = func() (*Node, error) {
		if i < 0 {
			return nil, errorf("XX000", "malformed tsquery: operand not found")
		}
		n := p.pol[i]
		i--
		switch n.Op {
		case opValue:
			return n, nil
		case opStop:
			stop = true
			return n, nil
		}
		var err error
		if n.R, err = build(); err != nil {
			return nil, err
		}
		if n.Op != OpNot {
			if n.L, err = build(); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
	root, err := build()
	if err != nil {
		return nil, err
	}
	if i >= 0 {
		return nil, errorf("XX000", "malformed tsquery: extra nodes")
	}
	if stop {
		root, _, _ = cleanStopwords(root)
	}
	return root, nil
}

// cleanStopwords removes stop word placeholders from n, adjusting the
// distances of phrase operators around them so that the words left keep
// their places (PostgreSQL's clean_stopword_intree). ladd and radd are the
// distances the parent must add on n's left and right.
func cleanStopwords(n *Node) (_ *Node, ladd, radd int) {
	switch n.Op {
	case opValue:
		return n, 0, 0
	case opStop:
		return nil, 0, 0
	case OpNot:
		r, l, rr := cleanStopwords(n.R)
		if r == nil {
			return nil, l, rr
		}
		n.R = r
		return n, l, rr
	}
	var lladd, lradd, rladd, rradd int
	n.L, lladd, lradd = cleanStopwords(n.L)
	n.R, rladd, rradd = cleanStopwords(n.R)
	isPhrase := n.Op == OpPhrase
	d := 0
	if isPhrase {
		d = n.Distance
	}
	switch {
	case n.L == nil && n.R == nil:
		if isPhrase {
			ladd = lladd + d + rladd
			return nil, ladd, ladd
		}
		m := max(lladd, rladd)
		return nil, m, m
	case n.L == nil:
		if isPhrase {
			return n.R, lladd + d + rladd, rradd
		}
		return n.R, rladd, rradd
	case n.R == nil:
		if isPhrase {
			return n.L, lladd, lradd + d + rradd
		}
		return n.L, lladd, lradd
	case isPhrase:
		n.Distance += lradd + rladd
		return n, lladd, rradd
	}
	return n, 0, 0
}

// ParseQuery is tsquery's input function.
func ParseQuery(s string) (Query, error) {
	n, err := parseQuery(s, modeStandard, func(p *queryParser, w string, weight uint8, prefix bool) error {
		return p.pushValue(w, weight, prefix)
	})
	if err != nil {
		return "", err
	}
	return EncodeQuery(n), nil
}
