package pgerr

// The SQLSTATEs of the xml type's errors.
const (
	NotAnXMLDocument   = "2200L"
	InvalidXMLDocument = "2200M"
	InvalidXMLContent  = "2200N"
	InvalidXMLComment  = "2200S"
	InvalidXMLPI       = "2200T"
)
