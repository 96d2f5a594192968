package expr

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The commit timestamp functions, pg_xact_commit_timestamp(xid) and
// pg_last_committed_xact(), as PostgreSQL runs them with
// track_commit_timestamp off, its default and deltaview's only mode:
// 55000 for a normal transaction id, NULL for the frozen and bootstrap
// ids (which committed before any timestamp), 22023 for the invalid id
// 0. Stateless.

// errCommitTsOff is PostgreSQL's error when commit timestamps are not
// kept.
func errCommitTsOff() error {
	return pgerr.New(pgerr.ObjectNotInPrereqState, "could not get commit timestamp data").
		WithHint(`Make sure the configuration parameter "track_commit_timestamp" is set.`)
}

// lastCommittedType is pg_last_committed_xact()'s row: (xid, timestamp,
// roident).
var lastCommittedType = value.RecordTypeOf("", []value.RecordField{
	{Name: "xid", Type: value.Type{Kind: value.Xid, Mod: -1}},
	{Name: "timestamp", Type: value.Type{Kind: value.TimestampTZ, Mod: -1}},
	{Name: "roident", Type: value.OidType},
})

func init() {
	register(&FuncDef{Name: "pg_xact_commit_timestamp", Strict: true, Params: kinds(value.Xid), Result: value.Type{Kind: value.TimestampTZ, Mod: -1},
		Eval: func(a []value.Value) (value.Value, error) {
			switch x := uint32(a[0].Int()); {
			case x == 0:
				return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot retrieve commit timestamp for transaction %s", strconv.FormatUint(uint64(x), 10))
			case x < 3:
				return value.Null, nil
			}
			return value.Null, errCommitTsOff()
		}})
	register(&FuncDef{Name: "pg_last_committed_xact", Params: kinds(), Result: lastCommittedType,
		Eval: func([]value.Value) (value.Value, error) { return value.Null, errCommitTsOff() }})
}
