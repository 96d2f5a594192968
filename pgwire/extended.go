package pgwire

import (
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgbinary"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// prepared is a statement of the extended protocol (Parse): the engine's
// prepared statement, nil for an empty query.
type prepared struct {
	p     *engine.Prepared
	query string
	// cmd is a cursor command (DECLARE, FETCH, CLOSE), which the engine
	// does not prepare.
	cmd *cursorCmd
	// cols are the result columns at Parse, which the client was told of.
	cols []plan.Column
	// declared are the parameter types the client gave at Parse (0: none).
	declared []uint32
}

// portal is a prepared statement bound to its arguments (Bind), and once
// executed, the rows a row limit left to send.
type portal struct {
	ps      *prepared
	args    []value.Value
	formats []int16 // result formats, as Bind gave them
	ran     bool
	res     engine.Result
	sent    int // rows of res sent
}

// extended handles one message of the extended protocol; an error is sent
// by the caller, which then skips messages up to Sync.
func (c *conn) extended(msg pgproto3.FrontendMessage) error {
	switch m := msg.(type) {
	case *pgproto3.Parse:
		return c.parse(m)
	case *pgproto3.Bind:
		return c.bind(m)
	case *pgproto3.Describe:
		return c.describe(m)
	case *pgproto3.Execute:
		return c.execute(m)
	case *pgproto3.Close:
		if m.ObjectType == 'S' {
			delete(c.stmts, m.Name)
		} else {
			delete(c.portals, m.Name)
		}
		c.be.Send(&pgproto3.CloseComplete{})
	}
	return nil
}

func (c *conn) parse(m *pgproto3.Parse) error {
	if _, dup := c.stmts[m.Name]; dup && m.Name != "" {
		return pgerr.New(pgerr.DuplicatePrepared, "prepared statement %q already exists", m.Name)
	}
	parts, err := sql.Split(m.Query)
	if err != nil {
		return err
	}
	if len(parts) == 1 {
		if cmd, ok, err := parseCursorCmd(parts[0]); ok {
			if err != nil {
				return err
			}
			c.stmts[m.Name] = &prepared{query: m.Query, cmd: cmd}
			c.be.Send(&pgproto3.ParseComplete{})
			return nil
		}
	}
	if len(parts) > 1 {
		return pgerr.New(pgerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	ps := &prepared{query: m.Query, declared: append([]uint32(nil), m.ParameterOIDs...)}
	if len(parts) == 1 {
		st, err := sql.Parse(parts[0])
		if err != nil {
			return err
		}
		if st != nil {
			if isCopyFromStdin(st) {
				return pgerr.New(pgerr.FeatureNotSupported, "COPY FROM STDIN is supported in a simple query only")
			}
			if err := c.declareParams(st, m.ParameterOIDs); err != nil {
				return err
			}
			if ps.p, err = c.sess.Prepare(st); err != nil {
				return err
			}
			ps.cols, _ = ps.p.Columns()
		}
	}
	c.stmts[m.Name] = ps
	c.be.Send(&pgproto3.ParseComplete{})
	return nil
}

func (c *conn) bind(m *pgproto3.Bind) error {
	ps, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return pgerr.New(pgerr.UndefinedPrepared, "prepared statement %q does not exist", m.PreparedStatement)
	}
	var types []value.Type
	if ps.p != nil && ps.cmd == nil {
		types = ps.p.ParamTypes()
	}
	if len(m.Parameters) != len(types) {
		return pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement %q requires %d",
			len(m.Parameters), m.PreparedStatement, len(types))
	}
	if n := len(m.ParameterFormatCodes); n > 1 && n != len(types) {
		return pgerr.New(pgerr.ProtocolViolation, "bind message has %d parameter formats but %d parameters", n, len(types))
	}
	// The unnamed portal, which drivers bind for every execution, lends
	// its slices to the next one: the old portal ends here, as
	// PostgreSQL drops it at the next Bind to it, even a failed one.
	var args []value.Value
	var formats []int16
	if old := c.portals[m.DestinationPortal]; old != nil && m.DestinationPortal == "" {
		delete(c.portals, "")
		args, formats = old.args[:0], old.formats[:0]
	}
	args = append(args, make([]value.Value, len(types))...)
	var regs []value.Kind
	if ps.p != nil && ps.cmd == nil {
		regs = ps.p.ParamRegKinds()
	}
	for i, t := range types {
		if i < len(regs) && regs[i] != value.Unknown {
			// $1::regtype, told of as regtype (or declared so): the text
			// the cast reads is the name, or a binary value's oid.
			f, dt := formatOf(m.ParameterFormatCodes, i), t
			if f == 1 {
				dt = value.OidType
			}
			v, err := pgbinary.DecodeParam(m.Parameters[i], f, dt, i+1)
			if err != nil {
				return err
			}
			if f == 1 && !v.IsNull() {
				v = value.NewText(value.Text, v.String())
			}
			args[i] = v
			continue
		}
		// A parameter the client declared a type for is of that type
		// (declareParams); one whose declared oid names a type the
		// statement bound otherwise is read in the declared type and
		// cast to the bound one.
		dt, declared := declaredType(ps.declared, i)
		if !declared || dt.Kind == t.Kind {
			dt, declared = t, false
		}
		v, err := pgbinary.DecodeParam(m.Parameters[i], formatOf(m.ParameterFormatCodes, i), dt, i+1)
		if err != nil {
			return err
		}
		if declared && !v.IsNull() {
			if v, err = value.Cast(v, t, true); err != nil {
				return err
			}
		}
		args[i] = v
	}
	for _, f := range m.ResultFormatCodes {
		if f != 0 && f != 1 {
			return pgerr.New(pgerr.ProtocolViolation, "unsupported format code: %d", f)
		}
	}
	if ps.p != nil && ps.cmd == nil {
		// A domain's checks belong to its input function: at Bind.
		if err := c.sess.CheckArgs(ps.p, args); err != nil {
			return err
		}
	}
	c.portals[m.DestinationPortal] = &portal{ps: ps, args: args, formats: append(formats, m.ResultFormatCodes...)}
	c.be.Send(&pgproto3.BindComplete{})
	return nil
}

// declaredType is the type of parameter i that the client declared at
// Parse, if it declared one deltaview knows.
func declaredType(declared []uint32, i int) (value.Type, bool) {
	if i >= len(declared) {
		return value.Type{}, false
	}
	return pgbinary.OIDType(declared[i])
}

func (c *conn) describe(m *pgproto3.Describe) error {
	var ps *prepared
	var formats []int16
	if m.ObjectType == 'S' {
		var ok bool
		if ps, ok = c.stmts[m.Name]; !ok {
			return pgerr.New(pgerr.UndefinedPrepared, "prepared statement %q does not exist", m.Name)
		}
		var oids []uint32
		if ps.p != nil && ps.cmd == nil {
			doms, regs := ps.p.ParamDomainOIDs(), ps.p.ParamRegKinds()
			for i, t := range ps.p.ParamTypes() {
				oid := pgbinary.TypeOID(t)
				if i < len(doms) && doms[i] != 0 {
					oid = doms[i] // of a domain, which t is the base type of
				}
				if i < len(regs) && regs[i] != value.Unknown {
					oid = pgbinary.TypeOID(value.Type{Kind: regs[i], Mod: -1})
				}
				if i < len(ps.declared) && ps.declared[i] != 0 && ps.declared[i] != oidUnknown {
					oid = ps.declared[i]
				}
				oids = append(oids, oid)
			}
		}
		c.be.Send(&pgproto3.ParameterDescription{ParameterOIDs: oids})
	} else {
		pt, ok := c.portals[m.Name]
		if !ok {
			// A cursor is a portal too: a driver describes it to learn its
			// columns (psycopg's server-side cursors).
			if cur, ok := c.cursors[m.Name]; ok && m.Name != "" {
				c.be.Send(rowDescription(cur.cols, nil))
				return nil
			}
			if cols, ok := c.sess.PortalColumns(m.Name); ok && m.Name != "" {
				c.be.Send(rowDescription(cols, nil))
				return nil
			}
			return pgerr.New(pgerr.UndefinedCursor, "portal %q does not exist", m.Name)
		}
		ps, formats = pt.ps, pt.formats
	}
	if ps.cmd != nil {
		// A FETCH returns the rows of its cursor, when it exists already.
		if cur, ok := c.cursors[ps.cmd.name]; ok && ps.cmd.kind == 'F' {
			ps.cols = cur.cols // what the client was told: checked at Execute
			c.be.Send(rowDescription(cur.cols, formats))
		} else if cols, ok := c.sess.PortalColumns(ps.cmd.name); ok && ps.cmd.kind == 'F' {
			ps.cols = cols
			c.be.Send(rowDescription(cols, formats))
		} else {
			c.be.Send(&pgproto3.NoData{})
		}
		return nil
	}
	if ps.p == nil {
		c.be.Send(&pgproto3.NoData{})
		return nil
	}
	cols, hasRows := ps.p.Columns()
	if !hasRows {
		c.be.Send(&pgproto3.NoData{})
		return nil
	}
	c.be.Send(rowDescription(cols, formats))
	return nil
}

// errResultChanged refuses to run a statement whose result columns are no
// longer those the client was told of at Parse: a table it reads was
// dropped and created again with other columns.
var errResultChanged = pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type").
	WithHint("prepare the statement again")

func sameTypes(a, b []plan.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if columnTypeOID(a[i]) != columnTypeOID(b[i]) {
			return false
		}
	}
	return true
}

