// node --import ./tests/js/setup.mjs --test tests/js/: the page's modules run under node as they
// do in the browser. Their imports name the server's paths ("/static/i18n.js"): a resolve hook
// maps them onto src/blot/web. The few browser globals the modules touch when loaded (document,
// window.localStorage, navigator) are a small stand-in (dom.mjs), enough for the pure functions
// the tests call and for elements whose text they read. No dependency beyond node itself.
import { register } from "node:module";
import "./dom.mjs";

register("./static-hook.mjs", import.meta.url);
