package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestPartitionForeignKeyRandom interleaves random writes to a
// partitioned table (through it and its partitions, keys updated across
// partitions) and to tables that reference it (a partitioned one with
// CASCADE, a plain one with SET NULL, one with RESTRICT), with foreign
// keys dropped and added again, in deltaview and in PostgreSQL, and
// compares the SQLSTATE of each statement, the rows of every table and
// partition, and a view over the referencing table, after each.
func TestPartitionForeignKeyRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 91)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := `CREATE TABLE pk (id int, k int, note int, PRIMARY KEY (id, k)) PARTITION BY RANGE (k);
CREATE TABLE pk_lo PARTITION OF pk FOR VALUES FROM (MINVALUE) TO (5);
CREATE TABLE pk_mid PARTITION OF pk FOR VALUES FROM (5) TO (10) PARTITION BY LIST (id);
CREATE TABLE pk_mid_a PARTITION OF pk_mid FOR VALUES IN (1, 2, 3);
CREATE TABLE pk_mid_d PARTITION OF pk_mid DEFAULT;
CREATE TABLE pk_hi PARTITION OF pk DEFAULT;
CREATE TABLE ch (a int, id int, k int, v int, CONSTRAINT ch_fk FOREIGN KEY (id, k) REFERENCES pk ON DELETE CASCADE ON UPDATE CASCADE) PARTITION BY LIST (a);
CREATE TABLE ch_0 PARTITION OF ch FOR VALUES IN (0);
CREATE TABLE ch_1 PARTITION OF ch FOR VALUES IN (1);
CREATE TABLE ch_d PARTITION OF ch DEFAULT;
CREATE TABLE sn (id int, k int, CONSTRAINT sn_fk FOREIGN KEY (id, k) REFERENCES pk ON DELETE SET NULL);
CREATE TABLE rs (id int, k int, CONSTRAINT rs_fk FOREIGN KEY (id, k) REFERENCES pk ON DELETE RESTRICT ON UPDATE NO ACTION);
CREATE MATERIALIZED VIEW per_k AS SELECT k, count(*) AS n, sum(v) AS s FROM ch GROUP BY k`
	setupBoth(t, run, runPG, setup)
	tables := []string{"pk", "pk_lo", "pk_mid", "pk_mid_a", "pk_mid_d", "pk_hi", "ch", "ch_0", "ch_1", "ch_d", "sn", "rs"}
	pks := []string{"pk", "pk", "pk_lo", "pk_mid", "pk_mid_a", "pk_hi"}
	chs := []string{"ch", "ch", "ch_0", "ch_1", "ch_d"}
	id := func() int { return 1 + r.IntN(6) }
	k := func() int { return r.IntN(14) }
	stmt := func() string {
		switch r.IntN(16) {
		case 0, 1, 2:
			return fmt.Sprintf("INSERT INTO %s VALUES (%d, %d, %d)", pks[r.IntN(len(pks))], id(), k(), r.IntN(5))
		case 3, 4:
			return fmt.Sprintf("INSERT INTO %s VALUES (%d, %d, %d, %d)", chs[r.IntN(len(chs))], r.IntN(3), id(), k(), r.IntN(9))
		case 5:
			return fmt.Sprintf("INSERT INTO %s VALUES (%d, %d)", []string{"sn", "rs"}[r.IntN(2)], id(), k())
		case 6, 7:
			return fmt.Sprintf("UPDATE %s SET k = k + %d WHERE id = %d", pks[r.IntN(len(pks))], r.IntN(7)-3, id())
		case 8:
			return fmt.Sprintf("UPDATE %s SET id = %d WHERE k = %d", pks[r.IntN(len(pks))], id(), k())
		case 9:
			return fmt.Sprintf("UPDATE pk SET note = %d WHERE id = %d", r.IntN(5), id())
		case 10, 11:
			return fmt.Sprintf("DELETE FROM %s WHERE id = %d", pks[r.IntN(len(pks))], id())
		case 12:
			return fmt.Sprintf("UPDATE %s SET a = %d, k = %d WHERE id = %d", chs[r.IntN(len(chs))], r.IntN(3), k(), id())
		case 13:
			return fmt.Sprintf("DELETE FROM %s WHERE k = %d", chs[r.IntN(len(chs))], k())
		case 14:
			return []string{"ALTER TABLE ch DROP CONSTRAINT ch_fk", "ALTER TABLE rs DROP CONSTRAINT rs_fk",
				"ALTER TABLE ch ADD CONSTRAINT ch_fk FOREIGN KEY (id, k) REFERENCES pk ON DELETE CASCADE ON UPDATE CASCADE",
				"ALTER TABLE rs ADD CONSTRAINT rs_fk FOREIGN KEY (id, k) REFERENCES pk ON DELETE RESTRICT"}[r.IntN(4)]
		}
		return fmt.Sprintf("UPDATE pk SET k = %d WHERE id = %d AND k = %d", k(), id(), k())
	}
	n := 300
	if testing.Short() {
		n = 80
	}
	codes := map[string]int{}
	for i := 0; i < n; i++ {
		s := stmt()
		_, code := run(s)
		_, want := runPG(s)
		if code != want {
			t.Fatalf("%s: deltaview %q, PostgreSQL %q", s, code, want)
		}
		codes[code]++
		for _, p := range tables {
			got, _ := run("SELECT * FROM " + p)
			exp, _ := runPG("SELECT * FROM " + p)
			if !slices.Equal(sorted(got), sorted(exp)) {
				t.Fatalf("after %s: %s holds\n%s\nPostgreSQL holds\n%s", s, p, show(sorted(got)), show(sorted(exp)))
			}
		}
		applyBoth(t, e, run, runPG, "SELECT 1", []string{"per_k"})
	}
	t.Logf("statements by SQLSTATE: %v", codes)
	if codes[""] < n/3 || codes["23503"] < n/30 {
		t.Fatalf("too few statements succeed or fail a foreign key: %v", codes)
	}
}
