package expr

import "github.com/deltaview/deltaview/internal/value"

// xml_is_well_formed_document and xml_is_well_formed_content: whether a
// text is an XML document, or XML content (value.XMLWellFormed).
func init() {
	T := value.Text
	strict("xml_is_well_formed_document", kinds(T), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(value.XMLWellFormed(textOf(a[0]), true)), nil
	})
	strict("xml_is_well_formed_content", kinds(T), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(value.XMLWellFormed(textOf(a[0]), false)), nil
	})
}
