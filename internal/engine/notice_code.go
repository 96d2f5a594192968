package engine

import "strings"

// The SQLSTATE each notice is sent with. PostgreSQL gives most notices
// and INFO messages 00000 and warnings 01000, but some their condition's
// code: an IF NOT EXISTS that skips an existing object (42P07 for a
// relation, 42P06 a schema, 42701 a column, 42710 any other object), a
// transaction command outside a block (25P01, 25001). The engine's
// notices are text, so the code is read from the message, once, here;
// NoticeCodes holds those a statement chose itself (RAISE … USING
// ERRCODE).

// NoticeCode is the SQLSTATE of the i-th notice of r.
func (r Result) NoticeCode(i int) string {
	if c, ok := r.NoticeCodes[i]; ok {
		return c
	}
	return noticeCode(r.NoticeLevel(i), r.Notices[i])
}

// noticeCode is PostgreSQL's SQLSTATE of a notice of severity level
// whose message is msg.
func noticeCode(level, msg string) string {
	switch {
	case strings.HasSuffix(msg, " already exists, skipping"):
		switch {
		case strings.HasPrefix(msg, "relation "):
			return "42P07" // duplicate_table
		case strings.HasPrefix(msg, "schema "):
			return "42P06" // duplicate_schema
		case strings.HasPrefix(msg, "column "):
			return "42701" // duplicate_column
		}
		return "42710" // duplicate_object: extension, statistics object, enum label, collation…
	case msg == "there is already a transaction in progress":
		return "25001" // active_sql_transaction
	case msg == "there is no transaction in progress", strings.HasSuffix(msg, " can only be used in transaction blocks"):
		return "25P01" // no_active_sql_transaction
	case level == "WARNING":
		return "01000"
	}
	return "00000"
}
