package deltaview_test

import "testing"

// TestReopenCatalogChangesOfExplainAnalyze: the tables and rows that a
// function called by EXPLAIN ANALYZE made are in the file after the
// statement, and those of a statement that failed are not.
func TestReopenCatalogChangesOfExplainAnalyze(t *testing.T) {
	db, path := openFileDB(t, "explain.db")
	if err := db.Exec(`
CREATE TABLE src (k int PRIMARY KEY, v int);
INSERT INTO src VALUES (1, 10), (2, 20);
CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n, sum(v) AS s FROM src;
CREATE FUNCTION mk(i int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE m_%s (x int)', i);
  EXECUTE format('INSERT INTO m_%s VALUES (%s)', i, i * 10);
  RETURN i;
END $$;
EXPLAIN ANALYZE SELECT mk(k) FROM src;
`); err != nil {
		t.Fatal(err)
	}
	if _, err := firstValue(db.Session(), `EXPLAIN ANALYZE SELECT mk(k + 2) / (k - 2) FROM src`); err == nil {
		t.Fatal("division by zero succeeded")
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	s := db.Session()
	for q, want := range map[string]string{
		`SELECT x FROM m_2`: "20",
		`SELECT count(*) FROM pg_class WHERE relname LIKE 'm\_%' AND relkind = 'r'`: "2", // not m_3
		`SELECT count(*) FROM m_1`: "1",
		`SELECT n FROM mv`:         "2",
	} {
		got, err := firstValue(s, q)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", q, got, err, want)
		}
	}
}
