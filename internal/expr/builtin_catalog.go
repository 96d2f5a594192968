package expr

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Builtins keeps PostgreSQL 15's own catalog rows for what the engine has
// built in: the functions, aggregates and window functions (pg_proc,
// pg_aggregate), the operators (pg_operator) and the pseudo-types
// (pg_type), with PostgreSQL's oids and its printed names. They are read
// once, from builtin_catalog.jsonl, which a test writes from a real
// PostgreSQL, keeping the rows of the functions and operators the engine
// binds (internal/engine: TestBuiltinCatalog). They never change: a
// statement's SysCatalog looks names up in them after its own objects,
// and the catalog relations list them after the user's.
type Builtins struct {
	Procs     []*BuiltinProc
	Operators []*BuiltinOperator
	Types     []*BuiltinType

	names map[value.Kind]map[uint32]string
	oids  map[value.Kind]map[string]uint32
	procs map[uint32]*BuiltinProc
}

// BuiltinProc is a row of pg_proc, with the texts PostgreSQL prints for
// it, and its pg_aggregate row for an aggregate.
type BuiltinProc struct {
	OID          uint32   `json:"oid"`
	Name         string   `json:"proname"`
	Kind         string   `json:"prokind"`
	Strict       bool     `json:"proisstrict"`
	RetSet       bool     `json:"proretset"`
	Volatile     string   `json:"provolatile"`
	Parallel     string   `json:"proparallel"`
	LeakProof    bool     `json:"proleakproof"`
	NArgs        int      `json:"pronargs"`
	NArgDefaults int      `json:"pronargdefaults"`
	RetType      uint32   `json:"prorettype"`
	ArgTypes     []uint32 `json:"proargtypes"`
	Variadic     uint32   `json:"provariadic"`
	Cost         float64  `json:"procost"`
	Rows         float64  `json:"prorows"`
	Lang         uint32   `json:"prolang"`
	Src          string   `json:"prosrc"`
	ArgNames     []string `json:"proargnames"`
	// RegProc and RegProcedure are its names as regproc and regprocedure
	// print them; Args, IdentArgs and Result as pg_get_function_arguments,
	// pg_get_function_identity_arguments and pg_get_function_result do.
	RegProc      string       `json:"regproc"`
	RegProcedure string       `json:"regprocedure"`
	Args         string       `json:"args"`
	IdentArgs    string       `json:"identargs"`
	Result       string       `json:"result"`
	Agg          *BuiltinAggr `json:"agg,omitempty"`
}

// BuiltinAggr is a row of pg_aggregate; its functions are named as
// regproc prints them ("" for none).
type BuiltinAggr struct {
	Kind         string  `json:"aggkind"`
	NumDirect    int     `json:"aggnumdirectargs"`
	TransFn      RegRef  `json:"aggtransfn"`
	FinalFn      RegRef  `json:"aggfinalfn"`
	CombineFn    RegRef  `json:"aggcombinefn"`
	SerialFn     RegRef  `json:"aggserialfn"`
	DeserialFn   RegRef  `json:"aggdeserialfn"`
	MTransFn     RegRef  `json:"aggmtransfn"`
	MInvTransFn  RegRef  `json:"aggminvtransfn"`
	MFinalFn     RegRef  `json:"aggmfinalfn"`
	FinalExtra   bool    `json:"aggfinalextra"`
	MFinalExtra  bool    `json:"aggmfinalextra"`
	FinalModify  string  `json:"aggfinalmodify"`
	MFinalModify string  `json:"aggmfinalmodify"`
	SortOp       uint32  `json:"aggsortop"`
	TransType    uint32  `json:"aggtranstype"`
	TransSpace   int     `json:"aggtransspace"`
	MTransType   uint32  `json:"aggmtranstype"`
	MTransSpace  int     `json:"aggmtransspace"`
	InitVal      *string `json:"agginitval"`
	MInitVal     *string `json:"aggminitval"`
}

// RegRef is a regproc value: an oid and the name it prints.
type RegRef struct {
	OID  uint32 `json:"oid"`
	Name string `json:"name"`
}

// BuiltinOperator is a row of pg_operator, with its names as regoper and
// regoperator print them.
type BuiltinOperator struct {
	OID         uint32 `json:"oid"`
	Name        string `json:"oprname"`
	Kind        string `json:"oprkind"`
	CanMerge    bool   `json:"oprcanmerge"`
	CanHash     bool   `json:"oprcanhash"`
	Left        uint32 `json:"oprleft"`
	Right       uint32 `json:"oprright"`
	Result      uint32 `json:"oprresult"`
	Com         uint32 `json:"oprcom"`
	Negate      uint32 `json:"oprnegate"`
	Code        RegRef `json:"oprcode"`
	Rest        RegRef `json:"oprrest"`
	Join        RegRef `json:"oprjoin"`
	RegOper     string `json:"regoper"`
	RegOperator string `json:"regoperator"`
}

