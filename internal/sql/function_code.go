package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// A SQL function that cannot stand for a query where it is called runs
// instead, statement by statement, as PL/pgSQL code does: one whose body
// changes data (INSERT, UPDATE, DELETE, MERGE), one returning void, and
// one that calls itself (its inlining would not end). It keeps no state:
// the function becomes the PL/pgSQL function of its parameters and result
// whose body runs its statements in order and returns what the last one
// gives, read as PostgreSQL reads a SQL function's result. Such a function
// is called ad hoc only: a view refuses it (0A000).

// codeBody is the PL/pgSQL body a SQL function runs as, from the texts of
// its statements: the queries before the last are performed, their rows
// discarded; the last gives the result. Parameters are read as in a SQL
// function, a column of the statement's tables first.
func codeBody(f *Function, texts []string, queries []bool, modes string) string {
	var sb strings.Builder
	sb.WriteString("#variable_conflict use_column\n")
	scalar := len(f.Cols) == 1 && !f.Set
	if len(f.Cols) == 1 {
		sb.WriteString(resultDecl(f.ColTypeString(0)))
	}
	sb.WriteString("BEGIN\n")
	for i, t := range texts {
		last := i == len(texts)-1
		switch {
		case last && scalar:
			sb.WriteString("FOR _sqlfn_r IN " + t + "\nLOOP\nRETURN _sqlfn_r;\nEND LOOP;\nRETURN NULL;\n")
		case last && len(f.Cols) == 1:
			sb.WriteString("FOR _sqlfn_r IN " + t + "\nLOOP\nRETURN NEXT _sqlfn_r;\nEND LOOP;\nRETURN;\n")
		case last && len(f.Cols) > 1 && !f.Set:
			// The first row into the OUT parameters; without one the
			// record is NULL (Signature.NullWithoutRow reads FOUND).
			sb.WriteString("FOR " + outTargets(modes) + " IN " + t + "\nLOOP\nEXIT;\nEND LOOP;\n")
		case last && len(f.Cols) > 1:
			sb.WriteString("RETURN QUERY " + t + ";\nRETURN;\n")
		case queries[i]:
			sb.WriteString("PERFORM * FROM (" + t + ") AS _sqlfn_q;\n")
		default:
			sb.WriteString(t + ";\n")
		}
	}
	sb.WriteString("END")
	return sb.String()
}

// prepareCode makes, for a SQL function of CREATE statement cf and body
// statements stmts (of texts texts, "" when unknown), the PL/pgSQL
// function it would run as (RunAsCode); nothing when a text is missing.
func (b *binder) prepareCode(f *Function, cf *pg_query.CreateFunctionStmt, stmts []*pg_query.Node, texts []string) {
	for i, t := range texts {
		st := stmts[i]
		if (i < len(texts)-1 || len(f.Cols) == 0) && returning(st) {
			// PL/pgSQL has no destination for the rows, which a SQL
			// function discards.
			st = proto.Clone(st).(*pg_query.Node)
			setReturning(st, nil)
			t = ""
		}
		if strings.TrimSpace(t) == "" {
			text, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: st}}})
			if err != nil {
				return
			}
			texts[i] = text
		}
		texts[i] = strings.TrimRight(strings.TrimSpace(texts[i]), ";")
	}
	queries := make([]bool, len(stmts))
	for i, st := range stmts {
		// A query's rows PL/pgSQL must PERFORM to discard.
		queries[i] = st.GetSelectStmt() != nil && st.GetSelectStmt().IntoClause == nil
	}
	modes := ""
	for _, n := range cf.Parameters {
		modes += paramMode(n.GetFunctionParameter().Mode)
	}
	source := codeBody(f, texts, queries, modes)
	c := proto.Clone(cf).(*pg_query.CreateFunctionStmt)
	c.SqlBody, c.Replace = nil, false
	var opts []*pg_query.Node
	for _, o := range c.Options {
		switch o.GetDefElem().GetDefname() {
		case "language", "as":
			continue
		}
		opts = append(opts, o)
	}
	def := func(name string, arg *pg_query.Node) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_DefElem{DefElem: &pg_query.DefElem{Defname: name, Arg: arg, Location: -1}}}
	}
	opts = append(opts, def("language", pg_query.MakeStrNode(LangPLpgSQL)),
		def("as", pg_query.MakeListNode([]*pg_query.Node{pg_query.MakeStrNode(source)})))
	c.Options = opts
	text, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{
		Node: &pg_query.Node_CreateFunctionStmt{CreateFunctionStmt: c}}}}})
	if err != nil {
		return
	}
	f.code = &codeForm{source: source, plsql: text, modes: modes}
}

