// Whether a bundle in dist/ may stand in for the sources it was built from: it exists, and no file
// listed in its inputs.json (written by the build script from esbuild's metafile) is missing or
// newer than it. Used by bin/gateway.js; plain JavaScript so it runs before any loader.
import { readFileSync, statSync } from 'node:fs';

/** @param {URL} root the project root (a directory URL ending in /) @param {string} name e.g. 'gateway' */
export function freshBundle(root, name) {
  const bundle = new URL(`dist/${name}/cli.mjs`, root);
  try {
    const builtAt = statSync(bundle).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(new URL(`dist/${name}/inputs.json`, root), 'utf8'));
    if (!Array.isArray(inputs) || inputs.length === 0) return undefined;
    const fresh = inputs.every((file) => {
      const stat = statSync(new URL(file, root), { throwIfNoEntry: false });
      return stat !== undefined && stat.mtimeMs <= builtAt;
    });
    return fresh ? bundle : undefined;
  } catch {
    return undefined;
  }
}
