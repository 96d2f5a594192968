package value

// refcursor is the type of a cursor's name, as PL/pgSQL's cursor
// variables hold it: its input and output are the name's text, and it
// has no comparison, as in PostgreSQL.

// RefCursorType is refcursor.
var RefCursorType = Type{RefCursor, -1}
