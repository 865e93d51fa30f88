/**
 * File formats of the demo collections (`npm run demo:seed`): real PDF documents (`pdf-lib`), real
 * ZIP archives (`fflate`), CSV, JSON and SVG. Deterministic: a fixed date goes into every archive
 * entry and document, so the same input always gives the same bytes.
 */
import { zipSync } from 'fflate';
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

/** One file of a demo collection: the name a buyer downloads, its MIME type and its bytes. */
export interface DemoFile {
  name: string;
  contentType: string;
  data: Buffer;
}

/** The date stamped into generated archives and documents. */
export const DEMO_FILE_DATE = new Date('2026-01-15T09:00:00Z');

export const textFile = (name: string, body: string, contentType = 'text/plain'): DemoFile => ({
  name,
  contentType,
  data: Buffer.from(body.endsWith('\n') ? body : `${body}\n`, 'utf8'),
});

export const markdownFile = (name: string, body: string): DemoFile => textFile(name, body, 'text/markdown');

export const jsonFile = (name: string, value: unknown): DemoFile =>
  textFile(name, JSON.stringify(value, null, 2), 'application/json');

export const svgFile = (name: string, svg: string): DemoFile => textFile(name, svg, 'image/svg+xml');

/** RFC 4180 CSV: a header row, then rows; fields with commas, quotes or newlines are quoted. */
export function csvFile(name: string, header: readonly string[], rows: readonly (readonly (string | number)[])[]): DemoFile {
  const field = (v: string | number) => {
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [header, ...rows].map((r) => r.map(field).join(','));
  return { name, contentType: 'text/csv', data: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8') };
}

/** A ZIP archive of `entries` (path inside the archive -> text or bytes), deflated. */
export function zipFile(name: string, entries: Record<string, string | Uint8Array>): DemoFile {
  const input: Record<string, Uint8Array> = {};
  for (const [path, body] of Object.entries(entries))
    input[path] = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const bytes = zipSync(input, { level: 9, mtime: DEMO_FILE_DATE });
  return { name, contentType: 'application/zip', data: Buffer.from(bytes) };
}

// ---------------------------------------------------------------------------------------------
// PDF

/** A block of a generated document. Text must stay within WinAnsi (the standard PDF fonts). */
export type DocBlock = { h: string } | { p: string } | { bullets: string[] } | { fields: string[] } | { code: string[] };

export interface DocSpec {
  title: string;
  subtitle?: string;
  author: string;
  blocks: DocBlock[];
}

const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const INK = rgb(0.07, 0.09, 0.15);
const MUTED = rgb(0.39, 0.45, 0.55);
const ACCENT = rgb(0.31, 0.27, 0.9);

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

async function newPdf(title: string, author: string): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setAuthor(author);
  pdf.setCreator('Coffer demo data');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(DEMO_FILE_DATE);
  pdf.setModificationDate(DEMO_FILE_DATE);
  return pdf;
}

/** A text document: title, optional subtitle, headings, paragraphs, bullet lists, form fields and code, paginated, with page numbers. */
export async function pdfDocument(name: string, spec: DocSpec): Promise<DemoFile> {
  const pdf = await newPdf(spec.title, spec.author);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const width = PAGE.width - PAGE.margin * 2;
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;

  const room = (needed: number) => {
    if (y - needed >= PAGE.margin + 24) return;
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
  };
  const line = (text: string, font: PDFFont, size: number, color = INK, x = PAGE.margin, gap = 1.45) => {
    room(size * gap);
    page.drawText(text, { x, y: y - size, size, font, color });
    y -= size * gap;
  };

  page.drawRectangle({ x: 0, y: PAGE.height - 8, width: PAGE.width, height: 8, color: ACCENT });
  for (const l of wrap(spec.title, bold, 24, width)) line(l, bold, 24, INK, PAGE.margin, 1.3);
  if (spec.subtitle) for (const l of wrap(spec.subtitle, regular, 12, width)) line(l, regular, 12, MUTED);
  y -= 14;

  for (const block of spec.blocks) {
    if ('h' in block) {
      y -= 8;
      room(40);
      line(block.h, bold, 14, ACCENT, PAGE.margin, 1.6);
    } else if ('p' in block) {
      for (const l of wrap(block.p, regular, 11, width)) line(l, regular, 11);
      y -= 6;
    } else if ('bullets' in block) {
      for (const item of block.bullets) {
        wrap(item, regular, 11, width - 16).forEach((l, i) => {
          if (i === 0) {
            room(16);
            page.drawText('\u2022', { x: PAGE.margin + 2, y: y - 11, size: 11, font: bold, color: ACCENT });
          }
          line(l, regular, 11, INK, PAGE.margin + 16);
        });
      }
      y -= 6;
    } else if ('fields' in block) {
      for (const label of block.fields) {
        room(30);
        page.drawText(label, { x: PAGE.margin, y: y - 11, size: 10, font: bold, color: MUTED });
        page.drawLine({
          start: { x: PAGE.margin + 150, y: y - 13 },
          end: { x: PAGE.margin + width, y: y - 13 },
          thickness: 0.6,
          color: MUTED,
        });
        y -= 28;
      }
      y -= 4;
    } else {
      const height = block.code.length * 13 + 12;
      room(Math.min(height, 200));
      const top = y;
      page.drawRectangle({ x: PAGE.margin - 6, y: top - height, width: width + 12, height, color: rgb(0.95, 0.96, 0.98) });
      y -= 6;
      for (const l of block.code) line(l, mono, 9.5, INK, PAGE.margin, 1.37);
      y -= 12;
    }
  }

  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    const label = `${spec.title}  |  page ${i + 1} of ${pages.length}`;
    p.drawText(label, { x: PAGE.margin, y: PAGE.margin / 2, size: 8, font: regular, color: MUTED });
  });
  return { name, contentType: 'application/pdf', data: Buffer.from(await pdf.save()) };
}

