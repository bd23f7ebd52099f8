package syntax

import (
	"reflect"
	"testing"
)

// TestParseCachedCopies: a file parsed again is an equal tree that shares
// nothing the checker writes, so one load cannot see another's programs.
func TestParseCachedCopies(t *testing.T) {
	src := []byte("procedure p(gang) \"P\" {\n  let x = 1\n  require x > 0 else \"{x}\"\n}\n")
	a, diags := ParseCached("c.munda", src)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if kept := keptTrees(); kept != 0 {
		t.Fatalf("a file parsed once kept %d trees: nothing is kept until a second parse", kept)
	}
	b, _ := ParseCached("c.munda", src)
	if kept := keptTrees(); kept != 1 {
		t.Fatalf("a file parsed twice kept %d trees, not 1", kept)
	}
	if a == b || !reflect.DeepEqual(a, b) {
		t.Fatalf("the second parse is not an equal copy")
	}
	pa := a.Decls[0].(*Procedure).Body.Stmts[0].(*Let)
	pb := b.Decls[0].(*Procedure).Body.Stmts[0].(*Let)
	if pa.Value == pb.Value {
		t.Fatal("the copies share an expression node")
	}
	pa.Value.Text = "changed"
	if c, _ := ParseCached("c.munda", src); c.Decls[0].(*Procedure).Body.Stmts[0].(*Let).Value.Text != "1" {
		t.Fatal("a change to one copy reached the cache")
	}
	if _, diags := ParseCached("bad.munda", []byte("procedure")); len(diags) == 0 {
		t.Fatal("a file that does not parse gave no diagnostics")
	}
}

func keptTrees() int {
	parsed.Lock()
	defer parsed.Unlock()
	return len(parsed.files)
}
