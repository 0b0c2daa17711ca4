// The desktop tooling (electron's binary download, electron-builder's @electron/rebuild and node-abi) asks
// for a newer Node than the engine does: package.json `desktopEngines.node` (the engine, `serve` and the
// tests run on `engines.node`). `npm run package` stops here with a clear message instead of failing
// half-way through a rebuild; `npm start` only warns (pass --warn).
// Usage: node scripts/check-desktop-node.mjs [--warn] [VERSION]   (VERSION defaults to the running Node)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const parse = (version) => version.replace(/^[^\d]*/, '').split('.').map((part) => Number.parseInt(part, 10) || 0);

/** True when `version` (e.g. "22.12.0") is at least the minimum in a ">=X.Y.Z" range. */
export function meetsMinimum(version, range) {
  const [have, want] = [parse(version), parse(range)];
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0);
  }
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const warnOnly = args.includes('--warn');
  const version = args.find((arg) => !arg.startsWith('--')) ?? process.versions.node;
  const pkg = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8'));
  const range = pkg.desktopEngines.node;
  if (!meetsMinimum(version, range)) {
    console.error(`The desktop tooling (Electron ${pkg.devDependencies.electron}, electron-builder) needs Node ${range}; this is Node ${version}.`);
    console.error('Use a newer Node for `npm start` and `npm run package` (e.g. `nvm use 22`); `npm run serve` and `npm test` work on this one.');
    process.exit(warnOnly ? 0 : 1);
  }
}
