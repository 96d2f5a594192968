package plpgsql

// The tree of a body: the statements of PostgreSQL's PL/pgSQL grammar
// the interpreter runs, one type each.

type stmt interface{ isStmt() }

// pexpr is an expression or SQL statement of the body, as PostgreSQL's
// grammar gives its text; prep is its SQL with variables made parameters,
// made at its first run (the names it sees do not change).
type pexpr struct {
	text string
	mode int // 0: a SQL statement, 2: an expression, 3 to 5: target := expression
	prep *prepared
}

// datum is a declared variable or a parameter.
type datum struct {
	name     string
	typName  string // as written; "" for record
	record   bool   // declared record (or of a row type, rowType)
	line     int
	isConst  bool
	notNull  bool
	def      *pexpr
	implicit bool // found, a FOR loop's counter, a CASE's value
	// field and parent are set for a field of a record variable
	// (r.a := …): its name, and the record's datum.
	field  string
	parent int
	// cursor is set for a bound cursor's variable; fields are the datums
	// of a row (a bound cursor's arguments).
	cursor *cursorDecl
	fields []int
}

type (
	block struct {
		label    string
		line     int
		decls    []int // the datums the block declares
		aliases  []alias
		body     []stmt
		handlers []handler
	}
	handler struct {
		conds []string // condition names or SQLSTATEs
		body  []stmt
	}
	assign struct {
		target int
		e      *pexpr
	}
	ifStmt struct {
		conds  []*pexpr
		bodies [][]stmt
		els    []stmt
	}
	caseStmt struct {
		test    *pexpr // nil for a searched CASE
		testVar int
		whens   []*pexpr
		bodies  [][]stmt
		hasElse bool
		els     []stmt
	}
	loop struct {
		label string
		cond  *pexpr // WHILE's; nil for LOOP
		body  []stmt
	}
	forInt struct {
		label              string
		name               string
		dno                int
		lower, upper, step *pexpr
		reverse            bool
		body               []stmt
	}
	forQuery struct {
		label  string
		target target
		query  *pexpr
		dyn    bool // EXECUTE query USING params
		params []*pexpr
		body   []stmt
	}
	foreach struct {
		label  string
		target int
		slice  int
		e      *pexpr
		body   []stmt
	}
	exitStmt struct {
		exit  bool // EXIT, not CONTINUE
		label string
		cond  *pexpr
	}
	returnStmt  struct{ e *pexpr }
	returnNext  struct{ e *pexpr }
	returnQuery struct {
		query  *pexpr
		dyn    *pexpr
		params []*pexpr
	}
	raise struct {
		level    int
		condname string
		message  string
		params   []*pexpr
		options  []raiseOption
		line     int
	}
	raiseOption struct {
		kind int
		e    *pexpr
	}
	assertStmt struct{ cond, message *pexpr }
	execSQL    struct {
		sql    *pexpr
		into   bool
		strict bool
		target target
		final  bool // after its success none of a DO block's code runs (final.go)
	}
	dynExecute struct {
		query  *pexpr
		into   bool
		strict bool
		target target
		params []*pexpr
		final  bool // as execSQL's
	}
	perform struct{ e *pexpr }
	getDiag struct {
		stacked bool
		items   []diagItem
	}
	diagItem struct {
		kind   string
		target int
	}
	nullStmt struct{}
)

// target is where INTO or a FOR over a query puts a row: a record
// variable (rec >= 0), or a list of variables.
type target struct {
	rec    int
	fields []int
}

func (*block) isStmt()       {}
func (*assign) isStmt()      {}
func (*ifStmt) isStmt()      {}
func (*caseStmt) isStmt()    {}
func (*loop) isStmt()        {}
func (*forInt) isStmt()      {}
func (*forQuery) isStmt()    {}
func (*foreach) isStmt()     {}
func (*exitStmt) isStmt()    {}
func (*returnStmt) isStmt()  {}
func (*returnNext) isStmt()  {}
func (*returnQuery) isStmt() {}
func (*raise) isStmt()       {}
func (*assertStmt) isStmt()  {}
func (*execSQL) isStmt()     {}
func (*dynExecute) isStmt()  {}
func (*perform) isStmt()     {}
func (*getDiag) isStmt()     {}
func (*nullStmt) isStmt()    {}

// stmtKind is a statement's kind as PostgreSQL names it in an error's
// context.
func stmtKind(s stmt) string {
	switch s := s.(type) {
	case *block:
		return "statement block"
	case *assign:
		return "assignment"
	case *ifStmt:
		return "IF"
	case *caseStmt:
		return "CASE"
	case *loop:
		if s.cond != nil {
			return "WHILE"
		}
		return "LOOP"
	case *forInt:
		return "FOR with integer loop variable"
	case *forQuery:
		if s.dyn {
			return "FOR over EXECUTE statement"
		}
		return "FOR over SELECT rows"
	case *forCursor:
		return "FOR over cursor"
	case *foreach:
		return "FOREACH over array"
	case *exitStmt:
		if s.exit {
			return "EXIT"
		}
		return "CONTINUE"
	case *returnStmt:
		return "RETURN"
	case *returnNext:
		return "RETURN NEXT"
	case *returnQuery:
		return "RETURN QUERY"
	case *raise:
		return "RAISE"
	case *assertStmt:
		return "ASSERT"
	case *execSQL:
		return "SQL statement"
	case *dynExecute:
		return "EXECUTE"
	case *perform:
		return "PERFORM"
	case *getDiag:
		if s.stacked {
			return "GET STACKED DIAGNOSTICS"
		}
		return "GET DIAGNOSTICS"
	case *openStmt:
		return "OPEN"
	case *fetchStmt:
		if s.move {
			return "MOVE"
		}
		return "FETCH"
	case *closeStmt:
		return "CLOSE"
	case *nullStmt:
		return "NULL"
	case *txEnd:
		if s.rollback {
			return "ROLLBACK"
		}
		return "COMMIT"
	case *callStmt:
		return "CALL"
	}
	return "statement"
}
