package plpgsql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// The plpgsql.* settings a call reads from its Runtime (Settings), with
// PostgreSQL's defaults when the Runtime has none or they were never set.

// setting is the runtime's value of a plpgsql.* setting, "" for none.
func (c *call) setting(name string) string {
	if s, ok := c.rt.(Settings); ok {
		return strings.ToLower(strings.TrimSpace(s.PLSetting(name)))
	}
	return ""
}

// settingOn reads a boolean setting, def when it is not set.
func (c *call) settingOn(name string, def bool) bool {
	switch v := c.setting(name); {
	case v == "":
		return def
	case v == "on" || v == "true" || v == "yes" || v == "1" || strings.HasPrefix("true", v) || strings.HasPrefix("yes", v):
		return true
	}
	return false
}

// checkAsserts reports whether ASSERT checks its condition
// (plpgsql.check_asserts, on by default).
func (c *call) checkAsserts() bool { return c.settingOn("plpgsql.check_asserts", true) }

// printStrictParams reports whether a STRICT INTO's error lists the
// statement's parameters: the body's #print_strict_params, else the
// plpgsql.print_strict_params setting.
func (c *call) printStrictParams() bool {
	if c.f.strictParams != 0 {
		return c.f.strictParams > 0
	}
	return c.settingOn("plpgsql.print_strict_params", false)
}

// varConflict is what a name both a variable and a column in scope
// stands for: the body's #variable_conflict, else the
// plpgsql.variable_conflict setting.
// It is read once per call.
func (c *call) conflict() sql.VarConflict {
	if c.f.conflictSet {
		return c.f.conflict
	}
	if !c.conflictRead {
		c.conflictRead = true
		switch c.setting("plpgsql.variable_conflict") {
		case "use_variable":
			c.conflictSetting = sql.VarConflictUseVariable
		case "use_column":
			c.conflictSetting = sql.VarConflictUseColumn
		}
	}
	return c.conflictSetting
}
