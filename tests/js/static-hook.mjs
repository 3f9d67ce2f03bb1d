// A resolve hook (node:module register): "/static/x.js" is src/blot/web/x.js, as the server mounts it.
import { pathToFileURL, fileURLToPath } from "node:url";
import path from "node:path";

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/blot/web");

export async function resolve(specifier, context, next) {
  if (specifier.startsWith("/static/")) return next(pathToFileURL(path.join(WEB, specifier.slice("/static/".length))).href, context);
  return next(specifier, context);
}
