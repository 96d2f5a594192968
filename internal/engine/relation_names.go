package engine

import (
	"maps"
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

var _ sql.RelationLister = (*Engine)(nil)
var _ sql.RelationLister = (*recorder)(nil)

// RelationNames implements sql.RelationLister: the tables (not the
// sessions' temporary ones), materialized views and views, sorted.
func (e *Engine) RelationNames() []string {
	var names []string
	for n, t := range e.tables {
		if !t.temp {
			names = append(names, n)
		}
	}
	names = append(append(names, slices.Collect(maps.Keys(e.views))...), slices.Collect(maps.Keys(e.named))...)
	slices.Sort(names)
	return names
}

// RelationNames implements sql.RelationLister for the catalog it records.
func (r *recorder) RelationNames() []string {
	if l, ok := r.cat.(sql.RelationLister); ok {
		return l.RelationNames()
	}
	return nil
}

// SequenceNames implements sql.SequenceLister: the permanent sequences'
// keys, sorted (GRANT … ON ALL SEQUENCES IN SCHEMA).
func (e *Engine) SequenceNames() []string {
	var names []string
	for n := range e.seqs {
		if !isTemp(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// SequenceNames implements sql.SequenceLister for the catalog it records.
func (r *recorder) SequenceNames() []string {
	if l, ok := r.cat.(sql.SequenceLister); ok {
		return l.SequenceNames()
	}
	return nil
}
