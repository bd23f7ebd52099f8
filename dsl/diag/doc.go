// Package diag is munda's one diagnostic: a problem with a stable code, a
// severity, a summary, a detail, the range at fault and the rule's source,
// rendered as text with a snippet of the line, as JSON, or as GitHub
// annotations. Rule checks, state files and runs all report through it.
// It also holds the one did-you-mean (DidYouMean).
package diag