// execute runs a portal's statement at its first Execute and sends at most
// MaxRows of its rows (all when 0); PortalSuspended says more remain.
func (c *conn) execute(m *pgproto3.Execute) error {
	pt, ok := c.portals[m.Portal]
	if !ok {
		return pgerr.New(pgerr.UndefinedCursor, "portal %q does not exist", m.Portal)
	}
	if pt.ps.cmd != nil && !pt.ran {
		// A FETCH described for a cursor of other columns (the same name
		// declared again, in a later transaction) would send rows the
		// client cannot read.
		if cur, ok := c.cursors[pt.ps.cmd.name]; ok && pt.ps.cmd.kind == 'F' && pt.ps.cols != nil && !sameTypes(cur.cols, pt.ps.cols) {
			return errResultChanged
		}
		res, err := c.runCursorCmd(pt.ps.cmd)
		if err != nil {
			return err
		}
		pt.ran, pt.res = true, res
	}
	if pt.ps.p == nil && pt.ps.cmd == nil {
		c.be.Send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	if !pt.ran {
		if pt.ps.cols != nil {
			cols, hasRows, err := c.sess.CurrentColumns(pt.ps.p)
			if err != nil {
				return err
			}
			if !hasRows || !sameTypes(cols, pt.ps.cols) {
				return errResultChanged
			}
		}
		results, err := c.sess.ExecPrepared(pt.ps.p, pt.args)
		if err != nil {
			return err
		}
		// Result sets of the session's subscriptions that arrived meanwhile
		// (results[1:]) have no place in the extended protocol's one result
		// per Execute: they are dropped.
		if results[0].HasRows && !sameTypes(results[0].Columns, pt.ps.cols) {
			return errResultChanged // the catalog changed since CurrentColumns
		}
		pt.ran, pt.res = true, results[0]
		c.sendNotices(pt.res)
	}
	rows := pt.res.Rows[pt.sent:]
	if m.MaxRows > 0 && uint32(len(rows)) > m.MaxRows {
		rows = rows[:m.MaxRows]
		if err := c.sendRows(rows, pt.res.Columns, pt.formats); err != nil {
			return err
		}
		pt.sent += len(rows)
		c.be.Send(&pgproto3.PortalSuspended{})
		return nil
	}
	r := pt.res
	r.Rows, r.Notices, r.NoticeLevels, r.NoticeCodes, r.NoticeFields = rows, nil, nil, nil, nil
	pt.sent += len(rows)
	return c.sendResult(r, pt.formats, false)
}
