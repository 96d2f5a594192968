package value

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// aclitem, one entry of an access control list (pg_class.relacl and the
// other ACL columns): a grantee, the privileges granted, those of them
// granted with the grant option, and the grantor. PostgreSQL keeps the
// roles' oids and names them when it prints; this package has no
// catalog, so a value is held as its text, in canonical form (the roles'
// names as aclitemout quotes them, the privileges in ACLRights' order):
// two items are equal exactly when their texts are. The roles named are
// checked by the binder, which has the catalog (a role that does not
// exist is 42704 there); here the input is read as aclitemin reads it,
// with its errors. aclitem has = only: no ordering, and no binary form.

// ACLItemType is aclitem's type.
var ACLItemType = Type{ACLItem, -1}

// ACLRights are the privileges' letters, bit i for letter i
// (ACL_ALL_RIGHTS_STR).
const ACLRights = "arwdDxtXUCTcsA"

// ACLPrivNames are the privileges' names as aclexplode and makeaclitem
// spell them, bit i for name i.
var ACLPrivNames = [...]string{"INSERT", "SELECT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER",
	"EXECUTE", "USAGE", "CREATE", "TEMPORARY", "CONNECT", "SET", "ALTER SYSTEM"}

// ACL is an aclitem's parts: Grantee "" is PUBLIC; Options are the
// privileges of Privs that carry the grant option.
type ACL struct {
	Grantee, Grantor string
	Privs, Options   uint16
}

// NewACLItem returns the aclitem a.
func NewACLItem(a ACL) Value {
	buf := appendACLName(nil, a.Grantee)
	buf = append(buf, '=')
	for i := 0; i < len(ACLRights); i++ {
		if a.Privs&(1<<i) != 0 {
			buf = append(buf, ACLRights[i])
		}
		if a.Options&(1<<i) != 0 {
			buf = append(buf, '*')
		}
	}
	buf = append(buf, '/')
	buf = appendACLName(buf, a.Grantor)
	return NewText(ACLItem, string(buf))
}

// ACLItemOf returns an aclitem's parts.
func (v Value) ACLItemOf() ACL {
	a, _, _ := parseACL(v.Str())
	return a
}

// ACLContains is aclcontains: whether an item of acl has item's grantee
// and grantor and every privilege (and grant option) item has.
func ACLContains(acl Value, item Value) (bool, error) {
	if err := CheckACL(acl); err != nil {
		return false, err
	}
	want := item.ACLItemOf()
	for _, e := range acl.Elems() {
		got := e.ACLItemOf()
		if got.Grantee == want.Grantee && got.Grantor == want.Grantor &&
			got.Privs&want.Privs == want.Privs && got.Options&want.Options == want.Options {
			return true, nil
		}
	}
	return false, nil
}

// CheckACL is check_acl: an ACL is a one-dimensional array (so not
// empty) without NULLs.
func CheckACL(acl Value) error {
	if len(acl.Dims()) != 1 {
		return pgerr.New(pgerr.InvalidParameter, "ACL arrays must be one-dimensional")
	}
	for _, e := range acl.Elems() {
		if e.IsNull() {
			return pgerr.New("22004", "ACL arrays must not contain null values")
		}
	}
	return nil
}

// ParseACLItem is aclitemin without the catalog: the parts of s, and
// whether s named no grantor (PostgreSQL then warns and takes the
// bootstrap superuser, which the caller supplies).
func ParseACLItem(s string) (ACL, bool, error) {
	a, rest, noGrantor, err := parseACLItem(s)
	if err != nil {
		return a, false, err
	}
	for rest != "" && isSpace(rest[0]) {
		rest = rest[1:]
	}
	if rest != "" {
		return a, false, pgerr.New(pgerr.InvalidTextRep, "extra garbage at the end of the ACL specification")
	}
	return a, noGrantor, nil
}

