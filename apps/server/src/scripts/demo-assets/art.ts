/**
 * Generated artwork for the demo storefront (`npm run demo:seed`): banners, wallpapers and avatars
 * rendered pixel by pixel (gradients and soft geometric motifs, anti-aliased) and encoded as real
 * PNG files with `pngjs`. Deterministic: the same options always give the same bytes.
 */
import { PNG } from 'pngjs';

/** A colour as `#rrggbb`. */
export type Hex = `#${string}`;

/** The shapes drawn over the background gradient. */
export type Motif = 'waves' | 'bokeh' | 'mountains' | 'grid' | 'rings' | 'blobs' | 'stripes' | 'dots';

export interface ArtOptions {
  /** Pixels. */
  width: number;
  /** Pixels. */
  height: number;
  /** Three colours: gradient start, gradient end, accent. */
  palette: readonly [Hex, Hex, Hex];
  motif: Motif;
  /** Seeds the layout of the motif. */
  seed: number;
}

type Rgb = [number, number, number];

function rgb(hex: Hex): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);
const smooth = (e0: number, e1: number, x: number): number => {
  const t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
};
const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [17, 24, 39];

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A per-pixel layer: given the pixel (in units of the shorter side) and the colour so far, returns the new colour. */
type Layer = (x: number, y: number, c: Rgb) => Rgb;

function motifLayer(o: ArtOptions, aspect: number, px: number): Layer {
  const rand = prng(o.seed);
  const [c0, c1, c2] = o.palette.map(rgb) as [Rgb, Rgb, Rgb];
  const light = mix(c2, WHITE, 0.55);
  const aa = px * 1.5;

  switch (o.motif) {
    case 'waves': {
      const bands = Array.from({ length: 5 }, (_, i) => ({
        base: 0.42 + i * 0.13,
        amp: 0.04 + rand() * 0.05,
        freq: 2 + rand() * 3,
        phase: rand() * Math.PI * 2,
        amp2: 0.01 + rand() * 0.02,
        freq2: 7 + rand() * 6,
        colour: mix(mix(c2, c1, i / 5), i % 2 ? WHITE : INK, 0.12 + i * 0.04),
        alpha: 0.55 + i * 0.08,
      }));
      return (x, y, c) => {
        let out = c;
        for (const b of bands) {
          const edge = b.base + b.amp * Math.sin(x * b.freq + b.phase) + b.amp2 * Math.sin(x * b.freq2 + b.phase * 2);
          const a = smooth(edge - aa, edge + aa, y) * b.alpha;
          if (a > 0) out = mix(out, b.colour, a);
        }
        return out;
      };
    }
    case 'bokeh': {
      const circles = Array.from({ length: 28 }, () => ({
        x: rand() * aspect,
        y: rand(),
        r: 0.03 + rand() ** 2 * 0.22,
        alpha: 0.12 + rand() * 0.3,
        colour: rand() < 0.5 ? light : mix(c2, c0, rand() * 0.5),
      }));
      return (x, y, c) => {
        let out = c;
        for (const k of circles) {
          const d = Math.hypot(x - k.x, y - k.y);
          if (d > k.r + aa) continue;
          const a = (1 - smooth(k.r - aa - k.r * 0.08, k.r + aa, d)) * k.alpha;
          out = mix(out, k.colour, a);
        }
        return out;
      };
    }
    case 'mountains': {
      const sun = { x: aspect * (0.6 + rand() * 0.25), y: 0.3 + rand() * 0.1, r: 0.12 + rand() * 0.05 };
      const ridges = Array.from({ length: 4 }, (_, i) => ({
        base: 0.5 + i * 0.12,
        waves: Array.from({ length: 3 }, (_, j) => ({
          f: (1.5 + rand() * 2) * (j + 1),
          a: (0.09 / (j + 1)) * (0.6 + rand() * 0.8),
          p: rand() * 7,
        })),
        colour: mix(mix(c1, INK, 0.15 + i * 0.16), c2, 0.15),
      }));
      const sunColour = mix(c2, WHITE, 0.35);
      return (x, y, c) => {
        const d = Math.hypot(x - sun.x, y - sun.y);
        let out = mix(c, sunColour, (1 - smooth(sun.r - aa, sun.r + aa, d)) * 0.9);
        out = mix(out, sunColour, (1 - smooth(0, sun.r * 3, d)) * 0.25);
        for (const r of ridges) {
          let edge = r.base;
          for (const w of r.waves) edge += w.a * Math.sin(x * w.f + w.p);
          const a = smooth(edge - aa, edge + aa, y);
          if (a > 0) out = mix(out, r.colour, a);
        }
        return out;
      };
    }
    case 'grid': {
      const cell = 0.16;
      const angle = -0.35 + rand() * 0.2;
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      const seeds = Array.from({ length: 97 }, () => rand());
      return (x, y, c) => {
        const u = x * cos - y * sin;
        const v = x * sin + y * cos;
        const iu = Math.floor(u / cell);
        const iv = Math.floor(v / cell);
        const fu = u / cell - iu - 0.5;
        const fv = v / cell - iv - 0.5;
        const h = seeds[(((iu * 31 + iv * 17) % 97) + 97) % 97]!;
        const half = 0.3 + h * 0.12;
        const qx = Math.abs(fu) - half + 0.08;
        const qy = Math.abs(fv) - half + 0.08;
        const dist = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - 0.08;
        const a = (1 - smooth(-aa / cell, aa / cell, dist)) * (0.12 + h * 0.45);
        return mix(c, h > 0.7 ? light : mix(c2, c0, h), a);
      };
    }
    case 'rings': {
      const cx = aspect * (0.2 + rand() * 0.6);
      const cy = 0.35 + rand() * 0.4;
      const k = 38 + rand() * 20;
      const cx2 = aspect - cx;
      const cy2 = 1 - cy;
      return (x, y, c) => {
        const d = Math.hypot(x - cx, y - cy);
        const d2 = Math.hypot(x - cx2, y - cy2);
        const ring = smooth(0.55, 0.95, Math.cos(d * k)) * (1 - smooth(0.1, 1.1, d));
        const ring2 = smooth(0.7, 0.98, Math.cos(d2 * k * 0.6)) * (1 - smooth(0.05, 0.7, d2));
        return mix(mix(c, light, ring * 0.55), mix(c2, INK, 0.2), ring2 * 0.35);
      };
    }
    case 'blobs': {
      const balls = Array.from({ length: 7 }, () => ({ x: rand() * aspect, y: rand(), r: 0.12 + rand() * 0.16 }));
      const balls2 = Array.from({ length: 5 }, () => ({ x: rand() * aspect, y: rand(), r: 0.08 + rand() * 0.12 }));
      const field = (list: typeof balls, x: number, y: number) => {
        let f = 0;
        for (const b of list) f += (b.r * b.r) / ((x - b.x) ** 2 + (y - b.y) ** 2 + 1e-6);
        return f;
      };
      const second = mix(c0, WHITE, 0.3);
      return (x, y, c) => {
        const f = field(balls, x, y);
        const f2 = field(balls2, x, y);
        let out = mix(c, c2, smooth(0.95, 1.05, f) * 0.75);
        out = mix(out, light, smooth(2.4, 2.6, f) * 0.35);
        out = mix(out, second, smooth(0.95, 1.05, f2) * 0.55);
        return out;
      };
    }
    case 'stripes': {
      const widths = Array.from({ length: 9 }, () => 0.05 + rand() * 0.12);
      const total = widths.reduce((s, w) => s + w, 0);
      const colours = widths.map((_, i) => (i % 3 === 0 ? light : i % 3 === 1 ? mix(c2, c1, 0.4) : mix(c0, WHITE, 0.2)));
      const alphas = widths.map(() => 0.15 + rand() * 0.35);
      const n = widths.length;
      const tint = (c: Rgb, i: number): Rgb => mix(c, colours[(i + n) % n]!, alphas[(i + n) % n]!);
      return (x, y, c) => {
        let t = (((x * 0.8 + y * 0.6) % total) + total) % total;
        for (let i = 0; i < n; i++) {
          const w = widths[i]!;
          if (t < w) {
            // Anti-aliased boundaries: blend half-way into the neighbouring stripe.
            if (t < aa) return mix(tint(c, i - 1), tint(c, i), 0.5 + (0.5 * t) / aa);
            if (w - t < aa) return mix(tint(c, i + 1), tint(c, i), 0.5 + (0.5 * (w - t)) / aa);
            return tint(c, i);
          }
          t -= w;
        }
        return c;
      };
    }
    case 'dots': {
      const step = 0.045;
      const fx = aspect * (0.2 + rand() * 0.3);
      const fy = 0.2 + rand() * 0.6;
      return (x, y, c) => {
        const gx = Math.round(x / step) * step;
        const gy = Math.round(y / step) * step;
        const size = step * 0.45 * (1 - smooth(0, 1.2, Math.hypot(gx - fx, gy - fy)));
        const d = Math.hypot(x - gx, y - gy);
        return mix(c, light, (1 - smooth(size - aa, size + aa, d)) * 0.7);
      };
    }
  }
}

