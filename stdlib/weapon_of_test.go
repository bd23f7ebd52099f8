package stdlib

import (
	"strings"
	"testing"
)

func TestWeaponOf(t *testing.T) {
	tests := []struct {
		name    string
		profile map[string]any
		wantErr string
	}{
		{name: "a whole profile", profile: map[string]any{"id": "bolt", "name": "Bolt", "s": 8, "ap": -3, "d": 3.0, "user_strength": false, "traits": []any{"melta", "blast(3)"}}},
		{name: "a field no weapon has", profile: map[string]any{"id": "x", "name": "X", "strength": 3}, wantErr: `no field "strength"`},
		{name: "text for a number", profile: map[string]any{"id": "x", "name": "X", "s": "3"}, wantErr: "s must be a whole number"},
		{name: "a fraction", profile: map[string]any{"id": "x", "name": "X", "d": 1.5}, wantErr: "d must be a whole number"},
		{name: "a trait that is no string", profile: map[string]any{"id": "x", "name": "X", "traits": []any{3}}, wantErr: "traits must be a list of strings"},
		{name: "no id", profile: map[string]any{"name": "X"}, wantErr: "needs an id and a name"},
		{name: "nothing", profile: nil, wantErr: "needs an id and a name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := weaponOf(tt.profile)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.ID != "bolt" || w.S != 8 || w.AP != -3 || w.D != 3 || len(w.Traits) != 2 || w.Traits[1] != "blast(3)" {
				t.Errorf("weapon %+v", *w)
			}
		})
	}
	a, _ := weaponOf(map[string]any{"id": "x", "name": "X"})
	b, _ := weaponOf(map[string]any{"id": "x", "name": "X"})
	if a == b {
		t.Error("two calls gave one weapon: each call must make a new one")
	}
}
