package value

// void is the pseudo-type of a function that returns nothing: its one
// value prints as the empty string, any text reads as it, and it has no
// comparison, no array type and no column of a table, as in PostgreSQL.

// VoidType is void.
var VoidType = Type{Void, -1}

// VoidValue is void's value, which a function returning void gives.
var VoidValue = Value{kind: Void}
