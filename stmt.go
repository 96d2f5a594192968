package deltaview

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// Stmt is a prepared statement: one SQL statement parsed and bound once,
// run many times with new values for its parameters $1, $2, …. Each
// parameter's type is deduced from where it is used (SET val = $1 gives
// $1 val's type). A Stmt is bound again when tables or views are created
// or dropped.
type Stmt struct {
	db *DB
	p  *engine.Prepared
}

// Prepare parses and binds one statement. Parameters are allowed in
// SELECT, INSERT, UPDATE and DELETE, not in a view's definition. A Stmt
// may be used by several goroutines and sessions at once.
func (db *DB) Prepare(query string) (*Stmt, error) {
	s, err := parseOne(query)
	if err != nil {
		return nil, err
	}
	p, err := db.e.Prepare(s)
	if err != nil {
		return nil, err
	}
	return &Stmt{db: db, p: p}, nil
}

// ParamTypes returns the PostgreSQL type names of the parameters $1…$n.
func (s *Stmt) ParamTypes() []string {
	ts := s.p.ParamTypes()
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// Exec runs the statement with args as $1…$n in a session of its own
// (autocommit) and returns the number of rows it inserted, updated,
// deleted or returned. An argument is converted to its parameter's type
// as an assignment converts it; a Text argument is read as that type's
// input. BEGIN, COMMIT and ROLLBACK are refused (SQLSTATE 25001): run
// them in a Session (Session.ExecStmt), or use a Tx.
func (s *Stmt) Exec(args ...Value) (int64, error) {
	res, err := s.autocommit(args)
	return affected(res), err
}

// Query runs the statement with args as $1…$n in a session of its own
// and returns its result set.
func (s *Stmt) Query(args ...Value) (*Rows, error) {
	return resultRows(s.autocommit(args))
}

func (s *Stmt) autocommit(args []Value) ([]engine.Result, error) {
	if s.p.TxControl() {
		return nil, pgerr.New(pgerr.ActiveTransaction, "a transaction control statement cannot run on its own").
			WithHint("each run of a statement on the DB is a transaction of its own: run BEGIN … COMMIT in a Session (Session.ExecStmt), or use DB.Begin")
	}
	sess := s.db.newSession()
	defer sess.Close()
	return sess.ExecPrepared(s.p, args)
}

// Exec runs a prepared statement inside the transaction. If it fails, its
// changes are undone and the transaction stays open, as after a typed
// change that fails. BEGIN, COMMIT and ROLLBACK are refused: use Commit or
// Rollback.
func (tx *Tx) Exec(s *Stmt, args ...Value) (int64, error) {
	res, err := tx.execStmt(s, args)
	return affected(res), err
}

// Query runs a prepared statement inside the transaction and returns its
// result set; it sees the transaction's changes.
func (tx *Tx) Query(s *Stmt, args ...Value) (*Rows, error) {
	return resultRows(tx.execStmt(s, args))
}

func (tx *Tx) execStmt(s *Stmt, args []Value) ([]engine.Result, error) {
	switch {
	case tx.done:
		return nil, ErrTxDone
	case s.db != tx.db:
		return nil, pgerr.New(pgerr.InvalidParameter, "the statement was prepared on another database")
	case s.p.TxControl():
		return nil, pgerr.New(pgerr.ActiveTransaction, "transaction control statements cannot run inside a Tx").
			WithHint("use Tx.Commit or Tx.Rollback")
	}
	return tx.s.ExecPreparedInTx(s.p, args)
}

// affected is a command's row count: the last number of its tag
// ("UPDATE 3", "INSERT 0 3", "SELECT 3"); 0 for a tag without one.
func affected(res []engine.Result) int64 {
	if len(res) == 0 {
		return 0
	}
	tag := res[0].Tag
	n, _ := strconv.ParseInt(tag[strings.LastIndexByte(tag, ' ')+1:], 10, 64)
	return n
}

func resultRows(res []engine.Result, err error) (*Rows, error) {
	if err != nil {
		return nil, err
	}
	return toRows(columnsOf(res[0]), res[0].Rows), nil
}
