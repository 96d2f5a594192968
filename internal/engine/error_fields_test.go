package engine_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestConstraintErrorFields checks that an error about a row that breaks
// a constraint names the schema, the table and the constraint (or the
// column of a not-null violation) in the fields PostgreSQL fills, the
// ones drivers show apart from the message; PostgreSQL's own are the
// expected ones when it is installed.
func TestConstraintErrorFields(t *testing.T) {
	setup := []string{
		`CREATE SCHEMA s`,
		`CREATE TABLE e1 (id int PRIMARY KEY, u text UNIQUE, c int CHECK (c > 0), nn text NOT NULL)`,
		`CREATE TABLE e2 (id int REFERENCES e1 (id))`,
		`CREATE TABLE s.e3 (id int CONSTRAINT e3_key PRIMARY KEY, k int, CONSTRAINT k_pos CHECK (k >= 0))`,
		`CREATE UNIQUE INDEX e1_lower ON e1 (lower(nn))`,
		`CREATE TABLE s.e4 (id int, FOREIGN KEY (id) REFERENCES s.e3 (id) MATCH FULL)`,
		`INSERT INTO e1 VALUES (1, 'a', 1, 'x')`,
		`INSERT INTO s.e3 VALUES (1, 1)`,
		`INSERT INTO e2 VALUES (1)`,
	}
	cases := []struct {
		stmt string
		want string // code schema table column constraint
	}{
		{`INSERT INTO e1 VALUES (1, 'b', 1, 'y')`, "23505 public e1  e1_pkey"},
		{`INSERT INTO e1 VALUES (2, 'a', 1, 'y')`, "23505 public e1  e1_u_key"},
		{`INSERT INTO e1 VALUES (2, 'b', 1, 'X')`, "23505 public e1  e1_lower"},
		{`INSERT INTO e1 VALUES (2, 'b', 0, 'y')`, "23514 public e1  e1_c_check"},
		{`INSERT INTO e1 VALUES (2, 'b', 1, NULL)`, "23502 public e1 nn "},
		{`UPDATE e1 SET c = -1`, "23514 public e1  e1_c_check"},
		{`INSERT INTO e2 VALUES (9)`, "23503 public e2  e2_id_fkey"},
		{`DELETE FROM e1`, "23503 public e2  e2_id_fkey"},
		{`INSERT INTO s.e3 VALUES (1, 2)`, "23505 s e3  e3_key"},
		{`INSERT INTO s.e3 VALUES (2, -2)`, "23514 s e3  k_pos"},
		{`INSERT INTO s.e3 VALUES (NULL, 2)`, "23502 s e3 id "},
		{`INSERT INTO s.e4 VALUES (7)`, "23503 s e4  e4_id_fkey"},
	}
	var pg *pgconn.PgConn
	if _, err := pgtest.FindBinDir(); err == nil {
		pg = pgtest.Start(t).Conn(t).PgConn()
	}
	s := engine.New().NewSession()
	defer s.Close()
	ctx := context.Background()
	for _, q := range setup {
		if err := s.ExecScript(q, func(engine.Result) error { return nil }); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if pg != nil {
			if err := pg.Exec(ctx, q).Close(); err != nil {
				t.Fatalf("PostgreSQL: %s: %v", q, err)
			}
		}
	}
	for _, c := range cases {
		err := s.ExecScript(c.stmt, func(engine.Result) error { return nil })
		var e *pgerr.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want an error", c.stmt, err)
			continue
		}
		got := fmt.Sprintf("%s %s %s %s %s", e.Code, e.Schema, e.Table, e.Column, e.Constraint)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.stmt, got, c.want)
		}
		if pg == nil {
			continue
		}
		var pe *pgconn.PgError
		if !errors.As(pg.Exec(ctx, c.stmt).Close(), &pe) {
			t.Errorf("PostgreSQL: %s: no error", c.stmt)
			continue
		}
		if pgGot := fmt.Sprintf("%s %s %s %s %s", pe.Code, pe.SchemaName, pe.TableName, pe.ColumnName, pe.ConstraintName); pgGot != c.want {
			t.Errorf("PostgreSQL: %s: got %q, want %q", c.stmt, pgGot, c.want)
		}
	}
}
