package sql

// SuppressRedundantName is PostgreSQL's built-in trigger function
// suppress_redundant_updates_trigger, which a BEFORE UPDATE row trigger
// runs to skip the rows an UPDATE leaves as they were; the engine runs it
// itself (engine/trigger_suppress.go). SuppressRedundantSig, qualified,
// is its signature, which no user function's can be.
const (
	SuppressRedundantName = "suppress_redundant_updates_trigger"
	SuppressRedundantSig  = "pg_catalog.suppress_redundant_updates_trigger()"
	// SuppressRedundantOID is its pg_proc oid.
	SuppressRedundantOID = 1291
)
