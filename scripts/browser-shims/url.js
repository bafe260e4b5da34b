// Node's `url` for the web extension's bundle: @vscode/debugadapter only takes `URL` from it.
module.exports = { URL: globalThis.URL };
