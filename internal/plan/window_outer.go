package plan

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PerPartition reports whether the call reads values that are the same
// over a partition but not constant: the frame offsets or the count read
// from an enclosing query (StartExpr, EndExpr, NExpr but one read from
// each row).
func (f *WinFunc) PerPartition() bool {
	return f.NExpr != nil && !f.NPerRow || f.Frame.StartExpr != nil || f.Frame.EndExpr != nil
}

// ResolveFrame returns f with the frame offsets it reads from an
// enclosing query evaluated over first, a row of the partition, which
// decorrelation leads with the outer values: into StartOff and EndOff
// (RANGE: StartVal and EndVal), with PostgreSQL's errors for an offset
// that is NULL or negative. PostgreSQL evaluates them once per execution
// of the subquery.
func (f WinFunc) ResolveFrame(first value.Row) (WinFunc, error) {
	fr := &f.Frame
	rangeMode := !fr.Rows && !fr.Groups
	eval := func(e interface {
		Eval(value.Row) (value.Value, error)
	}, what string, off *int64, val *value.Value) error {
		v, err := e.Eval(first)
		switch {
		case err != nil:
			return err
		case v.IsNull():
			return pgerr.New("22004", "frame %s offset must not be null", what)
		case rangeMode:
			*val = v
			return CheckRangeOffset(v)
		case v.Int() < 0:
			return pgerr.New("22013", "frame %s offset must not be negative", what)
		}
		*off = v.Int()
		return nil
	}
	if fr.StartExpr != nil {
		if err := eval(fr.StartExpr, "starting", &fr.StartOff, &fr.StartVal); err != nil {
			return f, err
		}
	}
	if fr.EndExpr != nil {
		if err := eval(fr.EndExpr, "ending", &fr.EndOff, &fr.EndVal); err != nil {
			return f, err
		}
	}
	fr.StartExpr, fr.EndExpr = nil, nil
	return f, nil
}

// ResolveOuter is ResolveFrame, and also the count read from an enclosing
// query evaluated into N, with PostgreSQL's errors for one that is not
// positive (ntile, nth_value).
func (f WinFunc) ResolveOuter(first value.Row) (WinFunc, error) {
	f, err := f.ResolveFrame(first)
	if err != nil || f.NExpr == nil || f.NPerRow {
		return f, err
	}
	{
		v, err := f.NExpr.Eval(first)
		if err != nil {
			return f, err
		}
		f.N, f.NullN, f.NExpr = 0, v.IsNull(), nil
		if !f.NullN {
			f.N = v.Int()
		}
		switch {
		case f.NullN:
		case f.Kind == WinNtile && f.N <= 0:
			return f, pgerr.New("22014", "argument of ntile must be greater than zero")
		case f.Kind == WinNthValue && f.N <= 0:
			return f, pgerr.New("22016", "argument of nth_value must be greater than zero")
		}
	}
	return f, nil
}