// outTargets lists, as $n, the OUT and INOUT parameters of a function
// whose parameters have modes modes.
func outTargets(modes string) string {
	var ts []string
	for i, m := range modes {
		if m == 'o' || m == 'b' {
			ts = append(ts, "$"+strconv.Itoa(i+1))
		}
	}
	return strings.Join(ts, ", ")
}

// codeForm is the PL/pgSQL function a SQL function runs as.
type codeForm struct {
	source, plsql, modes, why string
	// inline is the function as inlined, when it runs as code for its
	// security alone (function_security.go).
	inline *inlineForm
	// stmts are the body's statements, located in the CREATE statement's
	// text, which CheckCodeBody binds; nil when their text was not found.
	stmts []*pg_query.Node
}

// RunAsCode makes f, a SQL function, run as the PL/pgSQL function its
// statements make, rather than inline; why says what keeps it from
// being inlined ("modifies data"). It is false when f cannot run so.
func (f *Function) RunAsCode(why string) bool {
	if f.AnyRecord {
		return false
	}
	return f.runAsCode(why)
}

// runAsCode is RunAsCode for any function with code, one returning SETOF
// record too, whose rows a column definition list then types
// (codeInstance).
func (f *Function) runAsCode(why string) bool {
	if f.code == nil {
		return false
	}
	f.Language, f.Source, f.PLSQL, f.ArgModes = LangPLpgSQL, f.code.source, f.code.plsql, f.code.modes
	f.Body, f.Earlier, f.SQLCode, f.code.why = nil, nil, true, why
	return true
}

// refuseCodeInView refuses a call in a view of a SQL function run as
// code: a view cannot run statements at each change.
func (b *binder) refuseCodeInView(fn *Function, loc int32) error {
	if fn.Generic != nil {
		fn = fn.Generic
	}
	b.adHocCall = true
	return b.refuse(loc, "SQL function %s() cannot be maintained in a view: it %s", fn.Name, fn.code.why).
		WithHint("a view is maintained from the queries it stands for; call the function in a statement of its own")
}

// resultDecl declares the variable of a function's result in its code.
func resultDecl(typ string) string { return "DECLARE _sqlfn_r " + typ + ";\n" }

// concretizeCode declares the result variable of inst, an instance of a
// polymorphic SQL function run as code, of the instance's result type.
func (f *Function) concretizeCode() {
	inst := f
	g := inst.Generic
	if !inst.SQLCode || g == nil || len(g.ColPoly) != 1 || g.ColPoly[0] == PolyNone {
		return
	}
	t := inst.Cols[0].Type
	from := resultDecl(g.ColPoly[0].String())
	to := resultDecl(`"` + polyTypeMark + `"."` + strconv.Itoa(int(t.Kind)) + `"."` + strconv.Itoa(int(t.Mod)) + `"`)
	inst.Source = strings.Replace(inst.Source, from, to, 1)
	inst.PLSQL = strings.Replace(inst.PLSQL, from, to, 1)
}

// returning reports whether a data change has a RETURNING list.
func returning(n *pg_query.Node) bool {
	switch {
	case n.GetInsertStmt() != nil:
		return len(n.GetInsertStmt().ReturningList) > 0
	case n.GetUpdateStmt() != nil:
		return len(n.GetUpdateStmt().ReturningList) > 0
	case n.GetDeleteStmt() != nil:
		return len(n.GetDeleteStmt().ReturningList) > 0
	case n.GetMergeStmt() != nil:
		return len(n.GetMergeStmt().ReturningList) > 0
	}
	return false
}

// setReturning sets a data change's RETURNING list.
func setReturning(n *pg_query.Node, list []*pg_query.Node) {
	switch {
	case n.GetInsertStmt() != nil:
		n.GetInsertStmt().ReturningList = list
	case n.GetUpdateStmt() != nil:
		n.GetUpdateStmt().ReturningList = list
	case n.GetDeleteStmt() != nil:
		n.GetDeleteStmt().ReturningList = list
	case n.GetMergeStmt() != nil:
		n.GetMergeStmt().ReturningList = list
	}
}

// CodeUser is a Catalog told that a statement runs the statements of a
// SQL function run as code, which may write: the statement then runs as
// one calling a PL/pgSQL function does.
type CodeUser interface {
	UseCode()
}

// useCode tells the catalog that the statement runs fn's statements.
func (b *binder) useCode(fn *Function) {
	if cu, ok := b.cat.(CodeUser); ok && fn.SQLCode {
		cu.UseCode()
	}
}