// BuiltinType is a type of pg_type the engine has no values of: the
// pseudo-types (trigger, void, anyelement, …), which functions take and
// return; Out is its name as format_type prints it.
type BuiltinType struct {
	OID      uint32 `json:"oid"`
	Name     string `json:"typname"`
	Out      string `json:"out"`
	Type     string `json:"typtype"`
	Category string `json:"typcategory"`
	Len      int    `json:"typlen"`
	ByVal    bool   `json:"typbyval"`
	Align    string `json:"typalign"`
	Storage  string `json:"typstorage"`
	Array    uint32 `json:"typarray"`
}

//go:embed builtin_catalog.jsonl
var builtinCatalogData []byte

var (
	builtinsOnce sync.Once
	builtins     *Builtins
)

// BuiltinCatalog returns the built-in catalog rows, read at first use.
func BuiltinCatalog() *Builtins {
	builtinsOnce.Do(func() {
		b, err := ReadBuiltins(builtinCatalogData)
		if err != nil {
			panic("expr: builtin_catalog.jsonl: " + err.Error())
		}
		builtins = b
	})
	return builtins
}

// ReadBuiltins reads the lines of builtin_catalog.jsonl: each a JSON
// object {"proc": …}, {"op": …} or {"type": …}.
func ReadBuiltins(data []byte) (*Builtins, error) {
	b := &Builtins{names: map[value.Kind]map[uint32]string{}, oids: map[value.Kind]map[string]uint32{},
		procs: map[uint32]*BuiltinProc{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var row struct {
			Proc *BuiltinProc     `json:"proc"`
			Op   *BuiltinOperator `json:"op"`
			Type *BuiltinType     `json:"type"`
		}
		if err := json.Unmarshal(line, &row); err != nil {
			return nil, err
		}
		switch {
		case row.Proc != nil:
			b.Procs = append(b.Procs, row.Proc)
		case row.Op != nil:
			b.Operators = append(b.Operators, row.Op)
		case row.Type != nil:
			b.Types = append(b.Types, row.Type)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var c SysCatalog // for the keys, as the reg* inputs make them
	for _, p := range b.Procs {
		b.procs[p.OID] = p
		b.add(value.RegProc, p.OID, p.RegProc, p.Name)
		if key, err := c.procedureKey(p.RegProcedure); err == nil {
			b.add(value.RegProcedure, p.OID, p.RegProcedure, key)
		}
	}
	for _, o := range b.Operators {
		b.add(value.RegOper, o.OID, o.RegOper, o.Name)
		if key, err := c.operatorKey(o.RegOperator); err == nil {
			b.add(value.RegOperator, o.OID, o.RegOperator, key)
		}
	}
	for _, t := range b.Types {
		if key, err := c.typeKey(t.Out); err == nil {
			b.add(value.RegType, t.OID, t.Out, key)
		}
	}
	return b, nil
}

// add names the object oid of reg* kind k; a key two objects share is
// ambiguous (0).
func (b *Builtins) add(k value.Kind, oid uint32, out, key string) {
	if b.names[k] == nil {
		b.names[k], b.oids[k] = map[uint32]string{}, map[string]uint32{}
	}
	b.names[k][oid] = out
	if prev, dup := b.oids[k][key]; dup && prev != oid {
		b.oids[k][key] = 0
		return
	}
	b.oids[k][key] = oid
}

// Proc returns the built-in function of an oid.
func (b *Builtins) Proc(oid uint32) (*BuiltinProc, bool) {
	p, ok := b.procs[oid]
	return p, ok
}

// Name returns the name the object oid of reg* kind k prints.
func (b *Builtins) Name(k value.Kind, oid uint32) (string, bool) {
	n, ok := b.names[k][oid]
	return n, ok
}

// OID returns the oid of the object of reg* kind k read as key (0 for a
// name several objects share).
func (b *Builtins) OID(k value.Kind, key string) (uint32, bool) {
	o, ok := b.oids[k][key]
	return o, ok
}

// operatorKey is regoperator's input, name(left,right) with NONE for a
// prefix operator's left, as it prints.
func (c *SysCatalog) operatorKey(s string) (string, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return "", errExpected("a left parenthesis")
	}
	inner := strings.TrimSpace(s[open+1:])
	if !strings.HasSuffix(inner, ")") {
		return "", errExpected("a right parenthesis")
	}
	name, err := operatorName(s[:open])
	if err != nil {
		return "", err
	}
	var args []string
	if inner = strings.TrimSpace(strings.TrimSuffix(inner, ")")); inner != "" {
		args = strings.Split(inner, ",")
	}
	switch len(args) {
	case 1:
		return "", errMissingArgument()
	case 2:
	default:
		return "", pgerr.New("54023", "too many arguments").WithHint("Provide two argument types for operator.")
	}
	var types []string
	for _, a := range args {
		a = strings.TrimSpace(a)
		if strings.EqualFold(a, "none") {
			types = append(types, "NONE")
			continue
		}
		k, err := c.argTypeKey(a)
		if err != nil {
			return "", err
		}
		types = append(types, k)
	}
	return name + "(" + strings.Join(types, ",") + ")", nil
}
