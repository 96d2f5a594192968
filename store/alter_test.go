package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// reopened runs script on a new file, closes it, and returns the answers
// of the queries before closing and after opening the file again.
func reopened(t *testing.T, script string, queries ...string) (before, after [][]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ddl.db")
	db := open(t, path)
	execSQL(t, db, script)
	for _, q := range queries {
		before = append(before, query(t, db, q))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	for _, q := range queries {
		after = append(after, query(t, db, q))
	}
	return before, after
}

func sameAnswers(t *testing.T, queries []string, before, after [][]string) {
	t.Helper()
	for i, q := range queries {
		if !slices.Equal(before[i], after[i]) {
			t.Errorf("%s: %v before closing, %v after opening again", q, before[i], after[i])
		}
	}
}

// TestTruncateSurvives checks that the rows TRUNCATE deleted stay deleted
// in the file, and that rows inserted after it are kept.
func TestTruncateSurvives(t *testing.T) {
	queries := []string{"SELECT * FROM a ORDER BY k", "SELECT * FROM b", "SELECT * FROM s"}
	before, after := reopened(t, `
		CREATE TABLE a (k int PRIMARY KEY, v text);
		CREATE TABLE b (x int);
		INSERT INTO a SELECT g, 'v' || g FROM generate_series(1, 50) g;
		INSERT INTO b VALUES (1), (2);
		CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n FROM a;
		TRUNCATE a, b;
		INSERT INTO a VALUES (7, 'again');
	`, queries...)
	sameAnswers(t, queries, before, after)
	if len(after[0]) != 1 || len(after[1]) != 0 {
		t.Fatalf("after opening again: a %v, b %v", after[0], after[1])
	}
}
