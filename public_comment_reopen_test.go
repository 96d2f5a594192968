package deltaview_test

import "testing"

// TestPublicSchemaCommentReopen: COMMENT ON SCHEMA public IS NULL removes
// PostgreSQL's own description of the schema, and it stays removed in a
// database file opened again; a comment given after it comes back.
func TestPublicSchemaCommentReopen(t *testing.T) {
	db := reopenedFileDB(t, "public_comment.db", `COMMENT ON SCHEMA public IS NULL`)
	wantRows(t, db, []queryRows{
		{"SELECT obj_description('public'::regnamespace, 'pg_namespace') IS NULL, obj_description('pg_catalog'::regnamespace, 'pg_namespace')", "[[t system catalog schema]]"},
	})
	db.Close()
	db = reopenedFileDB(t, "public_comment2.db", `COMMENT ON SCHEMA public IS NULL;
COMMENT ON SCHEMA public IS 'ours'`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT obj_description('public'::regnamespace, 'pg_namespace')", "[[ours]]"},
	})
}
