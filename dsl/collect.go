package dsl

import (
	"fmt"
	"github.com/munda-rules/munda/dsl/diag"
)

// diagnostics collects problems during a pass.
type diagnostics struct {
	list diag.Diagnostics
}

func (c *diagnostics) add(sev diag.Severity, code string, r *diag.Range, summary, detail string) {
	c.list = append(c.list, &diag.Diagnostic{Severity: sev, Code: code, Summary: summary, Detail: detail, Subject: r})
}

func (c *diagnostics) errorf(code string, r *diag.Range, format string, args ...any) *diag.Diagnostic {
	c.add(diag.Error, code, r, fmt.Sprintf(format, args...), "")
	return c.list[len(c.list)-1]
}

func (c *diagnostics) warnf(code string, r *diag.Range, format string, args ...any) *diag.Diagnostic {
	c.add(diag.Warning, code, r, fmt.Sprintf(format, args...), "")
	return c.list[len(c.list)-1]
}
