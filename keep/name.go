package keep

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Quote writes a path or a file name for a message: as it is, so that
// it reads as the user typed it, unless it holds what would garble the
// message or hide what the name is (a newline or another control
// character, a character that does not print, bytes that are not UTF-8,
// a space at either end) or is empty: then quoted as Go's %q quotes it
// ("a\nb.txt"), so that a message stays on one line and names the file
// exactly. Every message of wynot that names a file writes it so.
func Quote(name string) string {
	if plain(name) {
		return name
	}
	return strconv.Quote(name)
}

// plain says that name reads as it is in a message.
func plain(name string) bool {
	if name == "" || name[0] == ' ' || name[len(name)-1] == ' ' || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
