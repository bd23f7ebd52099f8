package interpreter

// targetEffects are the effects in force on one target ("bottle_check.check",
// "cl", "model.ws", "bottle_check"), of every kind, in the order each
// kind applies: the Program's maps of effects by kind, looked up once per
// statement instead of once per kind.
type targetEffects struct {
	modify, reroll, extra, override, before, after, instead []*effect
}

// noEffects is what a target nothing acts on has.
var noEffects = &targetEffects{}

// effectsOn is the effects on target; "" (a statement no effect targets,
// Program.effectKey) without a lookup.
func (p *Program) effectsOn(target string) *targetEffects {
	if target == "" {
		return p.fxUntargeted
	}
	if fx := p.fx[target]; fx != nil {
		return fx
	}
	return noEffects
}

// effectsByTarget gathers the maps of effects by kind into one by target,
// and gives those on "" apart. The lists are the maps' own, already in
// order.
func effectsByTarget(p *Program) (map[string]*targetEffects, *targetEffects) {
	out := map[string]*targetEffects{}
	at := func(target string) *targetEffects {
		fx := out[target]
		if fx == nil {
			fx = &targetEffects{}
			out[target] = fx
		}
		return fx
	}
	for target, list := range p.modify {
		at(target).modify = list
	}
	for target, list := range p.reroll {
		at(target).reroll = list
	}
	for target, list := range p.extra {
		at(target).extra = list
	}
	for target, list := range p.override {
		at(target).override = list
	}
	for target, list := range p.before {
		at(target).before = list
	}
	for target, list := range p.after {
		at(target).after = list
	}
	for target, list := range p.instead {
		at(target).instead = list
	}
	untargeted := noEffects
	if fx := out[""]; fx != nil {
		untargeted = fx
	}
	return out, untargeted
}
