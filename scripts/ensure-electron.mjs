// `npm start` on a normal machine: fetch Electron's binary first when the install skipped it
// (package.json allowScripts keeps `npm ci` working on machines that cannot download it).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));
if (!existsSync(join(electronDir, 'path.txt'))) {
  console.log('Fetching the Electron binary (first start)…');
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('Could not download Electron. `npm run serve` runs TourDesk in the browser instead.');
    process.exit(result.status ?? 1);
  }
}