/** Renders the artwork into RGBA pixels (row-major, 4 bytes a pixel). */
export function renderArt(o: ArtOptions): Buffer {
  const { width, height } = o;
  const side = Math.min(width, height);
  const aspect = width / side;
  const px = 1 / side;
  const [c0, c1, c2] = o.palette.map(rgb) as [Rgb, Rgb, Rgb];
  const layer = motifLayer(o, aspect, px);
  const glow = { x: aspect * 0.85, y: 0.1 };
  const data = Buffer.alloc(width * height * 4);
  for (let j = 0; j < height; j++) {
    const y = j / side;
    for (let i = 0; i < width; i++) {
      const x = i / side;
      // Diagonal gradient, a soft glow of the accent colour in one corner, then the motif.
      let c = mix(c0, c1, clamp01((x / aspect) * 0.6 + y * 0.4));
      c = mix(c, c2, (1 - smooth(0, 1.1, Math.hypot(x - glow.x, y - glow.y))) * 0.35);
      c = layer(x, y, c);
      const at = (j * width + i) * 4;
      data[at] = Math.round(c[0]);
      data[at + 1] = Math.round(c[1]);
      data[at + 2] = Math.round(c[2]);
      data[at + 3] = 255;
    }
  }
  return data;
}

/** Renders the artwork and encodes it as an RGB PNG. @returns the PNG file's bytes */
export function artPng(o: ArtOptions): Buffer {
  const png = new PNG({ width: o.width, height: o.height });
  png.data = renderArt(o);
  return PNG.sync.write(png, { colorType: 2, deflateLevel: 9 });
}
