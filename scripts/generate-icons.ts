// npx tsx scripts/generate-icons.ts: draws the app icon (a white inbox tray on a blue rounded
// square) and writes what electron-builder and the tray need into build/. The outputs are
// committed; run this again only to change the icon.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodeIcns, encodeIco, encodePng } from './lib/png';

const out = resolve(import.meta.dirname, '../build');

type Point = [number, number];
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Distance from p to the segment a-b. */
function segmentDistance([px, py]: Point, [ax, ay]: Point, [bx, by]: Point) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = clamp01(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Signed distance to a rounded rectangle (negative inside). */
function roundedRect([px, py]: Point, x0: number, y0: number, x1: number, y1: number, r: number) {
  const qx = Math.abs(px - (x0 + x1) / 2) - ((x1 - x0) / 2 - r);
  const qy = Math.abs(py - (y0 + y1) / 2) - ((y1 - y0) / 2 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

const tray: Point[] = [
  [0.27, 0.56],
  [0.4, 0.56],
  [0.44, 0.63],
  [0.56, 0.63],
  [0.6, 0.56],
  [0.73, 0.56],
];
const STROKE = 0.045;

/** Colour at a point of the unit square: [r, g, b, a] in 0..1. */
function shade(p: Point): [number, number, number, number] {
  if (roundedRect(p, 0.06, 0.06, 0.94, 0.94, 0.2) > 0) return [0, 0, 0, 0];
  const glyph =
    Math.abs(roundedRect(p, 0.27, 0.3, 0.73, 0.7, 0.07)) < STROKE / 2 ||
    tray.slice(1).some((b, i) => segmentDistance(p, tray[i]!, b) < STROKE / 2) ||
    // An arrow into the tray: a stem and its head.
    segmentDistance(p, [0.5, 0.19], [0.5, 0.47]) < STROKE / 2 ||
    segmentDistance(p, [0.41, 0.39], [0.5, 0.48]) < STROKE / 2 ||
    segmentDistance(p, [0.59, 0.39], [0.5, 0.48]) < STROKE / 2;
  if (glyph) return [1, 1, 1, 1];
  const t = p[1]; // vertical gradient, #2f6fed at the top to #1d3fa8 at the bottom
  return [(0x2f + (0x1d - 0x2f) * t) / 255, (0x6f + (0x3f - 0x6f) * t) / 255, (0xed + (0xa8 - 0xed) * t) / 255, 1];
}

/** Renders at `size` px with 4×4 supersampling for smooth edges. */
export function renderIcon(size: number): Buffer {
  const rgba = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [cr, cg, cb, ca] = shade([(x + (sx + 0.5) / n) / size, (y + (sy + 0.5) / n) / size]);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      }
      const i = (y * size + x) * 4;
      rgba[i] = a ? Math.round((r / a) * 255) : 0;
      rgba[i + 1] = a ? Math.round((g / a) * 255) : 0;
      rgba[i + 2] = a ? Math.round((b / a) * 255) : 0;
      rgba[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return encodePng(size, size, rgba);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  mkdirSync(join(out, 'icons'), { recursive: true });
  const sizes = [16, 24, 32, 48, 64, 128, 256, 512];
  const png = Object.fromEntries(sizes.map((s) => [s, renderIcon(s)])) as Record<number, Buffer>;
  for (const s of sizes) writeFileSync(join(out, 'icons', `${s}x${s}.png`), png[s]!);
  writeFileSync(join(out, 'icon.png'), png[512]!);
  writeFileSync(join(out, 'icon.ico'), encodeIco([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: png[size]! }))));
  writeFileSync(join(out, 'icon.icns'), encodeIcns([{ type: 'ic07', png: png[128]! }, { type: 'ic08', png: png[256]! }, { type: 'ic09', png: png[512]! }]));
  writeFileSync(join(out, 'tray-icon.png'), png[32]!);
  console.log(`Wrote icons to ${out}`);
}
