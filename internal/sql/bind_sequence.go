package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// SeqOptions are the options of CREATE SEQUENCE, ALTER SEQUENCE and of an
// identity column; nil pointers are options not written.
type SeqOptions struct {
	Type                    value.Kind // Int2, Int4 or Int8; Unknown when not written
	Increment, Start, Cache *int64
	Min, Max                *int64
	NoMin, NoMax            bool // NO MINVALUE, NO MAXVALUE: the type's bound
	Cycle                   *bool
	Restart                 bool   // ALTER SEQUENCE … RESTART
	RestartWith             *int64 // … RESTART WITH n; nil: the start
	OwnedBy                 []string
	OwnedNone               bool // OWNED BY NONE
	// Name is an identity column's SEQUENCE NAME: the sequence it owns
	// is that one, kept when it exists and is owned by the column.
	Name string
}

// CreateSequence is CREATE SEQUENCE, or the sequence a serial or identity
// column owns (Owner set).
type CreateSequence struct {
	Name        string
	IfNotExists bool
	Opts        SeqOptions
	// Owner is the table and column that own the sequence: it is dropped
	// with them. Identity marks the sequence of an identity column.
	Owner    [2]string
	Identity bool
	// Temp marks CREATE TEMP SEQUENCE (or one made in pg_temp): the
	// session's own, as its temporary tables.
	Temp bool
	// Unlogged marks CREATE UNLOGGED SEQUENCE, and the sequence of a
	// serial or identity column of an unlogged table, as in PostgreSQL 15.
	Unlogged bool
}

// AlterSequence is ALTER SEQUENCE.
type AlterSequence struct {
	Name     string
	IfExists bool
	Opts     SeqOptions
}

// DropSequence is DROP SEQUENCE.
type DropSequence struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

func (*CreateSequence) bound() {}
func (*AlterSequence) bound()  {}
func (*DropSequence) bound()   {}

// SequenceCatalog is a Catalog that holds sequences: the binder checks
// that a sequence a call names exists, and names a serial column's
// sequence after the names taken.
type SequenceCatalog interface {
	// Sequence reports whether the sequence exists and, if a column owns
	// it, which (table, column).
	Sequence(name string) (owner [2]string, ok bool)
}

// TempCatalog is a Catalog bound for a session with temporary relations
// (tables, views, sequences): names written in text (nextval('s'),
// 's'::regclass) find them first, as PostgreSQL searches pg_temp first.
type TempCatalog interface {
	// TempRelation is the engine's key of the session's temporary
	// relation name, written unqualified or qualified by pg_temp (or
	// by the session's temporary schema's own name).
	TempRelation(schema, name string) (key string, ok bool)
	// RenameTemp returns a statement of a function's body with the names
	// of the session's temporary functions and types as their keys
	// (RenameTempObjects).
	RenameTemp(st *pg_query.Node) (*pg_query.Node, error)
}

func (b *binder) tempRelation(schema, name string) (string, bool) {
	// pg_temp_N, the session's schema written out, is pg_temp too: the
	// catalog tells.
	if tc, ok := b.cat.(TempCatalog); ok && (schema == "" || strings.HasPrefix(schema, "pg_temp")) {
		return tc.TempRelation(schema, name)
	}
	return "", false
}

func (b *binder) sequence(name string) (owner [2]string, ok bool) {
	if sc, is := b.cat.(SequenceCatalog); is {
		return sc.Sequence(name)
	}
	return owner, false
}

