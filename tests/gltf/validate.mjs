// Validates glTF files with the Khronos glTF validator and prints one JSON object per file
// (one line each): {"file", "errors", "warnings", "infos", "messages": [first errors/warnings]}.
// Usage: node validate.mjs FILE...   (exit 0 when it ran, whatever it found; 2 on a usage error)
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs FILE.glb|FILE.gltf ...');
  process.exit(2);
}
for (const file of files) {
  const data = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    maxIssues: 1000,
    externalResourceFunction: (uri) =>
      readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const issues = report.issues;
  console.log(JSON.stringify({
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    messages: issues.messages.filter((m) => m.severity <= 1).slice(0, 20),
  }));
}
