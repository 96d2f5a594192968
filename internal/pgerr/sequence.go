package pgerr

// SQLSTATEs of sequences and identity columns.
const (
	SequenceLimitExceeded = "2200H"
	GeneratedAlways       = "428C9"
	InvalidSchemaName     = "3F000"
)
