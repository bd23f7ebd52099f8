// Package dsl loads and checks rule packs. It is the middle of the
// pipeline:
//
//	syntax.Parse ─▶ LoadPack (includes) ─▶ Assemble (base, houses, mods)
//	  ─▶ Rules.Select (house toggles) ─▶ Check ─▶ Index ─▶ interpreter.Compile
//
// Check resolves every name, type-checks every expression by compiling it
// with expr in a typed environment (the compiled program is kept on the
// syntax.Expr, so the interpreter never compiles), checks that tables
// cover their dice, resolves effects and overlays, and records what it
// learnt in an Index. One file per declaration kind: dice.go,
// characteristic.go, table.go, function.go, procedure.go (and
// statement.go for the statements in bodies), event.go, feature.go,
// effect.go, house.go, testblock.go; expr.go compiles expressions.
package dsl
