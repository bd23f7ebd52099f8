// Package ruledoc describes checked rules for people: what an effect
// does and to what (behind `munda rules show`), and what two stacks of
// rules change against each other (`munda rules diff`).
package ruledoc
