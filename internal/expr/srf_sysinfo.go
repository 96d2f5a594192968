package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The set-returning system information functions: pg_options_to_table
// (a reloptions array's names and values) and pg_snapshot_xip (the
// transactions a snapshot saw running; txid_snapshot_xip its old name).
// They keep no state.

// sysInfoSRFs are their argument types, result columns and the names of
// the columns of those that return records.
var sysInfoSRFs = map[string]struct {
	arg   value.Type
	cols  []value.Type
	names []string
	gen   func(args []value.Value, emit func(value.Row) error) error
}{
	"pg_options_to_table": {value.Type{Kind: value.ArrayOf(value.Text), Mod: -1}, []value.Type{value.TextType, value.TextType},
		[]string{"option_name", "option_value"}, optionsToTable},
	"pg_snapshot_xip":   {value.PgSnapshotType, []value.Type{value.Xid8Type}, nil, snapshotXip},
	"txid_snapshot_xip": {value.TxidSnapshotType, []value.Type{value.Int8Type}, nil, txidSnapshotXip},
}

// resolveSysInfoSRF types a call of one of sysInfoSRFs; ok is false for
// other functions.
func resolveSysInfoSRF(name string, args []Expr, missing func() error) (*SRF, bool, error) {
	f, ok := sysInfoSRFs[name]
	if !ok {
		return nil, false, nil
	}
	if len(args) != 1 {
		return nil, true, missing()
	}
	c, err := Coerce(args[0], f.arg, false)
	switch {
	case err != nil && args[0].Type().Kind == value.Unknown:
		return nil, true, err // a literal the type's input refuses
	case err != nil:
		return nil, true, missing()
	}
	return &SRF{Name: name, Args: []Expr{c}, Cols: f.cols, Names: f.names, Gen: f.gen}, true, nil
}

// optionsToTable splits each name=value of an options array at its first
// '=': a value NULL without one. A NULL array gives no rows, a NULL
// element is 22004, as in PostgreSQL.
func optionsToTable(a []value.Value, emit func(value.Row) error) error {
	if a[0].IsNull() {
		return nil
	}
	for _, e := range a[0].Elems() {
		if e.IsNull() {
			return pgerr.New("22004", "null array element not allowed in this context")
		}
		name, val, ok := strings.Cut(e.String(), "=")
		row := value.Row{text(name), value.Null}
		if ok {
			row[1] = text(val)
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// snapshotXip lists the running transactions of a snapshot.
func snapshotXip(a []value.Value, emit func(value.Row) error) error {
	return snapshotIDs(a, emit, value.NewXid8)
}

func txidSnapshotXip(a []value.Value, emit func(value.Row) error) error {
	return snapshotIDs(a, emit, func(x uint64) value.Value { return value.NewInt(value.Int8, int64(x)) })
}

// snapshotIDs emits the ids a snapshot saw running, each as id makes it.
func snapshotIDs(a []value.Value, emit func(value.Row) error, id func(uint64) value.Value) error {
	if a[0].IsNull() {
		return nil
	}
	for _, x := range a[0].SnapshotOf().Xip {
		if err := emit(value.Row{id(x)}); err != nil {
			return err
		}
	}
	return nil
}
