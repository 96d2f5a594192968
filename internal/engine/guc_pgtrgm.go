package engine

import "strings"

// pg_trgm's settings: the thresholds of its operators %, <% and %>, <<%
// and %>>, which PostgreSQL defines once the extension's library is
// loaded and checks from then on (0 to 1). Here they always exist, as in a
// server that has loaded it; SHOW ALL and pg_settings leave them out, as
// PostgreSQL's do before the library is loaded.
var extensionGUCs = []*gucDef{
	{name: "pg_trgm.similarity_threshold", kind: gucReal, boot: "0.3", max: 1, desc: "Sets the threshold used by the % operator."},
	{name: "pg_trgm.word_similarity_threshold", kind: gucReal, boot: "0.6", max: 1, desc: "Sets the threshold used by the <% operator."},
	{name: "pg_trgm.strict_word_similarity_threshold", kind: gucReal, boot: "0.5", max: 1, desc: "Sets the threshold used by the <<% operator."},
}

func init() {
	for _, d := range extensionGUCs {
		gucDefs[strings.ToLower(d.name)] = d
	}
}
