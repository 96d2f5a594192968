package expr

import "github.com/deltaview/deltaview/internal/value"

// The money type's function; its operators are arithmetic (value's
// moneyArith) and its casts value.MoneyCast.
func init() {
	strict("cash_words", kinds(value.Money), value.TextType, func(a []value.Value) (value.Value, error) {
		return value.NewText(value.Text, value.MoneyWords(a[0])), nil
	})
}