/** A printable planner: one landscape page per entry of `pages`, each a titled grid of `columns` x `rows` boxes. */
export async function pdfPlanner(
  name: string,
  spec: { title: string; author: string; pages: { heading: string; columns: string[]; rows: number; rowLabels?: string[] }[] },
): Promise<DemoFile> {
  const pdf = await newPdf(spec.title, spec.author);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const [w, h] = [PAGE.height, PAGE.width];
  const m = 40;
  for (const sheet of spec.pages) {
    const page = pdf.addPage([w, h]);
    page.drawText(sheet.heading, { x: m, y: h - m - 20, size: 22, font: bold, color: INK });
    page.drawText(spec.title, { x: m, y: h - m - 38, size: 10, font: regular, color: MUTED });
    const labelWidth = sheet.rowLabels ? 90 : 0;
    const top = h - m - 60;
    const gridW = w - 2 * m - labelWidth;
    const colW = gridW / sheet.columns.length;
    const rowH = (top - m - 20) / sheet.rows;
    sheet.columns.forEach((c, i) => {
      const x = m + labelWidth + i * colW;
      page.drawRectangle({
        x,
        y: top - 20,
        width: colW,
        height: 20,
        color: i % 2 ? rgb(0.93, 0.93, 0.99) : rgb(0.88, 0.88, 0.98),
      });
      page.drawText(c, { x: x + 6, y: top - 14, size: 9, font: bold, color: ACCENT });
    });
    for (let r = 0; r < sheet.rows; r++) {
      const y = top - 20 - (r + 1) * rowH;
      const label = sheet.rowLabels?.[r];
      if (label) page.drawText(label, { x: m, y: y + rowH / 2 - 4, size: 9, font: regular, color: MUTED });
      page.drawLine({ start: { x: m, y }, end: { x: w - m, y }, thickness: 0.5, color: rgb(0.8, 0.82, 0.86) });
    }
    for (let i = 0; i <= sheet.columns.length; i++) {
      const x = m + labelWidth + i * colW;
      page.drawLine({
        start: { x, y: top },
        end: { x, y: top - 20 - sheet.rows * rowH },
        thickness: 0.5,
        color: rgb(0.8, 0.82, 0.86),
      });
    }
  }
  return { name, contentType: 'application/pdf', data: Buffer.from(await pdf.save()) };
}

// ---------------------------------------------------------------------------------------------
// SVG

