package diag

// Stable diagnostic codes, which tools match on. docs/diagnostics.md says
// what each means and how to fix it (a test keeps the two in step). Codes
// are never reused for another kind of mistake, and none is a catch-all.

// Reading rule files.
const (
	CodeFileError    = "file_error"     // a file or directory could not be read
	CodeEncoding     = "encoding_error" // binary, invalid UTF-8, too large, a line too long
	CodeEmptyFile    = "empty_file"     // no declarations
	CodeParseError   = "parse_error"    // the grammar does not match
	CodeIncludeError = "include_error"  // a missing include, or one escaping the pack
	CodeIncludeCycle = "include_cycle"  // a file includes itself, or a ruleset extends itself
)

// Checking rules.
const (
	CodeDuplicateID     = "duplicate_id"              // two declarations (rows, steps, lets…) with one id
	CodeUnknownRef      = "unknown_reference"         // a name that is declared nowhere
	CodeTypeError       = "type_error"                // an expression of the wrong type, or that does not compile
	CodeExprMissing     = "expression_missing"        // an expression with nothing in it
	CodeArgument        = "argument_error"            // a call's arguments do not fit its parameters
	CodeNotAssignable   = "not_assignable"            // set, add or remove on what rules cannot change
	CodeWrongKind       = "wrong_kind"                // a name of the wrong kind of declaration for its place
	CodeMisplaced       = "misplaced"                 // a construct where it cannot appear
	CodeOutOfRange      = "out_of_range"              // a count outside its bounds
	CodeDiceDefinition  = "dice_definition"           // a dice that cannot be rolled as declared
	CodeCharDefinition  = "characteristic_definition" // a characteristic that cannot be tested as declared
	CodeTableDefinition = "table_definition"          // a table whose kind cannot be told, or mixes kinds
	CodeRowKey          = "row_key"                   // a row keyed in a way its table cannot roll
	CodeRowDefinition   = "row_definition"            // a row missing its id, condition or value
	CodeTableCoverage   = "table_coverage"            // results not covered, or covered twice
	CodeEffectTarget    = "effect_target"             // an effect naming what it cannot act on
	CodePropertyError   = "property_error"            // a skill's property that it cannot have, or of the wrong form
	CodeRecursion       = "recursion"                 // a function that calls itself
	CodeVocabulary      = "vocabulary_definition"     // a kind with no statuses, an enum with no members
	CodeStandIn         = "stand_in_error"            // a ruleset's stand-in state that cannot be read or used
	CodeOverlayConflict = "overlay_conflict"          // two overlays change one thing differently
	CodeTranslation     = "translation_error"         // a translation overlay naming what the rules lack, or with wrong placeholders
	CodeUntranslated    = "untranslated"              // a title or message with no translation (a warning, with --lang)
	CodeUnused          = "unused"                    // declared but never used (a warning)
	CodeTestError       = "test_error"                // a test block that cannot run
	CodeInternal        = "internal_error"            // a bug in munda, not in the rules
)

// Reading state files.
const (
	CodeStateSyntax         = "state_syntax"          // not YAML or JSON text, or YAML munda does not read
	CodeStateLimit          = "state_limit"           // a file too large, too many models or problems
	CodeStateUnknownField   = "state_unknown_field"   // a field the format does not have
	CodeStateMissingField   = "state_missing_field"   // a required field left out
	CodeStateDuplicateField = "state_duplicate_field" // a field given twice in one mapping
	CodeStateType           = "state_type"            // a value of the wrong type
	CodeStateValue          = "state_value"           // a value out of bounds, or that does not go with another
	CodeStateReference      = "state_reference"       // an id naming no gang or model, or the wrong kind
	CodeStateDuplicateID    = "state_duplicate_id"    // two gangs, models or markers with one id
	CodeStateInternal       = "state_internal"        // a bug in munda's reader
	CodeStateInvariant      = "state_invariant"       // a model that breaks what the rules expect of its kind (a warning)
	CodeGangBreach          = "gang_breach"           // a gang that breaks the rules' composition or founding rules
	CodeStateUnknownID      = "state_unknown_id"      // a skill, power, condition or trait the rules do not have
)

// Running rules.
const (
	CodeRunRequireFailed = "run_require_failed" // a rule's require did not hold
	CodeRunLimit         = "run_limit"          // a bound on steps, depth, dice, re-rolls or events
	CodeRunDice          = "run_dice"           // the dice source failed: a script ran out, a bad die, input closed
	CodeRunChoice        = "run_choice"         // a choice could not be made: a bad answer, no options
	CodeRunExpr          = "run_expr"           // an expression failed, or gave the wrong kind of value
	CodeRunState         = "run_state"          // the state cannot do what the rule asks of it
	CodeRunTableRow      = "run_table_row"      // a table has no row for a result
	CodeRunEffect        = "run_effect"         // an effect cannot act on what it targets
	CodeRunArgument      = "run_argument"       // a procedure or table run without what it needs
	CodeRunInternal      = "run_internal"       // a bug in munda's interpreter
)

// Reading equipment catalogues (stdlib/catalogue).
const (
	CodeCatalogueSyntax    = "catalogue_syntax"    // not YAML munda reads: invalid, binary, too large, aliases
	CodeCatalogueEntry     = "catalogue_entry"     // an entry or field of the wrong name, shape or value
	CodeCatalogueDuplicate = "catalogue_duplicate" // two items with one id, or one name given to two things
	CodeCatalogueReference = "catalogue_reference" // an alias naming no item or profile
)

// Importing rosters (stdlib/yaktribe).
const (
	CodeImportSyntax       = "import_syntax"        // not JSON text, or cut short
	CodeImportShape        = "import_shape"         // JSON of another shape: a campaign file, not a gang
	CodeImportMissingField = "import_missing_field" // a field the import needs is left out
	CodeImportType         = "import_type"          // a value of the wrong type: a characteristic as text
	CodeImportValue        = "import_value"         // a value out of bounds: a negative XP, an unknown status
	CodeImportLimit        = "import_limit"         // a file too large or too deep, too many gangers
	CodeImportDuplicate    = "import_duplicate"     // two gangers with one id, a key given twice
	CodeImportUnknownItem  = "import_unknown_item"  // (warning) equipment no catalogue knows
	CodeImportUnknownName  = "import_unknown_name"  // (warning) a skill or injury the rules do not know
	CodeImportMapping      = "import_mapping"       // an import mapping file that cannot be used
)
