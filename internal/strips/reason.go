package strips

// Why a key moved; the zero value means it did not.
const (
	ReasonGained     = iota // the new owner joined or recovered in this step
	ReasonForced            // the old owner left or failed in this step
	ReasonCollateral        // both owners were live before and after
	NumReasons
)
