package yaktribe

import "reflect"

// exportFields names the fields of a Yaktribe gang export that the import
// reads. They are the format's schema, kept in struct tags as the state's
// is: words such as "gangers" are Yaktribe's field names, not rules of the
// game written into Go.
type exportFields struct {
	Gang         string `yaktribe:"gang"`
	Campaign     string `yaktribe:"campaign"` // what a campaign file holds instead
	GangID       string `yaktribe:"gang_id"`
	GangName     string `yaktribe:"gang_name"`
	GangType     string `yaktribe:"gang_type"`
	Credits      string `yaktribe:"credits"`
	Reputation   string `yaktribe:"reputation"`
	Stash        string `yaktribe:"stash"`
	Gangers      string `yaktribe:"gangers"`
	GangerID     string `yaktribe:"ganger_id"`
	Name         string `yaktribe:"name"`
	Type         string `yaktribe:"type"`
	Cost         string `yaktribe:"cost"`
	XP           string `yaktribe:"xp"`
	Kills        string `yaktribe:"kills"`
	AdvanceCount string `yaktribe:"advance_count"`
	Status       string `yaktribe:"status"`
	Skills       string `yaktribe:"skills"`
	Injuries     string `yaktribe:"injuries"`
	Equipment    string `yaktribe:"equipment"`
	Qty          string `yaktribe:"qty"`
}

// yak holds the field names: yak.Gangers is "gangers".
var yak = func() exportFields {
	var f exportFields
	v := reflect.ValueOf(&f).Elem()
	for i := 0; i < v.NumField(); i++ {
		v.Field(i).SetString(v.Type().Field(i).Tag.Get("yaktribe"))
	}
	return f
}()
