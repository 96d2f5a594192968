package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/resultfmt"
)

// TokenLifetime is how long a bearer token from POST /v1/token stays
// valid.
const TokenLifetime = time.Hour

// tokens are the bearer tokens issued, by the SHA-256 of the token: the
// role each stands for and when it expires.
type tokens struct {
	mu sync.Mutex
	m  map[[32]byte]issued
}

type issued struct {
	role    string
	expires time.Time
}

type roleKey struct{}

// authenticate lets a request through to h as the role its credentials
// name, once the catalog holds roles: HTTP basic authentication with the
// role's password, or a bearer token from POST /v1/token. Without roles
// every request is let through (the server is then on a loopback
// address). A request without valid credentials gets 401 (SQLSTATE
// 28P01, or 28000 for a role that may not log in).
func (s *Server) authenticate(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e := dbaccess.Engine(s.db)
		if !e.HasRoles() {
			h(w, r)
			return
		}
		role, err := s.credentials(e, r)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Basic realm="deltaview", charset="UTF-8"`)
			writeError(w, err, http.StatusUnauthorized)
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), roleKey{}, role)))
	}
}

// credentials returns the role a request's Authorization header proves.
func (s *Server) credentials(e *engine.Engine, r *http.Request) (string, error) {
	denied := pgerr.New(pgerr.InvalidPassword, "authentication failed").
		WithHint("send a role's name and password (basic authentication) or a bearer token from POST /v1/token")
	auth := r.Header.Get("Authorization")
	if tok, ok := strings.CutPrefix(auth, "Bearer "); ok {
		sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
		s.tokens.mu.Lock()
		t, found := s.tokens.m[sum]
		if found && time.Now().After(t.expires) {
			delete(s.tokens.m, sum)
			found = false
		}
		s.tokens.mu.Unlock()
		if _, exists := e.Role(t.role); !found || !exists {
			return "", denied
		}
		return t.role, nil
	}
	user, password, ok := r.BasicAuth()
	if !ok {
		return "", denied
	}
	info, exists := e.Role(user)
	if !exists || !info.HasPassword || !info.Verifier.Check(password) {
		return "", denied
	}
	if !info.Login {
		return "", pgerr.New(pgerr.InvalidAuthorization, "role %q is not permitted to log in", user)
	}
	if !info.Connect {
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %q", engine.DatabaseName).
			WithDetail("User does not have CONNECT privilege.")
	}
	return user, nil
}

// serveToken issues a bearer token for the role the request authenticated
// as (with basic authentication): {"token": "…", "role": "…", "expires_in":
// seconds}. Without roles there is nothing to issue (404).
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	role, _ := r.Context().Value(roleKey{}).(string)
	if role == "" {
		writeError(w, pgerr.New(pgerr.UndefinedObject, "no roles are configured: requests need no token"), http.StatusNotFound)
		return
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	tok := base64.RawURLEncoding.EncodeToString(raw)
	now := time.Now()
	s.tokens.mu.Lock()
	if s.tokens.m == nil {
		s.tokens.m = map[[32]byte]issued{}
	}
	for k, t := range s.tokens.m { // forget the expired ones
		if now.After(t.expires) {
			delete(s.tokens.m, k)
		}
	}
	s.tokens.m[sha256.Sum256([]byte(tok))] = issued{role: role, expires: now.Add(TokenLifetime)}
	s.tokens.mu.Unlock()
	buf := append(make([]byte, 0, 128), `{"token":`...)
	buf = resultfmt.AppendJSONString(buf, tok)
	buf = append(buf, `,"role":`...)
	buf = resultfmt.AppendJSONString(buf, role)
	buf = append(buf, `,"expires_in":`...)
	buf = strconv.AppendInt(buf, int64(TokenLifetime/time.Second), 10)
	buf = append(buf, "}\n"...)
	w.Header().Set("Content-Type", "application/json")
	w.Write(buf)
}

// session opens an engine session acting as the request's role.
func (s *Server) session(r *http.Request) (*engine.Session, error) {
	sess := dbaccess.NewSession(s.db)
	if role, _ := r.Context().Value(roleKey{}).(string); role != "" {
		if err := sess.SetRole(role); err != nil {
			sess.Close()
			return nil, err
		}
	}
	return sess, nil
}

// mayRead returns an error (42501) unless the request's role may read the
// relation named name.
func (s *Server) mayRead(r *http.Request, name string) error {
	role, _ := r.Context().Value(roleKey{}).(string)
	if role == "" {
		return nil
	}
	sess, err := s.session(r)
	if err != nil {
		return err
	}
	defer sess.Close()
	return sess.CheckSelect(name)
}
