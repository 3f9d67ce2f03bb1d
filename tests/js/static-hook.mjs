// A resolve hook (node:module register): "/static/x.js" is src/blot/web/x.js, as the server mounts
// it; the page's scripts (and the tests' own .js files) are ES modules whatever node's default for
// a .js file without a package.json (node before 20.19 takes it for CommonJS).
import { pathToFileURL, fileURLToPath } from "node:url";
import path from "node:path";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WEB = path.join(ROOT, "src/blot/web");
const ROOT_URL = pathToFileURL(ROOT).href + "/";

export async function resolve(specifier, context, next) {
  const mapped = specifier.startsWith("/static/") ? pathToFileURL(path.join(WEB, specifier.slice("/static/".length))).href : specifier;
  const found = await next(mapped, context);
  if (found.url.startsWith(ROOT_URL) && found.url.endsWith(".js")) return { ...found, format: "module", shortCircuit: true };
  return found;
}
