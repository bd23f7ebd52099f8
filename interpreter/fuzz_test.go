package interpreter_test

import (
	"strings"
	"testing"

	"github.com/munda-rules/munda/interpreter"
)

// FuzzScript: any dice script either parses or is refused, and rolling
// from it never panics: each die is a face of the dice asked for, or an
// error naming the roll.
func FuzzScript(f *testing.F) {
	for _, s := range []string{"6,3,1", "6 out_of_action 2", "7", "", " , ", "serious_injury,flesh_wound", "1,2,3,4,5,6,7,8", "-1", "0x6", "Out of Action"} {
		f.Add(s)
	}
	idx := coreProgram(f).Index()
	dice := []string{"d6", "d3", "injury", "damage", "control", "d66", "2d6"}
	f.Fuzz(func(t *testing.T, script string) {
		s, err := interpreter.ParseScript(script)
		if err != nil {
			return
		}
		for i := 0; i < 10; i++ {
			d := idx.Dice[dice[i%len(dice)]]
			if d.Kind != 0 && d.Kind != 1 { // sum and digits dice are rolled die by die
				d = d.Parts[0]
			}
			die, err := s.Roll(&interpreter.DieRequest{Roll: "r", Dice: d})
			if err != nil {
				if !strings.Contains(err.Error(), "r") {
					t.Fatalf("error does not name the roll: %v", err)
				}
				return
			}
			found := false
			for _, face := range d.Faces {
				if face.Value == die.Value && face.ID == die.Face {
					found = true
				}
			}
			if !found {
				t.Fatalf("%q gave %+v, not a face of %s", script, die, d.ID)
			}
		}
	})
}
