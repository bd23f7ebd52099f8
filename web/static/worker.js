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
  WebAssembly.instantiateStreaming(fetch("munda.wasm"), go.importObject)
    .then((r) => go.run(r.instance).then(() => reject(new Error("munda's WebAssembly stopped"))))
    .catch(reject);
});

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