// bindSequenceCall binds nextval, currval, setval and lastval; ok is false
// for other functions. A constant name is resolved now, as PostgreSQL
// resolves a regclass constant; a computed one when the call runs.
func (b *binder) bindSequenceCall(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	var arity []int
	switch name {
	case "nextval", "currval", "pg_sequence_last_value":
		arity = []int{1}
	case "setval":
		arity = []int{2, 3}
	case "lastval":
		arity = []int{0}
	default:
		return nil, false, nil
	}
	if len(f.Funcname) > 1 {
		if q := f.Funcname[0].GetString_().Sval; q != "pg_catalog" {
			return nil, false, nil
		}
	}
	if b.forView {
		return nil, true, b.refuse(f.Location, "%s() changes or reads a sequence and cannot be maintained in a materialized view", name).
			WithHint("call it when the row is written, in the column's DEFAULT or the INSERT")
	}
	ok := false
	for _, n := range arity {
		ok = ok || n == len(f.Args)
	}
	if !ok || len(f.AggOrder) > 0 || f.FuncVariadic {
		return nil, true, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.TrimSuffix(strings.Repeat("unknown, ", len(f.Args)), ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	call := &expr.SeqCall{Fn: name, C: b.stmtClock}
	want := []value.Type{value.TextType, value.Int8Type, value.BoolType}
	for i, a := range f.Args {
		if tc := a.GetTypeCast(); i == 0 && tc != nil && tc.TypeName != nil && len(tc.TypeName.Names) > 0 &&
			tc.TypeName.Names[len(tc.TypeName.Names)-1].GetString_().Sval == "regclass" {
			a = tc.Arg // 'name'::regclass, as PostgreSQL writes a serial column's default
		}
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, true, err
		}
		t := want[i]
		if k := e.Type().Kind; i == 0 && (k == value.Oid || k.IsInteger()) && name == "pg_sequence_last_value" {
			// An object's number (pg_class.oid) names the sequence, as
			// its regclass does.
			c := &pg_query.TypeCast{Arg: a, Location: nodeLoc(a, f.Location), TypeName: &pg_query.TypeName{Location: f.Location}}
			if e, err = b.regCast(e, value.RegClass, c); err != nil {
				return nil, true, err
			}
		}
		if i == 0 && e.Type().Kind == value.RegClass {
			// A regclass (c.oid::regclass) is read by its name.
			if e, err = expr.Coerce(e, value.TextType, true); err != nil {
				return nil, true, err
			}
		}
		if k := e.Type().Kind; i == 0 && k != value.Unknown && !isString(k) {
			// PostgreSQL takes a regclass: a name, or an object's number,
			// which deltaview has none of.
			return nil, true, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", name, e.Type()).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		if e, err = expr.Coerce(e, t, false); err != nil {
			return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(a, f.Location)))
		}
		if i == 0 {
			if c, isConst := e.(*expr.Const); isConst && !c.V.IsNull() {
				seq, err := b.textRelationKey(c.V.String())
				if err != nil {
					return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(a, f.Location)))
				}
				if _, exists := b.sequence(seq); !exists {
					if _, rel := b.cat.Relation(seq); rel {
						return nil, true, b.stmt.errf(nodeLoc(a, f.Location), pgerr.WrongObjectType, "%q is not a sequence", seq)
					}
					return nil, true, b.stmt.errf(nodeLoc(a, f.Location), pgerr.UndefinedTable, "relation %q does not exist", seq)
				}
				seq = seqText(seq)
				e = &expr.Const{V: value.NewText(value.Text, seq), T: value.TextType}
			}
		}
		call.Args = append(call.Args, e)
	}
	return call, true, nil
}

func (b *binder) bindCreateSequence(cs *pg_query.CreateSeqStmt) (Bound, error) {
	rv := cs.Sequence
	temp := rv.Relpersistence == "t" || rv.Schemaname == "pg_temp"
	switch {
	case temp && rv.Schemaname != "" && rv.Schemaname != "pg_temp":
		return nil, b.stmt.errf(rv.Location, pgerr.InvalidTableDef, "cannot create temporary relation in non-temporary schema")
	case !temp && rv.Schemaname != "" && rv.Schemaname != "public":
		return nil, b.stmt.errf(rv.Location, pgerr.InvalidSchemaName, "schema %q does not exist", rv.Schemaname)
	}
	out := &CreateSequence{Name: rv.Relname, IfNotExists: cs.IfNotExists, Temp: temp, Unlogged: rv.Relpersistence == "u"}
	if err := b.seqOptions(cs.Options, &out.Opts, false, false); err != nil {
		return nil, err
	}
	return out, nil
}

