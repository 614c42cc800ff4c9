package reviewfile

import "github.com/leasesim/leasesim/internal/flagerr"

// Applied is the settings of the review file Path that went to their
// flags, by flag name: what traces a refusal found later, once every
// input is read, to the lines that gave the flags it names.
type Applied struct {
	Path string
	From map[string]Setting
}

// At is where s is written in the file: line, its own or an entry's.
func (a Applied) At(s Setting, line int) At { return At{File: a.Path, Line: line, Key: s.Key} }

// Where is msg, err's message, after the places in the file of the flags
// err names (flagerr.Of), each once, in the message's order, as a
// SettingError writes them; msg alone if the file gave none of them.
// entry, if it finds one, is the line of the part of a setting's value
// err refuses (a candidate list's entry), instead of the setting's first.
func (a Applied) Where(err error, msg string, entry func(s Setting, err error) (line int, ok bool)) string {
	var places []At
	seen := map[string]bool{}
	for _, f := range flagerr.Of(err) {
		if s, ok := a.From[f]; ok && !seen[f] {
			seen[f] = true
			line := s.Line
			if l, ok := entry(s, err); ok {
				line = l
			}
			places = append(places, a.At(s, line))
		}
	}
	if len(places) == 0 {
		return msg
	}
	return (&SettingError{At: places, Msg: msg}).Error()
}
