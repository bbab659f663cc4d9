// The first requests leave (app/startup.ts) before the rest of the host's code is evaluated:
// Chromium sends a request only once the task that made it ends, so the bootstrap (antd, React,
// the pages: a slow machine's 100 ms and more) runs in a task of its own. `eager` keeps it in
// this file: the host provides the shared singletons eagerly (webpack.preset.cjs), so the first
// load needs no async boundary and is one file.
import './app/startup';

setTimeout(() => {
  void import(/* webpackMode: "eager" */ './bootstrap');
}, 0);
