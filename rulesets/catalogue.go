package rulesets

import (
	"io/fs"
	"path"
	"strings"
)

// The shipped rulesets keep data beside their rules: a catalogue of
// equipment (weapon profiles, armour, wargear; stdlib/catalogue) in
// BASE/catalogue/*.yaml, and import mappings (stdlib/yaktribe) in
// BASE/import/FORMAT.yaml. A base that has none uses the default base's:
// legacy-2017 fights with the 2023 equipment.

// CatalogueDir is the directory of FS holding a base ruleset's catalogue
// files ("" for the default base).
func CatalogueDir(base string) string { return dataDir(base, "catalogue") }

// ImportMapping is the path in FS of a base ruleset's mapping for
// importing rosters of a format ("yaktribe").
func ImportMapping(base, format string) string {
	return path.Join(dataDir(base, "import"), format+".yaml")
}

func dataDir(base, kind string) string {
	if base == "" || base == None {
		base = DefaultBase
	}
	for _, d := range Bases() {
		if strings.EqualFold(d, base) || d == strings.ReplaceAll(base, "_", "-") {
			if _, err := fs.Stat(FS, path.Join(d, kind)); err == nil {
				return path.Join(d, kind)
			}
		}
	}
	return path.Join(DefaultBase, kind)
}
