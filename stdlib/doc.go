// Package stdlib holds the built-in functions that rule expressions may
// call (gang, model, within, has_skill, …): generic vocabulary for looking
// things up and measuring. Anything that is a rule of the game is a
// `function` declaration in a rule file instead. The state model itself is
// in stdlib/state.
package stdlib
