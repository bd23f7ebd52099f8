package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The playground end to end, in a real headless Chromium (Debian's
// chromium package): the page is served by httptest from a site built
// once for the test, and driven as a person would.
//
// It builds the WebAssembly (about a minute cold, a second or two from
// the build cache) and then runs for about 35 s, too long for every `go
// test ./...`: it runs when MUNDA_BROWSER_TESTS=1, which .ci/run sets
// after installing chromium. Set, a missing chromium is a failure, not a
// skip.

// chromium finds the browser: $MUNDA_CHROMIUM, else chromium on PATH.
func chromium() string {
	if p := os.Getenv("MUNDA_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artifactDir is where the screenshot is kept: $MUNDA_ARTIFACTS, else a
// directory under the system's temporary directory (never the source
// tree).
func artifactDir(t *testing.T) string {
	dir := os.Getenv("MUNDA_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "munda-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestPlaygroundInBrowser(t *testing.T) {
	required := os.Getenv("MUNDA_BROWSER_TESTS") == "1"
	if !required {
		t.Skip("the browser test runs with MUNDA_BROWSER_TESTS=1 (as .ci/run does): it builds the WebAssembly and needs Debian's chromium")
	}
	chrome := chromium()
	if chrome == "" {
		t.Fatal("MUNDA_BROWSER_TESTS=1 but no chromium found: apt-get install chromium, or set MUNDA_CHROMIUM")
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	root, err := ModuleRoot(ctx, ".")
	if err != nil {
		t.Fatal(err)
	}
	site := t.TempDir()
	if err := Build(ctx, root, site); err != nil {
		t.Fatal(err)
	}
	built := time.Since(start)
	srv := httptest.NewServer(Handler(site))
	defer srv.Close()

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 1600),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()

	// What the page says on its console, and any exception it throws:
	// an exception fails the test.
	var mu sync.Mutex
	var console, exceptions []string
	err = chromedp.Listen(browser, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value))
			}
			console = append(console, string(ev.Type)+": "+strings.Join(parts, " "))
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			exceptions = append(exceptions, fmt.Sprintf("%s:%d:%d: %s", d.URL, d.LineNumber+1, d.ColumnNumber+1, msg))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range console {
			t.Log("console", c)
		}
		for _, e := range exceptions {
			t.Error("the page threw:", e)
		}
	}()

	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		stepStart := time.Now()
		if err := chromedp.Do(browser, actions...); err != nil {
			shown, _ := chromedp.Run(browser, chromedp.Text(chromedp.CSS("body")))
			t.Fatalf("%s: %v\nthe page shows:\n%s", name, err, shown)
		}
		t.Logf("%s: %v", name, time.Since(stepStart).Round(10*time.Millisecond))
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(browser, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("read %s: %v", sel, err)
		}
		return s
	}
	// clickAndWait clicks a button and waits for what it shows.
	clickAndWait := func(name, button, shown string) {
		t.Helper()
		step(name, chromedp.Click(chromedp.CSS(button)), chromedp.WaitVisible(chromedp.CSS(shown)))
	}

	// screenshot keeps the whole page as a PNG in the artifact directory.
	screenshot := func(name string) string {
		t.Helper()
		png, err := chromedp.Run(browser, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		shot := filepath.Join(artifactDir(t), name)
		if err := os.WriteFile(shot, png, 0o644); err != nil {
			t.Fatal(err)
		}
		return shot
	}

	// script runs JavaScript in the page, for what a person does that
	// chromedp has no action for (picking an option fires change).
	script := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[any](expr)(ctx, tg)
			return err
		})
	}

	step("load the page", chromedp.Navigate(srv.URL), chromedp.WaitVisible(chromedp.CSS(`#status[data-state="ready"]`)))
	if got := text("#error"); got != "" {
		t.Fatalf("the page starts with an error: %s", got)
	}
	// The state's gangs are offered to the parameters that take a gang.
	step("the state's ids", chromedp.WaitReady(chromedp.CSS(`#ids-gang option[value="goliaths"]`)))

	// The End Phase of the example state, with seeded dice.
	step("pick the End Phase", chromedp.SetValue(chromedp.CSS("#procedure"), "end-phase"), chromedp.SetValue(chromedp.CSS("#seed"), "1"))
	clickAndWait("run the End Phase", "#run", "#narration")
	narration := text("#narration")
	for _, want := range []string{"The End Phase", "Bottle Check", "[000 §1. Bottle Checks]"} {
		if !strings.Contains(narration, want) {
			t.Errorf("the narration lacks %q:\n%s", want, narration)
		}
	}

	// Its odds, under the core rules and then with A&A's house rules.
	step("ask the odds of a gang bottling", chromedp.SetValue(chromedp.CSS("#of"), `gang("eschers").bottled`),
		chromedp.SetValue(chromedp.CSS("#method"), "sample"), chromedp.SetValue(chromedp.CSS("#samples"), "400"))
	clickAndWait("odds under core-2023", "#odds-button", "#odds table.chart")
	coreOdds := text("#odds")
	if !strings.Contains(coreOdds, "Monte Carlo, 400 runs") || !strings.Contains(coreOdds, "true") || !strings.Contains(coreOdds, "%") {
		t.Errorf("the odds show:\n%s", coreOdds)
	}
	step("switch on the A&A house rules", chromedp.Click(chromedp.CSS("#house-aa")))
	clickAndWait("odds with aa", "#odds-button", "#odds table.chart")
	houseOdds := text("#odds")
	if !strings.Contains(houseOdds, "core-2023+aa") {
		t.Errorf("the odds do not name the house rules:\n%s", houseOdds)
	}
	if bars(coreOdds) == bars(houseOdds) {
		t.Errorf("switching on aa left the odds as they were:\n%s\n%s", coreOdds, houseOdds)
	}

	// Two variants side by side.
	step("variant B", chromedp.SetValue(chromedp.CSS("#variant-b"), "core-2023"))
	clickAndWait("compare", "#compare-button", "#odds table.chart")
	if cmp := text("#odds"); !strings.Contains(cmp, "B − A") || !strings.Contains(cmp, "A core-2023+aa") {
		t.Errorf("the comparison shows:\n%s", cmp)
	}

	screenshot("playground-compare.png")
	clickAndWait("run A and B", "#compare-run", "#runs")
	runA, runB := text("#narration-a"), text("#narration-b")
	if !strings.Contains(runA, "aa.reinforcements_count") || strings.Contains(runB, "aa.reinforcements_count") || !strings.Contains(runB, "Bottle Check") {
		t.Errorf("the runs side by side show:\nA:\n%s\nB:\n%s", runA, runB)
	}

	// A rule file broken in the editor: the diagnostic, with its place.
	step("break end_phase.munda", chromedp.SetValue(chromedp.CSS("#file"), "core-2023/end_phase.munda"),
		chromedp.SendKeys(chromedp.CSS("#editor"), "procedure {\n"),
		chromedp.WaitVisible(chromedp.CSS("#diagnostics li.error")))
	diags := text("#diagnostics")
	if !strings.Contains(diags, "rulesets/core-2023/end_phase.munda:") || !strings.Contains(diags, "parse_error") {
		t.Errorf("the diagnostics show:\n%s", diags)
	}
	clickAndWait("run with the broken file", "#run", "#error")
	if e := text("#error"); !strings.Contains(e, "the rules have errors") || !strings.Contains(e, "end_phase.munda") {
		t.Errorf("running broken rules shows:\n%s", e)
	}
	step("revert the file", chromedp.Click(chromedp.CSS("#revert")), chromedp.WaitVisible(chromedp.CSS("#diagnostics .summary.good")))

	// Bad input is said on the page: a state that is not YAML, and an
	// enumeration too large.
	step("break the state", chromedp.SetValue(chromedp.CSS("#state"), "gangs: [\n"))
	clickAndWait("run a broken state", "#run", "#error")
	if e := text("#error"); !strings.Contains(e, "the state is not valid") || !strings.Contains(e, "state:2") {
		t.Errorf("a broken state shows:\n%s", e)
	}
	step("restore the state", chromedp.SetValue(chromedp.CSS("#example"), ""),
		script(`(() => { const s = document.getElementById("example"); s.value = "core-2023/tests/states/end_phase.yaml"; s.dispatchEvent(new Event("change")); })()`))
	step("exact only, ten branches", chromedp.SetValue(chromedp.CSS("#method"), "exact"), chromedp.SetValue(chromedp.CSS("#max-paths"), "10"))
	clickAndWait("too large an enumeration", "#odds-button", "#error")
	if e := text("#error"); !strings.Contains(e, "too many branches") {
		t.Errorf("a too large enumeration shows:\n%s", e)
	}

	// The link holds it all: a fresh page opened on it has aa switched on.
	step("share", chromedp.Click(chromedp.CSS("#share")), chromedp.Sleep(300*time.Millisecond))
	url, err := chromedp.Run(browser, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(url, "#z=") && !strings.Contains(url, "#j=") {
		t.Fatalf("no settings in the link %q", url)
	}
	step("open the link", chromedp.Navigate("about:blank"), chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#status[data-state="ready"]`)))
	aaOn, err := chromedp.Run(browser, chromedp.Evaluate[bool](`document.getElementById("house-aa").checked`))
	if err != nil {
		t.Fatal(err)
	}
	of, err := chromedp.Run(browser, chromedp.Value(chromedp.CSS("#of")))
	if err != nil {
		t.Fatal(err)
	}
	if !aaOn || of != `gang("eschers").bottled` {
		t.Errorf("the link restored aa=%v, of=%q", aaOn, of)
	}
	clickAndWait("run from the link", "#run", "#narration")

	// A Yaktribe gang export, uploaded, becomes the state; its misspelt
	// skill is a warning on the page, and the gang's check runs.
	export, err := filepath.Abs(filepath.Join(root, "testdata", "yaktribe", "iron-sons.json"))
	if err != nil {
		t.Fatal(err)
	}
	step("import a Yaktribe export", chromedp.SetUploadFiles(chromedp.CSS("#import-yaktribe"), []string{export}),
		chromedp.WaitVisible(chromedp.CSS("#error")))
	if e := text("#error"); !strings.Contains(e, "imported, with warnings") || !strings.Contains(e, "nerves_of_steel") {
		t.Errorf("the import shows:\n%s", e)
	}
	state, err := chromedp.Run(browser, chromedp.Value(chromedp.CSS("#state")))
	if err != nil || !strings.Contains(state, "The Iron Sons") {
		t.Errorf("the imported state (%v):\n%s", err, state)
	}
	step("check the imported gang", script(`(() => { const s = document.getElementById("procedure"); s.value = "gang-check"; s.dispatchEvent(new Event("change")); })()`),
		chromedp.SetValue(chromedp.CSS("#param-gang"), "48213"))
	clickAndWait("run the gang check", "#run", "#narration")
	if n := text("#narration"); !strings.Contains(n, "Gang Composition (gang: The Iron Sons)") {
		t.Errorf("the gang check narrates:\n%s", n)
	}

	shot := screenshot("playground.png")

	// A site whose WebAssembly is missing says so on the page.
	broken := t.TempDir()
	for _, f := range []string{"index.html", "app.js", "worker.js", "style.css", WasmExecFile} {
		data, err := os.ReadFile(filepath.Join(site, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(broken, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	brokenSrv := httptest.NewServer(Handler(broken))
	defer brokenSrv.Close()
	step("open a site without its WebAssembly", chromedp.Navigate(brokenSrv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#status[data-state="failed"]`)), chromedp.WaitVisible(chromedp.CSS("#error")))
	if e := text("#error"); !strings.Contains(e, "munda did not start") {
		t.Errorf("a missing WebAssembly shows:\n%s", e)
	}
	t.Logf("screenshot: %s; built the site in %v, whole test %v", shot, built.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond))
}

// bars is the percentages an odds chart shows, to tell two apart.
func bars(s string) string {
	var out []string
	for _, f := range strings.Fields(s) {
		if strings.HasSuffix(f, "%") {
			out = append(out, f)
		}
	}
	return fmt.Sprint(out)
}
