package pgerr

import (
	"errors"
	"fmt"
	"testing"
)

// serverError stands for a PostgreSQL client's error, which reports the
// SQLSTATE the server sent through a SQLState method.
type serverError struct{ code string }

func (e serverError) Error() string    { return "ERROR: from the server (SQLSTATE " + e.code + ")" }
func (e serverError) SQLState() string { return e.code }

func TestWrapKeepsServerSQLState(t *testing.T) {
	wrapped := fmt.Errorf("sink s: %w", serverError{"23505"})
	if got := Wrap(wrapped); got.Code != "23505" || got.Message != wrapped.Error() {
		t.Errorf("Wrap = %q %q", got.Code, got.Message)
	}
	if got := Code(wrapped); got != "23505" {
		t.Errorf("Code = %q", got)
	}
	if got := Code(errors.New("plain")); got != Internal {
		t.Errorf("plain error: Code = %q", got)
	}
	if got := Code(serverError{"bad"}); got != Internal {
		t.Errorf("malformed SQLSTATE: Code = %q", got)
	}
	own := New("0A000", "refused")
	if Wrap(fmt.Errorf("x: %w", own)) != own {
		t.Error("Wrap did not return the wrapped *Error")
	}
}
