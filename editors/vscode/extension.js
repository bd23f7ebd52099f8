// The munda extension's client: it starts `munda lsp` (the language server
// of the munda binary) for .munda files, and gives the editor what the
// server asks of a client: the text of munda:/ URIs (declarations of the
// shipped rulesets, which the server names by `munda:/rulesets/…`) and the
// command of the "odds" code lens.
"use strict";

const vscode = require("vscode");
const { LanguageClient, RevealOutputChannelOn } = require("vscode-languageclient/node");

let client;

// serverOptions runs the configured binary as `munda lsp ARGS…`.
function serverOptions() {
  const cfg = vscode.workspace.getConfiguration("munda");
  const command = cfg.get("path") || "munda";
  const args = ["lsp", ...(cfg.get("args") || [])];
  return { command, args };
}

async function start(context) {
  client = new LanguageClient("munda", "munda", serverOptions(), {
    documentSelector: [
      { scheme: "file", language: "munda" },
      { scheme: "untitled", language: "munda" },
      { scheme: "munda", language: "munda" },
    ],
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  });
  try {
    await client.start();
  } catch (err) {
    const { command } = serverOptions();
    vscode.window.showErrorMessage(
      `munda: could not start "${command} lsp" (${err.message || err}). ` +
        "Install munda (go install ./cmd/munda) or set munda.path."
    );
  }
}

async function stop() {
  if (client) {
    const c = client;
    client = undefined;
    await c.stop().catch(() => {});
  }
}

// The text of a munda:/rulesets/… URI, asked of the server (munda/source).
const sourceProvider = {
  async provideTextDocumentContent(uri) {
    if (!client) {
      return "";
    }
    return client.sendRequest("munda/source", { uri: uri.toString() });
  },
};

// The "odds" code lens: `munda odds` in a terminal, for a procedure or a
// table, on a state file the user picks. A table may go without one:
// munda then rolls it for the ruleset's stand-in model.
async function odds(id, kind, uri) {
  const picked = await vscode.window.showOpenDialog({
    title: kind === "table" ? `Odds of table ${id}: pick a battle state (or cancel for the stand-in)` : `Odds of ${id}: pick a battle state`,
    canSelectMany: false,
    filters: { "Battle state": ["yaml", "yml", "json"] },
  });
  const state = picked && picked.length > 0 ? ["--state", picked[0].fsPath] : [];
  if (state.length === 0 && kind !== "table") {
    return;
  }
  const cfg = vscode.workspace.getConfiguration("munda");
  const q = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'");
  const words = [cfg.get("path") || "munda", "odds", id, ...state, ...(cfg.get("args") || [])];
  const term = vscode.window.createTerminal({
    name: `munda odds ${id}`,
    cwd: uri ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri))?.uri : undefined,
  });
  term.show();
  term.sendText(words.map(q).join(" "));
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider("munda", sourceProvider),
    vscode.commands.registerCommand("munda.odds", odds),
    vscode.commands.registerCommand("munda.restartServer", async () => {
      await stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("munda.path") || e.affectsConfiguration("munda.args")) {
        await stop();
        await start(context);
      }
    }),
    { dispose: () => stop() }
  );
  await start(context);
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
