package sql

// KeyDeferral is a PRIMARY KEY or UNIQUE constraint declared DEFERRABLE
// [INITIALLY DEFERRED]: its uniqueness is checked at the end of each
// statement, or at the commit while deferred, where another key is
// checked at each row written (as in PostgreSQL).
type KeyDeferral struct {
	Key          int // -1 for the primary key, else the position in Uniques
	InitDeferred bool
}

// KeyDeferrable reports whether the key i (-1 for the primary key, else
// a position in Uniques) is DEFERRABLE, and INITIALLY DEFERRED.
func (ct *CreateTable) KeyDeferrable(i int) (deferrable, initDeferred bool) {
	for _, d := range ct.DeferrableKeys {
		if d.Key == i {
			return true, d.InitDeferred
		}
	}
	return false, false
}

// DeferralSQL is the key i's " DEFERRABLE [INITIALLY DEFERRED]", as
// pg_get_constraintdef ends it, "" for a key not deferrable.
func (ct *CreateTable) DeferralSQL(i int) string {
	switch d, init := ct.KeyDeferrable(i); {
	case init:
		return " DEFERRABLE INITIALLY DEFERRED"
	case d:
		return " DEFERRABLE"
	}
	return ""
}
