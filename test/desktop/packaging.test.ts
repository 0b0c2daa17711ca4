import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

const build = join(process.cwd(), 'build');
const pngSize = async (data: Buffer) => {
  const { format, width, height } = await sharp(data).metadata();
  return { format, width, height };
};

describe('the app icons in build/', () => {
  it('has a PNG per Linux size, each as large as its name says', async () => {
    const files = readdirSync(join(build, 'icons')).sort();
    expect(files).toEqual(expect.arrayContaining(['16x16.png', '32x32.png', '48x48.png', '256x256.png', '512x512.png']));
    for (const file of files) {
      const size = Number(file.split('x')[0]);
      expect(await pngSize(readFileSync(join(build, 'icons', file))), file).toEqual({ format: 'png', width: size, height: size });
    }
    expect(await pngSize(readFileSync(join(build, 'icon.png')))).toEqual({ format: 'png', width: 1024, height: 1024 });
  });

  it('icon.ico holds 16 to 256 px images, each entry pointing at a PNG of its size', async () => {
    const ico = readFileSync(join(build, 'icon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const size = ico.readUInt8(entry) || 256;
      const [length, offset] = [ico.readUInt32LE(entry + 8), ico.readUInt32LE(entry + 12)];
      expect(await pngSize(ico.subarray(offset, offset + length))).toEqual({ format: 'png', width: size, height: size });
      sizes.push(size);
    }
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 256]));
  });

  it('icon.icns holds PNG images up to 1024 px, with lengths that add up to the file', async () => {
    const icns = readFileSync(join(build, 'icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const expected: Record<string, number> = { ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };
    const seen: string[] = [];
    for (let offset = 8; offset < icns.length; ) {
      const type = icns.subarray(offset, offset + 4).toString('ascii');
      const length = icns.readUInt32BE(offset + 4);
      const size = expected[type];
      expect(size, type).toBeDefined();
      expect(await pngSize(icns.subarray(offset + 8, offset + length))).toEqual({ format: 'png', width: size, height: size });
      seen.push(type);
      offset += length;
    }
    expect(seen.sort()).toEqual(Object.keys(expected).sort());
  });
});

describe('the electron-builder config', () => {
  const config = readFileSync(join(build, 'electron-builder.yml'), 'utf8');

  it('builds AppImage and deb, NSIS and dmg, with the icons that exist', () => {
    expect(config).toMatch(/linux:\n(\s+.*\n)*?\s+target: \[AppImage, deb\]/);
    expect(config).toMatch(/win:\n\s+target: nsis/);
    expect(config).toMatch(/mac:\n\s+target: dmg/);
    const icons = [...config.matchAll(/^\s+icon: (\S+)/gm)].map((m) => m[1]);
    expect(icons.sort()).toEqual(['icon.icns', 'icon.ico', 'icons']);
    for (const icon of icons) expect(existsSync(join(build, icon)), icon).toBe(true);
  });

  it('keeps the native modules (better-sqlite3, sharp and its libvips) out of app.asar', () => {
    const unpacked = config.split('asarUnpack:\n')[1].split(/\n(?! {2}- )/)[0];
    expect(unpacked).toContain('node_modules/better-sqlite3/**');
    expect(unpacked).toContain('node_modules/sharp/**');
    expect(unpacked).toContain('node_modules/@img/**');
  });
});

describe('the Node versions', () => {
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
  const check = (...args: string[]) => spawnSync(process.execPath, ['scripts/check-desktop-node.mjs', ...args], { encoding: 'utf8' });

  it('runs the engine on Node 20.19 and asks for 22.12 only for the desktop tooling', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    expect(pkg.desktopEngines.node).toBe('>=22.12.0');
    expect(pkg.scripts.package).toMatch(/^node scripts\/check-desktop-node\.mjs && /);
  });

  it('stops packaging on an older Node with a message that says which Node to use', () => {
    const old = check('22.11.9');
    expect(old.status).toBe(1);
    expect(old.stderr).toContain('needs Node >=22.12.0');
    expect(check('v22.12.0').status).toBe(0);
    expect(check('24.1.0').status).toBe(0);
    expect(check('20.19.0').status).toBe(1);
  });

  it('only warns for `npm start`', () => {
    const warned = check('--warn', '20.19.0');
    expect(warned.status).toBe(0);
    expect(warned.stderr).toContain('npm run serve');
  });
});
