// Draws the app icon (resources/icon.png, 1024×1024), from which electron-builder makes the macOS .icns, the Windows
// .ico and the Linux sizes: a rounded dark square with a light "M". Run `node scripts/packaging/draw-icon.mjs`.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 1024;
const BACKGROUND = [0x0f, 0x11, 0x15];
const MARK = [0x7c, 0xc4, 0xff];
const CORNER = 220;

/** inside the rounded square */
function inSquare(x, y) {
  const cx = Math.min(Math.max(x, CORNER), SIZE - CORNER);
  const cy = Math.min(Math.max(y, CORNER), SIZE - CORNER);
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2;
}

/** distance from (x, y) to the segment a–b */
function distance(x, y, [ax, ay], [bx, by]) {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
}

// the "M": four strokes
const STROKES = [
  [
    [300, 740],
    [300, 290],
  ],
  [
    [300, 290],
    [512, 560],
  ],
  [
    [512, 560],
    [724, 290],
  ],
  [
    [724, 290],
    [724, 740],
  ],
];
const STROKE_HALF_WIDTH = 52;

function pixel(x, y) {
  if (!inSquare(x, y)) return [0, 0, 0, 0];
  const onMark = STROKES.some(([a, b]) => distance(x, y, a, b) <= STROKE_HALF_WIDTH);
  return [...(onMark ? MARK : BACKGROUND), 255];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const rows = Buffer.alloc(SIZE * (1 + SIZE * 4));
for (let y = 0; y < SIZE; y++) {
  const row = y * (1 + SIZE * 4);
  rows[row] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) rows.set(pixel(x, y), row + 1 + x * 4);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(rows, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../../resources/icon.png', import.meta.url), png);
console.log(`resources/icon.png: ${SIZE}×${SIZE}, ${png.length} bytes`);
