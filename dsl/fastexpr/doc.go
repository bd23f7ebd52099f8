// Package fastexpr runs checked expr-lang expressions as Go closures.
//
// The checker compiles every expression with expr; Compile walks the
// checked (and optimized) tree of that program once more and builds a tree
// of closures: literals, names, struct fields read through typed loads
// resolved at compile time, operators, the ternary, `in`, indexing, the
// predicate built-ins and calls of the functions expr was configured with.
//
// expr's VM stays the reference. An expression with any node this package
// does not know is not compiled at all (Compile says why), and whenever a
// closure fails at run time (a nil member, a division by zero, a function's
// error, a panic) the caller runs the VM instead, which gives expr's own
// error. So a closure only has to agree with the VM where the VM succeeds,
// and must fail wherever the VM fails; the differential tests check both.
package fastexpr
