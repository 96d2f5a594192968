package deltaview_test

import "testing"

// TestStatViewsReopen checks that the catalog views made from the
// catalog list what a reopened file holds: indexes and sequences in the
// statistics views, domains, view dependencies, triggers' UPDATE OF
// columns and the partition tree.
func TestStatViewsReopen(t *testing.T) {
	db := reopenedFileDB(t, "statviews.db", `CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE TABLE t (id int PRIMARY KEY, n pos, w int);
CREATE INDEX t_w ON t (w);
CREATE SEQUENCE s;
CREATE VIEW v AS SELECT id FROM t;
CREATE FUNCTION tf() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER tr BEFORE UPDATE OF w ON t FOR EACH ROW EXECUTE FUNCTION tf();
CREATE TABLE m (k int) PARTITION BY RANGE (k);
CREATE TABLE m1 PARTITION OF m FOR VALUES FROM (0) TO (10)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT string_agg(indexrelname, ',' ORDER BY indexrelname) FROM pg_stat_user_indexes", "[[t_pkey,t_w]]"},
		{"SELECT relname FROM pg_statio_user_sequences", "[[s]]"},
		{"SELECT domain_name, data_type FROM information_schema.domains WHERE domain_schema = 'public'", "[[pos integer]]"},
		{"SELECT view_name, table_name FROM information_schema.view_table_usage", "[[v t]]"},
		{"SELECT event_object_column FROM information_schema.triggered_update_columns", "[[w]]"},
		{"SELECT relid::text, isleaf FROM pg_partition_tree('m') ORDER BY level", "[[m f] [m1 t]]"},
		{"SELECT pg_partition_root('m1')::text", "[[m]]"},
	})
}
