// Draws the app icons from build/icon.svg (run `npm run icons` after editing it; the outputs are committed,
// so packaging needs no image tools). Writes:
//   build/icon.png          1024 px: electron-builder's fallback source for every platform
//   build/icons/NxN.png     Linux (AppImage, deb): electron-builder takes the size from the file name
//   build/icon.ico          Windows (NSIS, the .exe): PNG images in an ICO container, 16 to 256 px
//   build/icon.icns         macOS (dmg, the .app): PNG images in an ICNS container, 16@2x to 512@2x
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const buildDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'build');
const svg = readFileSync(join(buildDir, 'icon.svg'));

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entry types that hold PNG data, and their pixel sizes (ic11..ic14 are the @2x variants). */
export const ICNS_TYPES = [['ic07', 128], ['ic08', 256], ['ic09', 512], ['ic10', 1024], ['ic11', 32], ['ic12', 64], ['ic13', 256], ['ic14', 512]];

const png = (size) => sharp(svg).resize(size, size).png({ compressionLevel: 9 }).toBuffer();

/** ICO: a 6-byte header, a 16-byte entry per image, then the PNGs (Windows Vista and later read PNG entries). */
export function icoFrom(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ data }) => data)]);
}

/** ICNS: 'icns' + total length, then per image a 4-character type, its length (header included) and the PNG. */
export function icnsFrom(images) {
  const chunks = images.map(({ type, data }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(8 + data.length, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + chunks.reduce((sum, chunk) => sum + chunk.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

async function main() {
  mkdirSync(join(buildDir, 'icons'), { recursive: true });
  const bySize = new Map();
  for (const size of new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s)])) bySize.set(size, await png(size));
  for (const size of LINUX_SIZES) writeFileSync(join(buildDir, 'icons', `${size}x${size}.png`), bySize.get(size));
  writeFileSync(join(buildDir, 'icon.png'), bySize.get(1024));
  writeFileSync(join(buildDir, 'icon.ico'), icoFrom(ICO_SIZES.map((size) => ({ size, data: bySize.get(size) }))));
  writeFileSync(join(buildDir, 'icon.icns'), icnsFrom(ICNS_TYPES.map(([type, size]) => ({ type, data: bySize.get(size) }))));
  console.log(`Wrote build/icon.png, build/icon.ico, build/icon.icns and ${LINUX_SIZES.length} sizes in build/icons/`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
