package isolate

// Detail is the part of the summary of wynot isolate and maximize
// (report.Summary.Detail): the sizes of the passing and failing results.
type Detail struct {
	PassSize *int `json:"pass_size,omitempty"`
	FailSize *int `json:"fail_size,omitempty"`
}
