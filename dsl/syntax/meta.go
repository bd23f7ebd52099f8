package syntax

// Meta is the descriptive part of a declaration: where the rule comes
// from, its text, and its title in other languages.
type Meta struct {
	Source string
	Text   string
	Titles map[string]string // language code → title
}

// MetaOf collects the source, text and translated titles among items.
func MetaOf[T any](items []T) Meta {
	var m Meta
	for _, it := range items {
		switch it := any(it).(type) {
		case *SourceItem:
			if m.Source != "" {
				m.Source += "; "
			}
			m.Source += it.Text.Value()
		case *TextItem:
			if m.Text != "" {
				m.Text += "\n"
			}
			m.Text += it.Text.Value()
		case *TitleItem:
			if m.Titles == nil {
				m.Titles = map[string]string{}
			}
			m.Titles[it.Lang.Name] = it.Text.Value()
		}
	}
	return m
}

// Title returns the title in lang, falling back to the default title.
func (m Meta) Title(lang, fallback string) string {
	if t, ok := m.Titles[lang]; ok && lang != "" {
		return t
	}
	return fallback
}
