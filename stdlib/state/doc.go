// Package state is the battle state that rules read and change: gangs,
// models, statuses, conditions, characteristics, weapons and campaign
// records. It decodes state files (YAML or JSON, with card notation such
// as "4+" and '5"'), validates them with errors that name the field,
// encodes them again and clones them.
//
// Field names in expressions are the `expr` tags (snake_case, as in the
// state file). Nothing here decides a rule of the game: which statuses,
// model kinds and categories exist is declared in the rule files.
package state
