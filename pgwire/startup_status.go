package pgwire

import (
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
)

// sendStartupStatus sends, once the startup parameters have been applied,
// a ParameterStatus for each setting the server reports, with the value
// the session starts with (client_encoding=LATIN1 when the client asked
// for it, not UTF8 and then LATIN1), ordered by name regardless of case,
// as PostgreSQL sends them. The settings the session changed are taken
// as reported, so readyForQuery does not send them again.
func (c *conn) sendStartupStatus() {
	c.setEncoding()
	status := c.startupStatus
	for _, r := range c.sess.TakeReports() {
		i := slices.IndexFunc(status, func(p [2]string) bool { return strings.EqualFold(p[0], r.Name) })
		if i < 0 {
			status = append(status, [2]string{r.Name, r.Value})
			continue
		}
		status[i][1] = r.Value
	}
	slices.SortStableFunc(status, func(a, b [2]string) int { return strings.Compare(strings.ToLower(a[0]), strings.ToLower(b[0])) })
	for _, p := range status {
		c.be.Send(&pgproto3.ParameterStatus{Name: p[0], Value: p[1]})
	}
	c.startupStatus = nil
}
