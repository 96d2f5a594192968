package engine

import "strings"

// PLSetting implements plpgsql.Settings: the session's value of a
// plpgsql.* setting (plpgsql.check_asserts, print_strict_params,
// variable_conflict), "" when it was never set.
func (rt *plRuntime) PLSetting(name string) string {
	v, ok := rt.s.setting(strings.ToLower(name))
	if !ok {
		return ""
	}
	return v
}