func (b *binder) bindAlterSequence(as *pg_query.AlterSeqStmt) (Bound, error) {
	rv := as.Sequence
	out := &AlterSequence{Name: rv.Relname, IfExists: as.MissingOk}
	if err := b.seqOptions(as.Options, &out.Opts, true, false); err != nil {
		return nil, err
	}
	return out, nil
}

func (b *binder) bindDropSequence(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropSequence{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		items := o.GetList().GetItems()
		d.Names = append(d.Names, items[len(items)-1].GetString_().Sval)
	}
	return d, nil
}

// seqOptions reads the options of a sequence; RESTART only when alter,
// SEQUENCE NAME only in an identity column's options (identity).
func (b *binder) seqOptions(opts []*pg_query.Node, o *SeqOptions, alter, identity bool) error {
	seen := map[string]bool{}
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		if seen[d.Defname] {
			return b.stmt.errf(d.Location, pgerr.SyntaxError, "conflicting or redundant options")
		}
		seen[d.Defname] = true
		num := func() (*int64, error) {
			if d.Arg == nil {
				return nil, nil
			}
			v, ok := int64Arg(d.Arg)
			if !ok {
				return nil, b.stmt.errf(d.Location, pgerr.InvalidParameter, "%s requires an integer value", d.Defname)
			}
			return &v, nil
		}
		var err error
		switch d.Defname {
		case "as":
			t, terr := b.typeFromName(d.Arg.GetTypeName())
			if terr != nil {
				return terr
			}
			if t.Kind != value.Int2 && t.Kind != value.Int4 && t.Kind != value.Int8 {
				return b.stmt.errf(d.Location, pgerr.InvalidParameter, "sequence type must be smallint, integer, or bigint")
			}
			o.Type = t.Kind
		case "increment":
			o.Increment, err = num()
		case "start":
			o.Start, err = num()
		case "cache":
			o.Cache, err = num()
		case "minvalue":
			o.Min, err = num()
			o.NoMin = o.Min == nil
		case "maxvalue":
			o.Max, err = num()
			o.NoMax = o.Max == nil
		case "cycle":
			c := d.Arg.GetBoolean().Boolval
			if d.Arg.GetBoolean() == nil {
				c = d.Arg.GetInteger().Ival != 0
			}
			o.Cycle = &c
		case "restart":
			if !alter {
				return b.stmt.errf(d.Location, pgerr.SyntaxError, "RESTART option is only allowed in ALTER SEQUENCE")
			}
			o.Restart = true
			o.RestartWith, err = num()
		case "owned_by":
			var names []string
			for _, it := range d.Arg.GetList().GetItems() {
				names = append(names, it.GetString_().Sval)
			}
			switch {
			case len(names) == 1 && names[0] == "none":
				o.OwnedNone = true
			case len(names) >= 2:
				schema := ""
				if len(names) > 2 {
					schema = names[len(names)-3]
				}
				t, err := b.namesRelationKey(schema, names[len(names)-2])
				if err != nil {
					return err
				}
				o.OwnedBy = []string{t, names[len(names)-1]}
			default:
				// PostgreSQL's error has no position.
				return pgerr.New(pgerr.SyntaxError, "invalid OWNED BY option").WithHint("Specify OWNED BY table.column or OWNED BY NONE.")
			}
		case "sequence_name":
			if !identity {
				return b.refuse(d.Location, "SEQUENCE NAME is supported in an identity column's options only")
			}
			var names []string
			for _, it := range d.Arg.GetList().GetItems() {
				names = append(names, it.GetString_().Sval)
			}
			if len(names) == 0 {
				return b.stmt.errf(d.Location, pgerr.SyntaxError, "invalid SEQUENCE NAME option")
			}
			o.Name = names[len(names)-1]
		default:
			return b.refuse(d.Location, "sequence option %s is not supported", d.Defname)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// int64Arg reads an option's integer, which the grammar gives as an
// Integer or, beyond int32, as a Float's text.
func int64Arg(n *pg_query.Node) (int64, bool) {
	if i := n.GetInteger(); i != nil {
		return int64(i.Ival), true
	}
	if f := n.GetFloat(); f != nil {
		v, err := strconv.ParseInt(f.Fval, 10, 64)
		return v, err == nil
	}
	if c := n.GetAConst(); c != nil {
		if c.GetIval() != nil {
			return int64(c.GetIval().Ival), true
		}
		if c.GetFval() != nil {
			v, err := strconv.ParseInt(c.GetFval().Fval, 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// serialKinds are the serial pseudo-types and the integer type each
// stands for.
var serialKinds = map[string]value.Kind{
	"serial": value.Int4, "serial4": value.Int4,
	"bigserial": value.Int8, "serial8": value.Int8,
	"smallserial": value.Int2, "serial2": value.Int2,
}

// serialType reports whether a column's type is a serial pseudo-type.
func serialType(tn *pg_query.TypeName) (value.Kind, bool) {
	if tn == nil || len(tn.Names) != 1 || len(tn.ArrayBounds) > 0 || len(tn.Typmods) > 0 {
		return 0, false
	}
	k, ok := serialKinds[tn.Names[0].GetString_().Sval]
	return k, ok
}

// ownedSequence names the sequence a serial or identity column of table
// owns, table_column_seq, as PostgreSQL does: a name taken gets a number.
// A sequence that this very column owns already while the table does not
// exist (the database file's, created again at open) keeps its name.
func (b *binder) ownedSequence(ct *CreateTable, col string) string {
	base := ct.Name + "_" + col + "_seq"
	if len(base) > 63 {
		base = base[:63]
	}
	for n := 0; ; n++ {
		name := base
		if n > 0 {
			suffix := strconv.Itoa(n)
			name = base
			if len(name)+len(suffix) > 63 {
				name = name[:63-len(suffix)]
			}
			name += suffix
		}
		taken := false
		for _, s := range ct.Sequences {
			taken = taken || s.Name == name
		}
		if ct.Temp { // in the session's temporary namespace
			if _, t := b.tempRelation("", name); !t && !taken {
				return name
			}
			continue
		}
		owner, isSeq := b.sequence(name)
		if isSeq && owner == [2]string{ct.Name, col} {
			if _, exists := b.cat.Relation(ct.Name); !exists && !taken {
				return name
			}
		}
		if _, rel := b.cat.Relation(name); rel || isSeq {
			taken = true
		}
		if !taken {
			return name
		}
	}
}

// serialColumn makes column i of ct a serial one: an integer of kind k,
// NOT NULL, whose default is the next value of a sequence it owns.
func (b *binder) serialColumn(ct *CreateTable, i int, k value.Kind, identity byte, opts SeqOptions) {
	col := &ct.Cols[i]
	name := opts.Name
	if name == "" {
		name = b.ownedSequence(ct, col.Name)
	}
	if opts.Type == value.Unknown {
		opts.Type = k
	}
	ct.Sequences = append(ct.Sequences, &CreateSequence{Name: name, Opts: opts, Owner: [2]string{ct.Name, col.Name}, Identity: identity != 0, Unlogged: ct.Unlogged})
	col.NotNull = true
	col.Identity = identity
	var e expr.Expr = &expr.SeqCall{Fn: "nextval", Args: []expr.Expr{&expr.Const{V: value.NewText(value.Text, seqText(name)), T: value.TextType}}}
	if k != value.Int8 {
		e = &expr.Cast{E: e, To: value.Type{Kind: k, Mod: -1}}
	}
	col.Default = e
}

// identityConstraint binds GENERATED ALWAYS | BY DEFAULT AS IDENTITY on
// column i of ct.
func (b *binder) identityConstraint(ct *CreateTable, i int, c *pg_query.Constraint) error {
	col := &ct.Cols[i]
	k := col.Type.Kind
	if k != value.Int2 && k != value.Int4 && k != value.Int8 {
		return b.stmt.errf(c.Location, pgerr.InvalidParameter, "identity column type must be smallint, integer, or bigint")
	}
	if col.Identity != 0 {
		return b.stmt.errf(c.Location, pgerr.SyntaxError, "multiple identity specifications for column %q of table %q", col.Name, ct.Name)
	}
	if col.Default != nil {
		return b.stmt.errf(c.Location, pgerr.SyntaxError, "both default and identity specified for column %q of table %q", col.Name, ct.Name)
	}
	var opts SeqOptions
	if err := b.seqOptions(c.Options, &opts, false, true); err != nil {
		return err
	}
	if opts.Type != value.Unknown {
		return b.stmt.errf(c.Location, pgerr.SyntaxError, "identity column type is the column's: AS is not allowed")
	}
	when := byte('a')
	if c.GeneratedWhen == "d" {
		when = 'd'
	}
	b.serialColumn(ct, i, k, when, opts)
	return nil
}

// identityInsert checks a value written to column i of rel by INSERT: an
// identity column GENERATED ALWAYS takes one only with OVERRIDING SYSTEM
// VALUE. keep is false when the value is to be dropped for the default
// (OVERRIDING USER VALUE on an identity column).
//
// Its error has no position: PostgreSQL's rewriter finds it.
func (b *binder) identityInsert(rel *Relation, i int, over pg_query.OverridingKind, _ int32) (keep bool, err error) {
	if err := b.generatedWrite(rel, i, false); err != nil {
		return false, err
	}
	if i >= len(rel.Identity) || rel.Identity[i] == 0 {
		return true, nil
	}
	switch over {
	case pg_query.OverridingKind_OVERRIDING_USER_VALUE:
		return false, nil
	case pg_query.OverridingKind_OVERRIDING_SYSTEM_VALUE:
		return true, nil
	}
	if rel.Identity[i] == 'a' {
		return false, pgerr.New(pgerr.GeneratedAlways, "cannot insert a non-DEFAULT value into column %q", rel.Cols[i].Name).
			WithDetail("Column %q is an identity column defined as GENERATED ALWAYS.", rel.Cols[i].Name).
			WithHint("Use OVERRIDING SYSTEM VALUE to override.")
	}
	return true, nil
}

// identityUpdate refuses SET col = value on an identity column GENERATED
// ALWAYS, without a position as PostgreSQL's rewriter.
func (b *binder) identityUpdate(rel *Relation, i int, _ int32) error {
	if err := b.generatedWrite(rel, i, true); err != nil {
		return err
	}
	if i < len(rel.Identity) && rel.Identity[i] == 'a' {
		return pgerr.New(pgerr.GeneratedAlways, "column %q can only be updated to DEFAULT", rel.Cols[i].Name).
			WithDetail("Column %q is an identity column defined as GENERATED ALWAYS.", rel.Cols[i].Name)
	}
	return nil
}

// seqText is the text nextval reads a sequence's key from when it runs:
// a key that is not a plain lower-case name quoted, to be read back as
// one name as it is: that of a sequence of a schema other than public
// ("s.seq"), and a name with capitals or spaces ("Post_id_seq", the
// sequence of a serial column of table "Post").
func seqText(key string) string {
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c == '_' || c >= '0' && c <= '9' && i > 0 || c >= 0x80) {
			return `"` + strings.ReplaceAll(key, `"`, `""`) + `"`
		}
	}
	return key
}

// SeqText is the text nextval reads the sequence keyed key from (seqText).
func SeqText(key string) string { return seqText(key) }

// SeqKey is the key of the sequence seqText wrote.
func SeqKey(text string) string {
	if len(text) > 1 && text[0] == '"' && text[len(text)-1] == '"' {
		return strings.ReplaceAll(text[1:len(text)-1], `""`, `"`)
	}
	return text
}
