// The playground's worker: runs munda's WebAssembly off the page's
// thread, so a long enumeration never freezes the page. It answers
// {id, method, request} with {id, answer} (the answer's JSON text) or
// {id, failure} when the call could not be made at all.
"use strict";
importScripts("wasm_exec.js");

let ready = null;
globalThis.mundaReady = () => ready && ready();

const started = new Promise((resolve, reject) => {
  ready = resolve;
  const go = new Go();
  instantiate(go)
    .then((instance) => go.run(instance).then(() => reject(new Error("munda's WebAssembly stopped"))))
    .catch(reject);
});

// instantiate loads munda.wasm, streaming it where the server says it is
// application/wasm, and from its bytes where a plain static server does not.
async function instantiate(go) {
  const response = await fetch("munda.wasm");
  if (!response.ok) throw new Error("munda.wasm: " + response.status + " " + response.statusText);
  if ((response.headers.get("Content-Type") || "").startsWith("application/wasm")) {
    return (await WebAssembly.instantiateStreaming(response, go.importObject)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject)).instance;
}

started.then(
  () => postMessage({ ready: true }),
  (err) => postMessage({ ready: false, failure: "cannot start munda's WebAssembly: " + err.message }),
);

onmessage = async (e) => {
  const { id, method, request } = e.data;
  try {
    await started;
    const answer = globalThis.mundaCall(method, JSON.stringify(request ?? null));
    postMessage({ id, answer });
  } catch (err) {
    postMessage({ id, failure: String(err && err.message ? err.message : err) });
  }
};
