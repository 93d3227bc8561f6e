// Makes ../three.min.js, the three.js that areakit's 3-D view puts inside its pages, from the
// pinned npm package (package.json, package-lock.json: three 0.170.0, its integrity hash):
//
//   cd crates/app/src/viewer3d/vendor && npm ci && node vendor.mjs
//
// three's build/three.module.min.js is one self-contained ES module; a page opened from a file
// cannot load modules from files, so its final `export{a as B,...}` becomes an object, and the
// whole module runs in a function as a classic script that sets `globalThis.THREE`. The
// license header stays first. The result is committed (cargo builds with include_str!, so no
// build needs node); running this again gives the same bytes.
import { readFile, writeFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile('node_modules/three/package.json', 'utf8'));
const pinned = JSON.parse(await readFile('package.json', 'utf8')).dependencies.three;
if (pkg.version !== pinned) {
  console.error(`three ${pkg.version} installed, ${pinned} pinned: run npm ci`);
  process.exit(1);
}
const src = await readFile('node_modules/three/build/three.module.min.js', 'utf8');
if (/^\s*import\b/m.test(src)) {
  console.error('three.module.min.js imports other modules: this script expects one file');
  process.exit(1);
}
const at = src.lastIndexOf('export{');
const end = src.indexOf('};', at);
if (at < 0 || end < 0 || src.slice(end + 2).trim() !== '') {
  console.error('no final export statement in three.module.min.js');
  process.exit(1);
}
const pairs = src.slice(at + 'export{'.length, end).split(',').map((p) => {
  const m = p.trim().match(/^([\w$]+)(?: as ([\w$]+))?$/);
  if (!m) throw new Error(`unexpected export ${p}`);
  return `${m[2] || m[1]}:${m[1]}`;
});
const header = src.slice(0, src.indexOf('*/') + 2);
const body = src.slice(src.indexOf('*/') + 2, at);
const out = `${header}
// three.js ${pkg.version} (npm), build/three.module.min.js as a classic script: made by
// crates/app/src/viewer3d/vendor/vendor.mjs; do not edit.
(function(){"use strict";${body}
globalThis.THREE=Object.freeze({${pairs.join(',')}});})();
`;
await writeFile('../three.min.js', out);
console.log(`../three.min.js: three ${pkg.version}, ${pairs.length} exports, ${out.length} bytes`);
