package scenario

import (
	"path"
	"strings"
)

// Name is a scenario's name, which Parse gives it from its file name and
// which names its output folder (and its figures' ids): the the
// base name without .yaml or .yml, with every byte outside [A-Za-z0-9._-]
// replaced by '-', no leading dot, and a '-' after a name that Windows
// reserves (CON, NUL, COM1, ...).
func Name(file string) string {
	base := path.Base(strings.ReplaceAll(file, `\`, "/"))
	for _, ext := range []string{".yaml", ".yml"} { // in any case: .YAML too
		if n := len(base) - len(ext); n >= 0 && strings.EqualFold(base[n:], ext) {
			base = base[:n]
		}
	}
	b := []byte(base)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			b[i] = '-'
		}
	}
	name := strings.TrimLeft(string(b), ".")
	if name == "" {
		name = "scenario"
	}
	if windowsReserved(name) {
		name += "-" // CON, NUL, COM1, ... cannot be checked out on Windows
	}
	return name
}

// windowsReserved reports a name that Windows reserves for a device,
// with or without an extension.
func windowsReserved(name string) bool {
	stem, _, _ := strings.Cut(strings.ToUpper(name), ".")
	switch stem {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && stem[3] >= '1' && stem[3] <= '9'
}
