// `npm run serve` serves the web UI: build it when out/web is missing or older than a renderer source.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const index = fileURLToPath(new URL('../out/web/index.html', import.meta.url));
const renderer = fileURLToPath(new URL('../renderer', import.meta.url));
const newest = (dir) => readdirSync(dir, { withFileTypes: true }).reduce((m, e) => Math.max(m, e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs), 0);

if (!existsSync(index) || statSync(index).mtimeMs < newest(renderer)) {
  console.log('Building the web UI…');
  const result = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