// parseACLItem is aclparse: the item s starts with, the text after it,
// and whether it named no grantor.
func parseACLItem(s string) (a ACL, rest string, noGrantor bool, err error) {
	name, s, err := aclGetID(s)
	if err != nil {
		return a, "", false, err
	}
	if s == "" || s[0] != '=' {
		// The name read was a key word.
		if name != "group" && name != "user" {
			return a, "", false, pgerr.New(pgerr.InvalidTextRep, "unrecognized key word: %q", name).
				WithHint("ACL key word must be \"group\" or \"user\".")
		}
		if name, s, err = aclGetID(s); err != nil {
			return a, "", false, err
		}
		if name == "" {
			return a, "", false, pgerr.New(pgerr.InvalidTextRep, "missing name").
				WithHint("A name must follow the \"group\" or \"user\" key word.")
		}
	}
	if s == "" || s[0] != '=' {
		return a, "", false, pgerr.New(pgerr.InvalidTextRep, "missing \"=\" sign")
	}
	a.Grantee = name
	var read uint16
	i := 1
	for ; i < len(s) && (isAlpha(s[i]) || s[i] == '*'); i++ {
		switch c := s[i]; {
		case c == '*':
			a.Options |= read
		case c == 'R': // the old RULE privilege, ignored
			read = 0
		default:
			j := strings.IndexByte(ACLRights, c)
			if j < 0 {
				return a, "", false, pgerr.New(pgerr.InvalidTextRep, "invalid mode character: must be one of %q", ACLRights)
			}
			read = 1 << j
		}
		a.Privs |= read
	}
	s = s[i:]
	if s == "" || s[0] != '/' {
		return a, s, true, nil
	}
	if a.Grantor, s, err = aclGetID(s[1:]); err != nil {
		return a, "", false, err
	}
	if a.Grantor == "" {
		return a, "", false, pgerr.New(pgerr.InvalidTextRep, "a name must follow the \"/\" sign")
	}
	return a, s, false, nil
}

// parseACL reads an aclitem's canonical text.
func parseACL(s string) (ACL, string, error) {
	a, rest, _, err := parseACLItem(s)
	return a, rest, err
}

// aclGetID is getid: a name, bare (letters, digits, _) or in double
// quotes ("" for a quote), after and before white space.
func aclGetID(s string) (string, string, error) {
	for s != "" && isSpace(s[0]) {
		s = s[1:]
	}
	var n []byte
	inQuotes := false
	i := 0
	for ; i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '"' || inQuotes); i++ {
		if s[i] == '"' {
			if i+1 >= len(s) || s[i+1] != '"' {
				inQuotes = !inQuotes
				continue
			}
			i++
		}
		if len(n) >= NameDataLen-1 {
			return "", "", pgerr.New("42622", "identifier too long").
				WithDetail("Identifier must be less than %d characters.", NameDataLen)
		}
		n = append(n, s[i])
	}
	s = s[i:]
	for s != "" && isSpace(s[0]) {
		s = s[1:]
	}
	return string(n), s, nil
}

// appendACLName is putid: a role's name, in double quotes unless it is
// letters, digits and _ only.
func appendACLName(buf []byte, n string) []byte {
	safe := true
	for i := 0; i < len(n); i++ {
		if !isAlnum(n[i]) && n[i] != '_' {
			safe = false
			break
		}
	}
	if safe {
		return append(buf, n...)
	}
	buf = append(buf, '"')
	for i := 0; i < len(n); i++ {
		if n[i] == '"' {
			buf = append(buf, '"')
		}
		buf = append(buf, n[i])
	}
	return append(buf, '"')
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// parseACLItemValue is aclitem's input here: a grantor not named is
// ACLDefaultGrantor.
func parseACLItemValue(s string) (Value, error) {
	a, noGrantor, err := ParseACLItem(s)
	if err != nil {
		return Null, err
	}
	if noGrantor {
		a.Grantor = ACLDefaultGrantor
	}
	return NewACLItem(a), nil
}

// ACLDefaultGrantor is the role an aclitem's input takes for a grantor
// it does not name: PostgreSQL's bootstrap superuser, whose name the
// engine sets.
var ACLDefaultGrantor = "postgres"
