package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
)

// status is the HTTP status of a request that failed with SQLSTATE code:
// 500 for internal errors, 503 when the server is going away or short of
// resources, 409 when the request lost to another session (a lock wait
// that timed out, a serialization failure), 413 for a request too large,
// 401 for failed authentication, 403 for a missing privilege, and 400 for
// every other error of the client's request.
func status(code string) int {
	switch {
	case code == pgerr.ProgramLimitExceeded:
		return http.StatusRequestEntityTooLarge
	case code == pgerr.InsufficientPrivilege:
		return http.StatusForbidden
	case strings.HasPrefix(code, "28"):
		return http.StatusUnauthorized
	case code == pgerr.LockNotAvailable, strings.HasPrefix(code, "40"):
		return http.StatusConflict
	case strings.HasPrefix(code, "57"), strings.HasPrefix(code, "53"):
		return http.StatusServiceUnavailable
	case strings.HasPrefix(code, "XX"), strings.HasPrefix(code, "58"), code == "":
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// appendError appends err as a JSON object: code, message, and position
// (1-based, in characters), detail and hint when it has them.
func appendError(buf []byte, e *pgerr.Error) []byte {
	buf = append(buf, `{"code":`...)
	buf = resultfmt.AppendJSONString(buf, e.Code)
	buf = append(buf, `,"message":`...)
	buf = resultfmt.AppendJSONString(buf, e.Message)
	if e.Position > 0 {
		buf = append(buf, `,"position":`...)
		buf = strconv.AppendInt(buf, int64(e.Position), 10)
	}
	if e.Detail != "" {
		buf = append(buf, `,"detail":`...)
		buf = resultfmt.AppendJSONString(buf, e.Detail)
	}
	if e.Hint != "" {
		buf = append(buf, `,"hint":`...)
		buf = resultfmt.AppendJSONString(buf, e.Hint)
	}
	return append(buf, '}')
}

// writeError answers a request with err alone: {"error": {…}} and the
// status its SQLSTATE calls for (or st when not zero).
func writeError(w http.ResponseWriter, err error, st int) {
	e := pgerr.Wrap(err)
	if st == 0 {
		st = status(e.Code)
	}
	buf := appendError(append(make([]byte, 0, 256), `{"error":`...), e)
	buf = append(buf, "}\n"...)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(st)
	w.Write(buf)
}

// bodyError is the error of a request body that could not be read.
func bodyError(err error) *pgerr.Error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return pgerr.New(pgerr.ProgramLimitExceeded, "request body exceeds the limit of %d bytes", mb.Limit)
	}
	return pgerr.New(pgerr.ProtocolViolation, "could not read the request body: %v", err)
}
