package dsl

// dropCheckingScopes lets go of the scopes kept for checking effects and
// value tests against procedures (each site's names, a body's names at
// its end, the parameters'): only a check reads them, and each check
// makes its own. With their cached expression environments they were
// 0.4 MB of the loaded default stack (2,500 objects), all pointers the
// collector marked at every cycle while the rules ran.
func (c *checker) dropCheckingScopes() {
	drop := func(info *ProcInfo) {
		if info == nil {
			return
		}
		info.scope, info.endScope = nil, nil
		for _, sites := range info.Sites {
			for _, s := range sites {
				s.scope = nil
			}
		}
	}
	for _, info := range c.procParams {
		drop(info)
	}
	for _, a := range c.actionInfo {
		if a != nil {
			a.scope = nil
			drop(a.Proc)
		}
	}
	// The index keeps the checker (for queries), and tables their roll's
	// scope: what expr made of their environments (envNature) only the
	// check reads, and the blocks' scopes only its unused warnings.
	for _, t := range c.tableInfo {
		if t != nil && t.RollScope != nil {
			t.RollScope.nature = nil
		}
	}
	c.globals.nature = nil
	c.scopes = nil
}
