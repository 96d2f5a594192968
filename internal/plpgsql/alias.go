package plpgsql

import (
	"regexp"
	"strings"
)

// Aliases: DECLARE name ALIAS FOR target, target a parameter ($n or its
// name) or a variable of the block or of one around it (label.name
// too). PostgreSQL's grammar gives the alias no datum of its own, only a
// name in the block's namespace: the tree keeps no trace of it, so the
// declaration is read from the body's text (declSections), and the
// block binds the name to the target's variable when it declares its
// variables, after those declared before the alias.

// alias is an ALIAS FOR declaration of a block.
type alias struct {
	// after is the number of the block's variables declared before it.
	after         int
	name          string
	label, target string
}

// aliasDecl is the text of an ALIAS FOR declaration, without its ';'.
var aliasDecl = regexp.MustCompile(`(?is)^\s*([a-z_][a-z0-9_$]*|"[^"]+")\s+alias\s+for\s+(\$[0-9]+|[a-z_][a-z0-9_$]*|"[^"]+")(?:\s*\.\s*([a-z_][a-z0-9_$]*|"[^"]+"))?\s*$`)

// readAlias reads decl as an ALIAS FOR declaration; ok is false when it
// is another.
func readAlias(decl string) (a alias, ok bool) {
	m := aliasDecl.FindStringSubmatch(decl)
	if m == nil {
		return alias{}, false
	}
	a.name, a.target = identName(m[1]), identName(m[2])
	if m[3] != "" {
		a.label, a.target = a.target, identName(m[3])
	}
	return a, true
}

// identName is an identifier's name: folded to lower case unless quoted.
func identName(s string) string {
	if strings.HasPrefix(s, `"`) {
		return strings.Trim(s, `"`)
	}
	return strings.ToLower(s)
}

// bindAliases binds, in the current frame, the aliases of b declared
// after its first n variables.
func (c *call) bindAliases(b *block, n int) {
	for _, a := range b.aliases {
		if a.after != n {
			continue
		}
		if v := c.fr.find(a.label, a.target); v != nil {
			c.fr.vars[a.name] = v
		}
	}
}