/** 24x24 line icons (stroke only, `currentColor`), by name: the inner SVG elements. */
export const LINE_ICONS: Record<string, string> = {
  circle: '<circle cx="12" cy="12" r="9"/>',
  square: '<rect x="4" y="4" width="16" height="16" rx="2"/>',
  triangle: '<path d="M12 4 21 19H3Z"/>',
  plus: '<path d="M12 5v14M5 12h14"/>',
  minus: '<path d="M5 12h14"/>',
  close: '<path d="M6 6l12 12M18 6 6 18"/>',
  check: '<path d="m5 12 5 5 9-10"/>',
  'arrow-right': '<path d="M5 12h14M13 6l6 6-6 6"/>',
  'arrow-left': '<path d="M19 12H5M11 6l-6 6 6 6"/>',
  'arrow-up': '<path d="M12 19V5M6 11l6-6 6 6"/>',
  'arrow-down': '<path d="M12 5v14M6 13l6 6 6-6"/>',
  'chevron-right': '<path d="m9 6 6 6-6 6"/>',
  'chevron-down': '<path d="m6 9 6 6 6-6"/>',
  menu: '<path d="M4 7h16M4 12h16M4 17h16"/>',
  search: '<circle cx="11" cy="11" r="6"/><path d="m20 20-4.5-4.5"/>',
  home: '<path d="M4 11 12 4l8 7"/><path d="M6 10v10h12V10"/><path d="M10 20v-6h4v6"/>',
  user: '<circle cx="12" cy="8" r="4"/><path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6"/>',
  mail: '<rect x="3" y="5" width="18" height="14" rx="2"/><path d="m3 7 9 6 9-6"/>',
  lock: '<rect x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V8a4 4 0 0 1 8 0v3"/>',
  calendar: '<rect x="4" y="5" width="16" height="16" rx="2"/><path d="M4 10h16M9 3v4M15 3v4"/>',
  clock: '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 3"/>',
  download: '<path d="M12 4v11M7 10l5 5 5-5M5 20h14"/>',
  upload: '<path d="M12 20V9M7 14l5-5 5 5M5 4h14"/>',
  star: '<path d="m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9Z"/>',
  heart: '<path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z"/>',
  bookmark: '<path d="M7 4h10v16l-5-4-5 4Z"/>',
  folder: '<path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2Z"/>',
  file: '<path d="M7 3h7l5 5v13H7Z"/><path d="M14 3v5h5"/>',
  image: '<rect x="3" y="5" width="18" height="14" rx="2"/><circle cx="9" cy="10" r="2"/><path d="m21 16-5-5-9 8"/>',
  play: '<path d="M8 5v14l11-7Z"/>',
  pause: '<path d="M9 5v14M15 5v14"/>',
  sun: '<circle cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M2 12h2M20 12h2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/>',
  moon: '<path d="M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5Z"/>',
  grid: '<rect x="4" y="4" width="7" height="7" rx="1"/><rect x="13" y="4" width="7" height="7" rx="1"/><rect x="4" y="13" width="7" height="7" rx="1"/><rect x="13" y="13" width="7" height="7" rx="1"/>',
  list: '<path d="M9 6h11M9 12h11M9 18h11"/><circle cx="5" cy="6" r="1"/><circle cx="5" cy="12" r="1"/><circle cx="5" cy="18" r="1"/>',
  tag: '<path d="M3 12V4h8l10 10-8 8Z"/><circle cx="7.5" cy="7.5" r="1.5"/>',
};

/** One icon as a standalone SVG file's text. */
export function iconSvg(inner: string, size = 24, strokeWidth = 1.75): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="${strokeWidth}" stroke-linecap="round" stroke-linejoin="round">${inner}</svg>\n`;
}

/** A contact sheet of icons: a grid with each icon's name under it. */
export function iconSheetSvg(names: string[], columns = 6): string {
  const cell = 96;
  const rows = Math.ceil(names.length / columns);
  const items = names
    .map((n, i) => {
      const x = (i % columns) * cell;
      const y = Math.floor(i / columns) * cell;
      return `<g transform="translate(${x + 30} ${y + 18}) scale(1.5)" fill="none" stroke="#1f2937" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round">${LINE_ICONS[n]}</g><text x="${x + cell / 2}" y="${y + 82}" text-anchor="middle">${n}</text>`;
    })
    .join('\n  ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${columns * cell}" height="${rows * cell}" viewBox="0 0 ${columns * cell} ${rows * cell}" font-family="system-ui, sans-serif" font-size="10" fill="#6b7280">\n  <rect width="100%" height="100%" fill="#ffffff"/>\n  ${items}\n</svg>\n`;
}

/** Swatches of named palettes: one row per palette. */
export function paletteSheetSvg(palettes: { name: string; colours: string[] }[]): string {
  const sw = 96;
  const rowH = 120;
  const width = 40 + Math.max(...palettes.map((p) => p.colours.length)) * sw;
  const rows = palettes
    .map((p, r) => {
      const y = 20 + r * rowH;
      const chips = p.colours
        .map(
          (c, i) =>
            `<rect x="${20 + i * sw}" y="${y + 22}" width="${sw - 8}" height="64" rx="10" fill="${c}"/><text x="${24 + i * sw}" y="${y + 102}" font-family="ui-monospace, monospace">${c}</text>`,
        )
        .join('');
      return `<text x="20" y="${y + 12}" font-weight="600" fill="#111827">${p.name}</text>${chips}`;
    })
    .join('\n  ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${palettes.length * rowH + 20}" font-family="system-ui, sans-serif" font-size="11" fill="#6b7280">\n  <rect width="100%" height="100%" fill="#ffffff"/>\n  ${rows}\n</svg>\n`;
}
