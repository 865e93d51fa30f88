/**
 * What the demo storefront holds (`npm run demo:seed`): the people, their collections with the
 * files inside, and the story of a few weeks of trading (sign-ups, top-ups, purchases, cash-outs)
 * that the seed plays through the real API. Prices are whole points (product §3); top-up and cash-out
 * amounts are points as decimal strings. All content is made up for the demo (the capitals are
 * real places; every dataset that is not is labelled synthetic).
 */
import { artPng, prng, type ArtOptions } from './art';
import {
  csvFile,
  iconSheetSvg,
  iconSvg,
  jsonFile,
  LINE_ICONS,
  markdownFile,
  paletteSheetSvg,
  pdfDocument,
  pdfPlanner,
  svgFile,
  textFile,
  zipFile,
  type DemoFile,
} from './formats';

/** Artwork options without the size (the seed picks it). */
export type Art = Omit<ArtOptions, 'width' | 'height'>;

export interface DemoPerson {
  /** Key used by the timeline. */
  key: string;
  username: string;
  nickname: string;
  role: 'seller' | 'buyer';
  avatar: Art;
}

/** Options of the file builders. */
export interface BuildContext {
  /** Multiplies the pixel sizes of generated images (1 = full size; tests use less). */
  imageScale: number;
}

export interface DemoCollection {
  key: string;
  /** Key of the seller. */
  seller: string;
  title: string;
  desc: string;
  /** Whole points. */
  price: number;
  banner: Art;
  /** The collection's files (none for a bare draft). */
  files: (ctx: BuildContext) => Promise<DemoFile[]>;
  /** Left unpublished (status Created). */
  draft?: boolean;
}

/** One step of the story; `day` counts from the start of the demo period (fractions are times of day). */
export type DemoEvent = { day: number } & (
  | { kind: 'register'; person: string }
  | { kind: 'create'; collection: string }
  | { kind: 'top-up'; person: string; points: string; currency: string }
  /** A top-up bill that is never paid and expires (a Failed record in the history). */
  | { kind: 'top-up-expired'; person: string; points: string; currency: string }
  /** `code`: a discount code of the seller (product §28). */
  | { kind: 'buy'; person: string; collection: string; code?: string }
  | { kind: 'cash-out'; person: string; points: string; currency: string; network: string; address: string }
  /** A buyer who downloaded a file asks for a refund: the request waits for the seller (product §25). */
  | { kind: 'refund-request'; person: string; collection: string; reason: string }
  /** A buyer reports a collection to Coffer: an open report for `npm run admin -- reports` (product §27). */
  | { kind: 'report'; person: string; collection: string; reason: 'copyright' | 'illegal' | 'spam' | 'other'; details: string }
  // Discount codes and licence keys (product §28).
  /** The collection's seller creates a percent code for it. */
  | { kind: 'discount-code'; collection: string; code: string; percent: number; maxUses: number }
  /** The collection's seller turns licence keys on; buyers paying from now on get a key. */
  | { kind: 'licence-keys'; collection: string; maxActivations: number }
);

export const PEOPLE: DemoPerson[] = [
  {
    key: 'mira',
    username: 'mira_studio',
    nickname: 'Mira Studio',
    role: 'seller',
    avatar: { palette: ['#f472b6', '#7c3aed', '#fde68a'], motif: 'blobs', seed: 11 },
  },
  {
    key: 'northwind',
    username: 'northwind_data',
    nickname: 'Northwind Data',
    role: 'seller',
    avatar: { palette: ['#0ea5e9', '#0f172a', '#67e8f9'], motif: 'dots', seed: 12 },
  },
  {
    key: 'ada',
    username: 'ada_writes',
    nickname: 'Ada Lindqvist',
    role: 'seller',
    avatar: { palette: ['#f59e0b', '#b45309', '#fef3c7'], motif: 'rings', seed: 13 },
  },
  {
    key: 'leo',
    username: 'leo_devkit',
    nickname: 'Leo Park',
    role: 'seller',
    avatar: { palette: ['#10b981', '#064e3b', '#a7f3d0'], motif: 'grid', seed: 14 },
  },
  {
    key: 'sam',
    username: 'sam_rivera',
    nickname: 'Sam Rivera',
    role: 'buyer',
    avatar: { palette: ['#6366f1', '#1e1b4b', '#c7d2fe'], motif: 'bokeh', seed: 15 },
  },
  {
    key: 'noor',
    username: 'noor_haddad',
    nickname: 'Noor Haddad',
    role: 'buyer',
    avatar: { palette: ['#fb7185', '#9f1239', '#fecdd3'], motif: 'waves', seed: 16 },
  },
  {
    key: 'kenji',
    username: 'kenji_tanaka',
    nickname: 'Kenji Tanaka',
    role: 'buyer',
    avatar: { palette: ['#14b8a6', '#134e4a', '#fde68a'], motif: 'mountains', seed: 17 },
  },
  {
    key: 'elena',
    username: 'elena_volkova',
    nickname: 'Elena Volkova',
    role: 'buyer',
    avatar: { palette: ['#a855f7', '#3b0764', '#f5d0fe'], motif: 'stripes', seed: 18 },
  },
];

// ---------------------------------------------------------------------------------------------
// File builders

const px = (ctx: BuildContext, n: number) => Math.max(16, Math.round(n * ctx.imageScale));

const LICENSE_PERSONAL = (owner: string) => `Licence — ${owner}

You may use these files in personal and commercial projects, including client work.
You may not resell or redistribute the files themselves, alone or in a bundle.
Attribution is appreciated but not required.

Questions? Message ${owner} on Coffer.`;

async function wallpapers(ctx: BuildContext): Promise<DemoFile[]> {
  const size = { width: px(ctx, 1600), height: px(ctx, 1000) };
  const art: [string, Art][] = [
    ['dusk-waves.png', { palette: ['#7c3aed', '#db2777', '#fbbf24'], motif: 'waves', seed: 101 }],
    ['lagoon-bokeh.png', { palette: ['#0f766e', '#1e3a8a', '#5eead4'], motif: 'bokeh', seed: 102 }],
    ['desert-sun.png', { palette: ['#f97316', '#7c2d12', '#fde68a'], motif: 'mountains', seed: 103 }],
  ];
  return [
    ...art.map(([name, a]) => ({ name, contentType: 'image/png', data: artPng({ ...size, ...a }) })),
    markdownFile(
      'README.md',
      `# Soft Gradient Wallpapers

Three calm wallpapers for desktop and tablet, ${size.width} x ${size.height} px, PNG.

| file | mood |
|---|---|
| dusk-waves.png | violet to rose, layered waves |
| lagoon-bokeh.png | teal and navy, soft light circles |
| desert-sun.png | warm orange dunes at sunset |

Made by Mira Studio. See LICENSE.txt.`,
    ),
    textFile('LICENSE.txt', LICENSE_PERSONAL('Mira Studio')),
  ];
}

async function lineIcons(): Promise<DemoFile[]> {
  const names = Object.keys(LINE_ICONS);
  const entries: Record<string, string> = {};
  for (const n of names) entries[`line-icons/svg/${n}.svg`] = iconSvg(LINE_ICONS[n]!);
  entries['line-icons/README.md'] =
    `# Minimal Line Icons\n\n${names.length} icons on a 24 px grid, 1.75 px stroke, round caps and joins.\nEvery icon uses \`currentColor\`, so it takes the colour of the text around it.\n\n\`\`\`html\n<span style="color:#7c3aed">${iconSvg(LINE_ICONS.heart!).trim()}</span>\n\`\`\`\n`;
  return [
    zipFile('minimal-line-icons.zip', entries),
    svgFile('icon-sheet.svg', iconSheetSvg(names)),
    textFile('LICENSE.txt', LICENSE_PERSONAL('Mira Studio')),
  ];
}

const PALETTES = [
  { name: 'Morning Sorbet', colours: ['#FFD6E0', '#FFEFCF', '#D7F9F1', '#C9E4FF', '#E6D9FF'] },
  { name: 'Sage Kitchen', colours: ['#E9F0E4', '#C8D9BF', '#9DB88F', '#6F8F72', '#3F5B4A'] },
  { name: 'Harbour Fog', colours: ['#EEF2F6', '#CBD5E1', '#94A3B8', '#64748B', '#334155'] },
  { name: 'Peach Linen', colours: ['#FFF4EC', '#FFD9C2', '#F7B89A', '#E08E6D', '#A85A45'] },
  { name: 'Lavender Ink', colours: ['#F5F3FF', '#DDD6FE', '#B3A4F5', '#7C6CD8', '#3F2F8F'] },
  { name: 'Citrus Pop', colours: ['#FFFBEA', '#FFF1A8', '#FFD166', '#F4A259', '#E76F51'] },
];

async function palettes(): Promise<DemoFile[]> {
  const hexToRgb = (h: string) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
  return [
    jsonFile(
      'palettes.json',
      PALETTES.map((p) => ({ name: p.name, colours: p.colours.map((hex) => ({ hex, rgb: hexToRgb(hex) })) })),
    ),
    csvFile(
      'palettes.csv',
      ['palette', 'position', 'hex', 'r', 'g', 'b'],
      PALETTES.flatMap((p) => p.colours.map((hex, i) => [p.name, i + 1, hex, ...hexToRgb(hex)])),
    ),
    svgFile('swatches.svg', paletteSheetSvg(PALETTES)),
  ];
}

async function textures(ctx: BuildContext): Promise<DemoFile[]> {
  return [
    {
      name: 'riso-grain-pink.png',
      contentType: 'image/png',
      data: artPng({
        width: px(ctx, 800),
        height: px(ctx, 800),
        palette: ['#fda4af', '#fb7185', '#fff1f2'],
        motif: 'dots',
        seed: 131,
      }),
    },
  ];
}

// Country, ISO code, capital, continent, latitude, longitude (2 decimals).
const CAPITALS: [string, string, string, string, number, number][] = [
  ['Austria', 'AT', 'Vienna', 'Europe', 48.21, 16.37],
  ['Belgium', 'BE', 'Brussels', 'Europe', 50.85, 4.35],
  ['Denmark', 'DK', 'Copenhagen', 'Europe', 55.68, 12.57],
  ['Finland', 'FI', 'Helsinki', 'Europe', 60.17, 24.94],
  ['France', 'FR', 'Paris', 'Europe', 48.86, 2.35],
  ['Germany', 'DE', 'Berlin', 'Europe', 52.52, 13.4],
  ['Greece', 'GR', 'Athens', 'Europe', 37.98, 23.73],
  ['Ireland', 'IE', 'Dublin', 'Europe', 53.35, -6.26],
  ['Italy', 'IT', 'Rome', 'Europe', 41.9, 12.5],
  ['Netherlands', 'NL', 'Amsterdam', 'Europe', 52.37, 4.9],
  ['Norway', 'NO', 'Oslo', 'Europe', 59.91, 10.75],
  ['Poland', 'PL', 'Warsaw', 'Europe', 52.23, 21.01],
  ['Portugal', 'PT', 'Lisbon', 'Europe', 38.72, -9.14],
  ['Spain', 'ES', 'Madrid', 'Europe', 40.42, -3.7],
  ['Sweden', 'SE', 'Stockholm', 'Europe', 59.33, 18.07],
  ['United Kingdom', 'GB', 'London', 'Europe', 51.51, -0.13],
  ['Canada', 'CA', 'Ottawa', 'North America', 45.42, -75.7],
  ['Mexico', 'MX', 'Mexico City', 'North America', 19.43, -99.13],
  ['United States', 'US', 'Washington, D.C.', 'North America', 38.91, -77.04],
  ['Argentina', 'AR', 'Buenos Aires', 'South America', -34.6, -58.38],
  ['Brazil', 'BR', 'Brasília', 'South America', -15.79, -47.88],
  ['Chile', 'CL', 'Santiago', 'South America', -33.45, -70.67],
  ['Colombia', 'CO', 'Bogotá', 'South America', 4.71, -74.07],
  ['Peru', 'PE', 'Lima', 'South America', -12.05, -77.04],
  ['Egypt', 'EG', 'Cairo', 'Africa', 30.04, 31.24],
  ['Kenya', 'KE', 'Nairobi', 'Africa', -1.29, 36.82],
  ['Morocco', 'MA', 'Rabat', 'Africa', 34.02, -6.83],
  ['Nigeria', 'NG', 'Abuja', 'Africa', 9.08, 7.4],
  ['South Africa', 'ZA', 'Pretoria', 'Africa', -25.75, 28.19],
  ['China', 'CN', 'Beijing', 'Asia', 39.9, 116.41],
  ['India', 'IN', 'New Delhi', 'Asia', 28.61, 77.21],
  ['Indonesia', 'ID', 'Jakarta', 'Asia', -6.21, 106.85],
  ['Japan', 'JP', 'Tokyo', 'Asia', 35.68, 139.69],
  ['South Korea', 'KR', 'Seoul', 'Asia', 37.57, 126.98],
  ['Thailand', 'TH', 'Bangkok', 'Asia', 13.76, 100.5],
  ['Turkey', 'TR', 'Ankara', 'Asia', 39.93, 32.86],
  ['Vietnam', 'VN', 'Hanoi', 'Asia', 21.03, 105.85],
  ['Australia', 'AU', 'Canberra', 'Oceania', -35.28, 149.13],
  ['New Zealand', 'NZ', 'Wellington', 'Oceania', -41.29, 174.78],
];

async function capitals(): Promise<DemoFile[]> {
  const header = ['country', 'iso2', 'capital', 'continent', 'lat', 'lon'];
  return [
    csvFile(
      'capitals.csv',
      header,
      CAPITALS.map((r) => [r[0], r[1], r[2], r[3], r[4].toFixed(2), r[5].toFixed(2)]),
    ),
    jsonFile('capitals.geojson', {
      type: 'FeatureCollection',
      features: CAPITALS.map(([country, iso2, capital, continent, lat, lon]) => ({
        type: 'Feature',
        properties: { country, iso2, capital, continent },
        geometry: { type: 'Point', coordinates: [lon, lat] },
      })),
    }),
    markdownFile(
      'README.md',
      `# World Capitals Starter Dataset

${CAPITALS.length} countries with their capital city, ISO 3166-1 alpha-2 code, continent and the
capital's coordinates (WGS 84, 2 decimals, about 1 km).

- \`capitals.csv\`: one row per country (UTF-8, comma-separated, header row)
- \`capitals.geojson\`: the same as GeoJSON points (\`[lon, lat]\`), ready for Leaflet or QGIS

Good for map demos, quiz apps and teaching joins.`,
    ),
  ];
}

/** Synthetic coffee-shop sales: deterministic, one year, three stores. */
async function coffeeSales(): Promise<DemoFile[]> {
  const rand = prng(2025);
  const stores = ['Harbour St', 'Market Sq', 'Station Rd'];
  const menu: [string, number][] = [
    ['Espresso', 280],
    ['Flat White', 390],
    ['Cappuccino', 380],
    ['Latte', 400],
    ['Cold Brew', 420],
    ['Chai Latte', 410],
    ['Croissant', 320],
    ['Banana Bread', 350],
  ];
  const rows: (string | number)[][] = [];
  const monthly = new Map<string, { orders: number; cents: number }>();
  const day0 = Date.UTC(2025, 0, 1);
  for (let d = 0; d < 365; d++) {
    const date = new Date(day0 + d * 86_400_000);
    const iso = date.toISOString().slice(0, 10);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
    for (const store of stores) {
      const orders = 3 + Math.floor(rand() * (weekend ? 6 : 4));
      for (let o = 0; o < orders; o++) {
        const [product, price] = menu[Math.floor(rand() * menu.length)]!;
        const qty = 1 + (rand() < 0.2 ? 1 : 0);
        const hour = 7 + Math.floor(rand() * 11);
        const minute = Math.floor(rand() * 60);
        const total = price * qty;
        rows.push([
          `${iso}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
          store,
          product,
          qty,
          (price / 100).toFixed(2),
          (total / 100).toFixed(2),
        ]);
        const m = monthly.get(iso.slice(0, 7)) ?? { orders: 0, cents: 0 };
        m.orders++;
        m.cents += total;
        monthly.set(iso.slice(0, 7), m);
      }
    }
  }
  return [
    csvFile('coffee-sales-2025.csv', ['sold_at', 'store', 'product', 'qty', 'unit_price_usd', 'total_usd'], rows),
    jsonFile(
      'monthly-summary.json',
      [...monthly].map(([month, m]) => ({ month, orders: m.orders, revenue_usd: (m.cents / 100).toFixed(2) })),
    ),
    markdownFile(
      'data-dictionary.md',
      `# Coffee Shop Sales 2025 (synthetic)

${rows.length} sales lines from three made-up stores over 2025, generated with a fixed seed.
No real business or customer is behind these numbers.

| column | type | meaning |
|---|---|---|
| sold_at | ISO local time | when the line was rung up |
| store | text | one of ${stores.join(', ')} |
| product | text | menu item |
| qty | integer | items on the line |
| unit_price_usd | decimal(2) | menu price |
| total_usd | decimal(2) | qty x unit price |

Ideas: weekday vs weekend demand, product mix per store, a monthly revenue chart.`,
    ),
  ];
}

async function budgetTracker(): Promise<DemoFile[]> {
  const categories = [
    { name: 'Rent', group: 'Fixed', monthly_budget: '1200.00' },
    { name: 'Utilities', group: 'Fixed', monthly_budget: '150.00' },
    { name: 'Groceries', group: 'Living', monthly_budget: '420.00' },
    { name: 'Transport', group: 'Living', monthly_budget: '110.00' },
    { name: 'Eating out', group: 'Fun', monthly_budget: '160.00' },
    { name: 'Subscriptions', group: 'Fun', monthly_budget: '45.00' },
    { name: 'Savings', group: 'Future', monthly_budget: '500.00' },
  ];
  const rows = [
    ['2026-01-01', 'Rent', 'January rent', '-1200.00', 'bank transfer'],
    ['2026-01-03', 'Groceries', 'Weekly shop', '-86.40', 'card'],
    ['2026-01-05', 'Transport', 'Monthly pass', '-95.00', 'card'],
    ['2026-01-07', 'Subscriptions', 'Music streaming', '-10.99', 'card'],
    ['2026-01-10', 'Groceries', 'Weekly shop', '-92.15', 'card'],
    ['2026-01-12', 'Eating out', 'Dinner with friends', '-38.50', 'card'],
    ['2026-01-15', 'Income', 'Salary', '3150.00', 'bank transfer'],
    ['2026-01-15', 'Savings', 'Monthly transfer', '-500.00', 'bank transfer'],
  ];
  return [
    csvFile('budget-template.csv', ['date', 'category', 'description', 'amount', 'method'], rows),
    jsonFile('categories.json', categories),
    await pdfDocument('how-to-use.pdf', {
      title: 'Personal Budget Tracker',
      subtitle: 'How to use the template in any spreadsheet app',
      author: 'Northwind Data',
      blocks: [
        { h: '1. Import the CSV' },
        {
          p: 'Open budget-template.csv in Google Sheets, LibreOffice Calc, Numbers or Excel. The first row holds the column names; amounts are plain decimals with a dot, negative for money going out.',
        },
        { h: '2. Set your categories' },
        {
          p: 'categories.json lists seven starter categories in four groups with a monthly budget each. Rename them, add your own, and keep the names identical in the category column.',
        },
        { h: '3. Log as you go' },
        {
          bullets: [
            'One row per payment or income.',
            'Use the method column to reconcile with your bank statement.',
            'Add a month column with =LEFT(A2,7) to build a pivot table of spending per month and category.',
          ],
        },
        { h: '4. Review monthly' },
        {
          p: 'Compare the pivot totals with monthly_budget. Anything over budget twice in a row deserves either a new habit or a new budget.',
        },
      ],
    }),
  ];
}

async function contracts(): Promise<DemoFile[]> {
  const notice =
    'These templates are starting points, not legal advice. Laws differ by country; have a lawyer review any contract before you sign it.';
  return [
    await pdfDocument('freelance-services-agreement.pdf', {
      title: 'Freelance Services Agreement',
      subtitle: 'Template by Ada Lindqvist. Fill in the fields, delete what does not apply.',
      author: 'Ada Lindqvist',
      blocks: [
        { fields: ['Client', 'Freelancer', 'Project', 'Start date', 'Fee and currency'] },
        { h: '1. Services' },
        {
          p: 'The Freelancer will provide the services described in Schedule A (the "Services"). Changes to the scope are agreed in writing, by email being enough, before the work starts.',
        },
        { h: '2. Payment' },
        {
          p: 'The Client pays the fee in the stated currency. Invoices are due within 14 days. A deposit of 30% is payable before work begins and is not refundable once work has started.',
        },
        { h: '3. Intellectual property' },
        {
          p: 'On full payment, the Freelancer assigns to the Client the rights in the final deliverables. The Freelancer keeps the rights in pre-existing tools, drafts and know-how, and may show the work in a portfolio unless the Client objects in writing.',
        },
        { h: '4. Confidentiality' },
        {
          p: 'Each party keeps the other party\u2019s confidential information secret during the project and for two years after it.',
        },
        { h: '5. Termination' },
        {
          p: 'Either party may end this agreement with 14 days\u2019 written notice. The Client pays for work done up to the end date.',
        },
        { h: 'Signatures' },
        { fields: ['Client signature', 'Date', 'Freelancer signature', 'Date'] },
        { p: notice },
      ],
    }),
    await pdfDocument('mutual-nda.pdf', {
      title: 'Mutual Non-Disclosure Agreement',
      subtitle: 'One page, plain words, both directions.',
      author: 'Ada Lindqvist',
      blocks: [
        { fields: ['Party A', 'Party B', 'Purpose', 'Effective date'] },
        {
          p: 'Each party may share confidential information with the other for the Purpose. The receiving party uses it only for the Purpose, protects it as it protects its own, and shares it only with people who need it and are bound by similar duties.',
        },
        {
          p: 'Not confidential: information that is public through no fault of the receiver, was already known to it, or is independently developed. Obligations last three years from the effective date.',
        },
        { fields: ['Party A signature', 'Party B signature'] },
        { p: notice },
      ],
    }),
    markdownFile(
      'contract-checklist.md',
      `# Before you send a contract

- [ ] Names and addresses of both parties are complete
- [ ] Scope lists deliverables, not activities
- [ ] Number of revision rounds is stated
- [ ] Fee, currency, deposit and due date are clear
- [ ] Who owns what, and when ownership passes
- [ ] How either side can end the agreement
- [ ] Both parties sign and keep a copy

${notice}`,
    ),
  ];
}

async function pitchDeck(): Promise<DemoFile[]> {
  const slides = [
    ['Title', 'Company name, one-line description, your name and contact.'],
    ['Problem', 'Who hurts, how often, and what it costs them today. One story beats three statistics.'],
    ['Solution', 'What you built, shown, not described. A screenshot or a 20-second demo.'],
    ['Why now', 'The change in technology, regulation or behaviour that makes this possible now.'],
    ['Market', 'Bottom-up size: number of customers times what each pays you a year.'],
    ['Product', 'Three features that matter, each tied to the problem slide.'],
    ['Traction', 'One chart, up and to the right, with real axes and dates.'],
    ['Business model', 'Who pays, how much, how often; gross margin.'],
    ['Competition', 'Honest map of alternatives, including doing nothing.'],
    ['Team', 'Why these people win: relevant wins, not job titles.'],
    ['Ask', 'How much, for how long, and the milestones it buys.'],
  ];
  return [
    await pdfDocument('pitch-deck-outline.pdf', {
      title: 'Startup Pitch Deck Outline',
      subtitle: 'Eleven slides, what goes on each, and what investors look for',
      author: 'Ada Lindqvist',
      blocks: slides.flatMap(([h, p], i) => [{ h: `${i + 1}. ${h}` }, { p: p! }]),
    }),
    markdownFile(
      'speaker-notes.md',
      `# Speaker notes\n\n${slides.map(([h, p], i) => `## ${i + 1}. ${h}\n\n${p}\n\n_Say it in under 40 seconds._`).join('\n\n')}`,
    ),
  ];
}

async function planner(): Promise<DemoFile[]> {
  const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  return [
    await pdfPlanner('weekly-planner.pdf', {
      title: 'Undated Weekly Planner',
      author: 'Ada Lindqvist',
      pages: [
        { heading: 'This week', columns: days, rows: 10 },
        { heading: 'Priorities and notes', columns: ['Top 3', 'Waiting on', 'Notes'], rows: 12 },
      ],
    }),
    await pdfPlanner('habit-tracker.pdf', {
      title: 'Habit Tracker',
      author: 'Ada Lindqvist',
      pages: [
        {
          heading: 'Habits',
          columns: days,
          rows: 8,
          rowLabels: ['Sleep 7h', 'Walk', 'Read', 'Water', 'No phone 9pm', 'Stretch', 'Journal', 'Cook'],
        },
      ],
    }),
  ];
}

const TS_UTILS: Record<string, string> = {
  'ts-utils/src/debounce.ts': `/** Calls \`fn\` once calls have stopped for \`ms\` milliseconds. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
`,
  'ts-utils/src/chunk.ts': `/** Splits \`items\` into arrays of at most \`size\` elements. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
`,
  'ts-utils/src/group-by.ts': `/** Groups items by a key, keeping their order. */
export function groupBy<T, K extends PropertyKey>(items: readonly T[], key: (item: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const item of items) (out[key(item)] ??= []).push(item);
  return out;
}
`,
  'ts-utils/src/retry.ts': `/** Retries \`fn\` with exponential backoff: base, 2 x base, 4 x base... */
export async function retry<T>(fn: () => Promise<T>, attempts = 4, baseMs = 200): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
      if (i < attempts - 1) await new Promise((r) => setTimeout(r, baseMs * 2 ** i));
    }
  }
  throw last;
}
`,
  'ts-utils/src/pick.ts': `/** A copy of \`obj\` with only \`keys\`. */
export function pick<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (k in obj) out[k] = obj[k];
  return out;
}
`,
  'ts-utils/src/index.ts': `export * from './chunk';\nexport * from './debounce';\nexport * from './group-by';\nexport * from './pick';\nexport * from './retry';\n`,
  'ts-utils/README.md': `# ts-utils\n\nSmall, dependency-free TypeScript helpers: chunk, debounce, groupBy, pick, retry.\nCopy the files you need into your project; each is self-contained and typed.\n`,
};

async function tsSnippets(): Promise<DemoFile[]> {
  return [
    zipFile('ts-utils.zip', TS_UTILS),
    markdownFile(
      'README.md',
      `# TypeScript Utility Snippets\n\nFive helpers I paste into every project, with types that keep the compiler happy.\n\n\`\`\`ts\nimport { chunk, groupBy } from './ts-utils/src';\n\nchunk([1, 2, 3, 4, 5], 2); // [[1, 2], [3, 4], [5]]\ngroupBy(['ant', 'bee', 'asp'], (w) => w[0]); // { a: ['ant', 'asp'], b: ['bee'] }\n\`\`\`\n`,
    ),
  ];
}

async function mockData(): Promise<DemoFile[]> {
  const rand = prng(42);
  const first = [
    'Ava',
    'Ben',
    'Chloe',
    'Daniel',
    'Emma',
    'Felix',
    'Grace',
    'Hugo',
    'Isla',
    'Jack',
    'Lena',
    'Milo',
    'Nina',
    'Omar',
    'Priya',
    'Rafael',
  ];
  const last = [
    'Adams',
    'Becker',
    'Costa',
    'Dubois',
    'Evans',
    'Fischer',
    'Garcia',
    'Hansen',
    'Ito',
    'Jensen',
    'Kowalski',
    'Larsen',
    'Moreau',
    'Novak',
  ];
  const pickOne = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const users = Array.from({ length: 40 }, (_, i) => {
    const f = pickOne(first);
    const l = pickOne(last);
    return {
      id: i + 1,
      name: `${f} ${l}`,
      email: `${f}.${l}${i + 1}@example.com`.toLowerCase(),
      created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(rand() * 300) * 86_400_000).toISOString(),
    };
  });
  const kinds = ['Notebook', 'Mug', 'Tote Bag', 'Poster', 'Sticker Pack', 'Desk Lamp', 'Water Bottle', 'Hoodie'];
  const adjectives = ['Classic', 'Recycled', 'Minimal', 'Bold', 'Travel', 'Studio'];
  const products = Array.from({ length: 24 }, (_, i) => ({
    id: i + 1,
    name: `${pickOne(adjectives)} ${pickOne(kinds)}`,
    price_cents: 500 + Math.floor(rand() * 60) * 100,
    in_stock: rand() > 0.15,
  }));
  const orders = Array.from({ length: 80 }, (_, i) => {
    const lines = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
      const p = pickOne(products);
      return { product_id: p.id, qty: 1 + Math.floor(rand() * 3), unit_price_cents: p.price_cents };
    });
    return {
      id: 1000 + i,
      user_id: pickOne(users).id,
      status: pickOne(['paid', 'paid', 'paid', 'shipped', 'refunded']),
      lines,
      total_cents: lines.reduce((s, l) => s + l.qty * l.unit_price_cents, 0),
    };
  });
  return [
    jsonFile('users.json', users),
    jsonFile('products.json', products),
    jsonFile('orders.json', orders),
    textFile(
      'openapi.yaml',
      `openapi: 3.0.3
info:
  title: Mock Shop API
  version: 1.0.0
  description: Endpoints that match users.json, products.json and orders.json (synthetic data).
paths:
  /users:
    get: { summary: List users, responses: { '200': { description: OK } } }
  /products:
    get: { summary: List products, responses: { '200': { description: OK } } }
  /orders/{id}:
    get:
      summary: One order
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { '200': { description: OK }, '404': { description: Not found } }
`,
      'application/yaml',
    ),
  ];
}

async function cheatSheets(): Promise<DemoFile[]> {
  return [
    await pdfDocument('git-cheat-sheet.pdf', {
      title: 'Git Cheat Sheet',
      subtitle: 'The commands you actually use, grouped by task',
      author: 'Leo Park',
      blocks: [
        { h: 'Start' },
        { code: ['git init', 'git clone <url>', 'git config --global user.name "Your Name"'] },
        { h: 'Everyday' },
        {
          code: [
            'git status',
            'git add -p            # stage hunk by hunk',
            'git commit -m "message"',
            'git log --oneline --graph',
          ],
        },
        { h: 'Branches' },
        { code: ['git switch -c feature/x', 'git switch main', 'git merge feature/x', 'git branch -d feature/x'] },
        { h: 'Fixing mistakes' },
        {
          code: [
            'git restore <file>          # drop local changes',
            'git restore --staged <file> # unstage',
            'git commit --amend          # fix the last commit',
            'git revert <commit>         # undo a pushed commit',
          ],
        },
        { h: 'Remote' },
        { code: ['git fetch', 'git pull --rebase', 'git push -u origin feature/x'] },
      ],
    }),
    markdownFile(
      'shell-cheat-sheet.md',
      `# Shell cheat sheet

| task | command |
|---|---|
| find files by name | \`find . -name '*.md'\` |
| search text | \`grep -rn 'TODO' src/\` |
| disk usage of folders | \`du -sh * \\| sort -h\` |
| follow a log | \`tail -f app.log\` |
| what uses a port | \`lsof -i :8080\` |
| run the previous command with sudo | \`sudo !!\` |
`,
    ),
  ];
}

async function dotfiles(): Promise<DemoFile[]> {
  return [
    zipFile('dotfiles.zip', {
      'dotfiles/.editorconfig':
        'root = true\n\n[*]\nindent_style = space\nindent_size = 2\nend_of_line = lf\ninsert_final_newline = true\ntrim_trailing_whitespace = true\n',
      'dotfiles/.gitconfig':
        '[init]\n\tdefaultBranch = main\n[pull]\n\trebase = true\n[alias]\n\tst = status -sb\n\tlg = log --oneline --graph --decorate\n',
      'dotfiles/.zshrc':
        'export EDITOR=vim\nsetopt HIST_IGNORE_DUPS SHARE_HISTORY\nHISTSIZE=10000\nSAVEHIST=10000\nalias ll="ls -lah"\nalias gs="git status -sb"\n',
      'dotfiles/.tmux.conf':
        'set -g mouse on\nset -g base-index 1\nset -g history-limit 50000\nbind r source-file ~/.tmux.conf \\; display "reloaded"\n',
      'dotfiles/install.sh':
        '#!/bin/sh\n# Links each dotfile into $HOME, keeping a .bak of what was there.\nset -e\ncd "$(dirname "$0")"\nfor f in .editorconfig .gitconfig .zshrc .tmux.conf; do\n  [ -e "$HOME/$f" ] && mv "$HOME/$f" "$HOME/$f.bak"\n  ln -s "$PWD/$f" "$HOME/$f"\ndone\n',
    }),
    markdownFile(
      'README.md',
      '# Dotfiles Starter Kit\n\nA sensible zsh, git, tmux and editorconfig setup. Unzip, read each file, then run `sh dotfiles/install.sh`.\nExisting files are kept as `.bak`.\n',
    ),
  ];
}

async function composeRecipes(): Promise<DemoFile[]> {
  return [
    textFile(
      'postgres-redis.compose.yaml',
      'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: example\n    ports: ["5432:5432"]\n  cache:\n    image: redis:7\n    ports: ["6379:6379"]\n',
      'application/yaml',
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Collections

export const COLLECTIONS: DemoCollection[] = [
  {
    key: 'wallpapers',
    seller: 'mira',
    title: 'Soft Gradient Wallpapers',
    desc: 'Three calm, high-resolution wallpapers in layered gradients: dusk waves, a lagoon of soft light and a desert sunset. PNG, made for desktop and tablet screens.',
    price: 300,
    banner: { palette: ['#7c3aed', '#db2777', '#fbbf24'], motif: 'waves', seed: 1 },
    files: wallpapers,
  },
  {
    key: 'icons',
    seller: 'mira',
    title: `Minimal Line Icons (${Object.keys(LINE_ICONS).length} SVG)`,
    desc: 'A tidy set of 24 px line icons with round caps, drawn on one grid so they sit well together. Every icon uses currentColor. Includes a contact sheet.',
    price: 450,
    banner: { palette: ['#1e293b', '#4338ca', '#a5b4fc'], motif: 'grid', seed: 2 },
    files: lineIcons,
  },
  {
    key: 'palettes',
    seller: 'mira',
    title: 'Pastel Palette Collection',
    desc: 'Six five-colour palettes for calm interfaces and print: hex and RGB values as JSON and CSV, plus an SVG swatch sheet.',
    price: 150,
    banner: { palette: ['#f9a8d4', '#a5b4fc', '#fef08a'], motif: 'bokeh', seed: 3 },
    files: palettes,
  },
  {
    key: 'risograph',
    seller: 'mira',
    title: 'Risograph Texture Pack',
    desc: 'Grainy print textures in the risograph style. Work in progress.',
    price: 250,
    banner: { palette: ['#fb7185', '#be123c', '#ffe4e6'], motif: 'dots', seed: 4 },
    files: textures,
    draft: true,
  },
  {
    key: 'capitals',
    seller: 'northwind',
    title: 'World Capitals Starter Dataset',
    desc: `${CAPITALS.length} countries with capital, ISO code, continent and coordinates, as CSV and GeoJSON. Clean, small and ready for map demos, quizzes and teaching.`,
    price: 250,
    banner: { palette: ['#0ea5e9', '#1e3a8a', '#bae6fd'], motif: 'dots', seed: 5 },
    files: capitals,
  },
  {
    key: 'coffee',
    seller: 'northwind',
    title: 'Coffee Shop Sales 2025',
    desc: 'A year of made-up sales from three coffee shops: timestamps, products, quantities and prices, with a monthly summary and a data dictionary. Great for dashboards and SQL practice.',
    price: 400,
    banner: { palette: ['#78350f', '#451a03', '#fcd34d'], motif: 'rings', seed: 6 },
    files: coffeeSales,
  },
  {
    key: 'budget',
    seller: 'northwind',
    title: 'Personal Budget Tracker',
    desc: 'A spreadsheet-ready budget log with starter categories and a short PDF guide to turning it into a monthly pivot table.',
    price: 200,
    banner: { palette: ['#065f46', '#0f172a', '#6ee7b7'], motif: 'stripes', seed: 7 },
    files: budgetTracker,
  },
  {
    key: 'weather',
    seller: 'northwind',
    title: 'Weather Station Readings 2025',
    desc: 'Hourly readings from a rooftop station. Cleaning in progress.',
    price: 350,
    banner: { palette: ['#334155', '#0f172a', '#38bdf8'], motif: 'waves', seed: 8 },
    files: async () => [],
    draft: true,
  },
  {
    key: 'contracts',
    seller: 'ada',
    title: 'Freelance Contract Templates',
    desc: 'A plain-language services agreement and a one-page mutual NDA as fill-in PDFs, plus a checklist to run before you send anything. Not legal advice.',
    price: 900,
    banner: { palette: ['#f59e0b', '#9a3412', '#fef3c7'], motif: 'mountains', seed: 9 },
    files: contracts,
  },
  {
    key: 'pitch',
    seller: 'ada',
    title: 'Startup Pitch Deck Outline',
    desc: 'The eleven slides investors expect, what belongs on each, and speaker notes that keep every slide under forty seconds.',
    price: 600,
    banner: { palette: ['#be185d', '#4c1d95', '#f9a8d4'], motif: 'blobs', seed: 10 },
    files: pitchDeck,
  },
  {
    key: 'planner',
    seller: 'ada',
    title: 'Undated Weekly Planner',
    desc: 'Printable PDFs: a clean weekly spread and a habit tracker, A4 landscape. Undated, so they work for any week of any year.',
    price: 350,
    banner: { palette: ['#0d9488', '#155e75', '#ccfbf1'], motif: 'grid', seed: 11 },
    files: planner,
  },
  {
    key: 'ts-utils',
    seller: 'leo',
    title: 'TypeScript Utility Snippets',
    desc: 'Five small, typed, dependency-free helpers (chunk, debounce, groupBy, pick, retry) in a ZIP, each in its own file.',
    price: 500,
    banner: { palette: ['#2563eb', '#1e1b4b', '#93c5fd'], motif: 'stripes', seed: 12 },
    files: tsSnippets,
  },
  {
    key: 'mock-data',
    seller: 'leo',
    title: 'REST API Mock Data Pack',
    desc: 'Synthetic users, products and orders as JSON that reference each other, with an OpenAPI sketch of the endpoints. Drop it into a mock server and build your front end today.',
    price: 250,
    banner: { palette: ['#7c3aed', '#0f172a', '#c4b5fd'], motif: 'rings', seed: 13 },
    files: mockData,
  },
  {
    key: 'cheat-sheets',
    seller: 'leo',
    title: 'Git & Shell Cheat Sheets',
    desc: 'A printable Git cheat sheet grouped by task and a one-screen shell reference for the commands you look up every week.',
    price: 180,
    banner: { palette: ['#ea580c', '#7f1d1d', '#fed7aa'], motif: 'bokeh', seed: 14 },
    files: cheatSheets,
  },
  {
    key: 'dotfiles',
    seller: 'leo',
    title: 'Dotfiles Starter Kit',
    desc: 'Sensible defaults for zsh, git, tmux and EditorConfig with a tiny install script that backs up what you have.',
    price: 320,
    banner: { palette: ['#16a34a', '#14532d', '#bbf7d0'], motif: 'mountains', seed: 15 },
    files: dotfiles,
  },
  {
    key: 'compose',
    seller: 'leo',
    title: 'Docker Compose Recipes',
    desc: 'Ready-made compose files for common local stacks. More recipes coming.',
    price: 200,
    banner: { palette: ['#0284c7', '#082f49', '#7dd3fc'], motif: 'blobs', seed: 16 },
    files: composeRecipes,
    draft: true,
  },
];

// ---------------------------------------------------------------------------------------------
// The story, in order. Sellers spend what they earned once it cleared (7 days after each sale,
// product.md "Clearance"); buyers top up first.

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

export const TIMELINE: DemoEvent[] = [
  { day: 0.4, kind: 'register', person: 'mira' },
  { day: 0.45, kind: 'create', collection: 'wallpapers' },
  { day: 0.7, kind: 'register', person: 'northwind' },
  { day: 0.75, kind: 'create', collection: 'capitals' },
  { day: 1.2, kind: 'register', person: 'ada' },
  { day: 1.25, kind: 'create', collection: 'contracts' },
  { day: 1.5, kind: 'register', person: 'leo' },
  { day: 1.55, kind: 'create', collection: 'ts-utils' },
  { day: 2.4, kind: 'create', collection: 'icons' },
  { day: 3.1, kind: 'create', collection: 'coffee' },
  { day: 3.6, kind: 'create', collection: 'pitch' },
  { day: 4.2, kind: 'create', collection: 'mock-data' },
  { day: 4.5, kind: 'register', person: 'sam' },
  { day: 4.52, kind: 'top-up', person: 'sam', points: '2500', currency: 'usdttrc20' },
  { day: 4.6, kind: 'buy', person: 'sam', collection: 'wallpapers' },
  { day: 5.1, kind: 'buy', person: 'sam', collection: 'contracts' },
  { day: 5.3, kind: 'register', person: 'noor' },
  { day: 5.31, kind: 'top-up-expired', person: 'noor', points: '1500', currency: 'usdterc20' },
  { day: 5.35, kind: 'top-up', person: 'noor', points: '1500', currency: 'usdtbsc' },
  { day: 5.4, kind: 'buy', person: 'noor', collection: 'wallpapers' },
  { day: 6.0, kind: 'create', collection: 'planner' },
  { day: 6.5, kind: 'register', person: 'kenji' },
  { day: 6.52, kind: 'top-up', person: 'kenji', points: '2000', currency: 'btc' },
  { day: 6.6, kind: 'buy', person: 'kenji', collection: 'ts-utils' },
  { day: 6.7, kind: 'buy', person: 'kenji', collection: 'capitals' },
  { day: 7.2, kind: 'create', collection: 'cheat-sheets' },
  { day: 7.8, kind: 'buy', person: 'sam', collection: 'ts-utils' },
  { day: 8.3, kind: 'register', person: 'elena' },
  { day: 8.32, kind: 'top-up', person: 'elena', points: '3000', currency: 'usdterc20' },
  { day: 8.4, kind: 'buy', person: 'elena', collection: 'wallpapers' },
  { day: 8.45, kind: 'buy', person: 'elena', collection: 'contracts' },
  { day: 9.0, kind: 'buy', person: 'noor', collection: 'contracts' },
  { day: 9.5, kind: 'create', collection: 'budget' },
  { day: 10.2, kind: 'buy', person: 'kenji', collection: 'cheat-sheets' },
  { day: 10.25, kind: 'buy', person: 'kenji', collection: 'mock-data' },
  { day: 11.0, kind: 'create', collection: 'dotfiles' },
  { day: 11.5, kind: 'buy', person: 'elena', collection: 'icons' },
  { day: 12.2, kind: 'buy', person: 'sam', collection: 'cheat-sheets' },
    { day: 13.5, kind: 'buy', person: 'kenji', collection: 'dotfiles' },
  { day: 13.9, kind: 'top-up', person: 'noor', points: '1000', currency: 'usdttrc20' },
  { day: 14.0, kind: 'buy', person: 'noor', collection: 'pitch' },
  { day: 15.0, kind: 'buy', person: 'elena', collection: 'planner' },
  { day: 16.0, kind: 'buy', person: 'noor', collection: 'planner' },
  {
    day: 21.1,
    kind: 'refund-request',
    person: 'ada',
    collection: 'icons',
    reason: 'I needed a filled style; these are line icons only.',
  },
  { day: 18.5, kind: 'buy', person: 'kenji', collection: 'coffee' },
  { day: 19.0, kind: 'buy', person: 'sam', collection: 'capitals' },
  {
    day: 19.2,
    kind: 'report',
    person: 'kenji',
    collection: 'coffee',
    reason: 'copyright',
    details: 'The product list and prices are copied from my café’s public menu.',
  },
  { day: 19.5, kind: 'buy', person: 'mira', collection: 'ts-utils' },
  { day: 19.55, kind: 'buy', person: 'mira', collection: 'cheat-sheets' },
  { day: 20.0, kind: 'buy', person: 'elena', collection: 'budget' },
  { day: 20.5, kind: 'buy', person: 'leo', collection: 'wallpapers' },
  { day: 20.6, kind: 'buy', person: 'leo', collection: 'coffee' },
  { day: 20.8, kind: 'buy', person: 'ada', collection: 'icons' },
  { day: 21.0, kind: 'create', collection: 'risograph' },
  { day: 22.0, kind: 'create', collection: 'weather' },
  { day: 23.0, kind: 'cash-out', person: 'ada', points: '2000', currency: 'usdttrc20', network: 'TRX', address: TRON },
  { day: 24.0, kind: 'create', collection: 'palettes' },
  { day: 25.0, kind: 'create', collection: 'compose' },
  { day: 26.0, kind: 'cash-out', person: 'leo', points: '1000', currency: 'usdtbsc', network: 'BSC', address: EVM },
  { day: 27.2, kind: 'top-up', person: 'sam', points: '500', currency: 'usdttrc20' },
  // Discount codes and licence keys (product §28): a code on a published collection, keys on another, a buyer's key.
  { day: 27.3, kind: 'discount-code', collection: 'palettes', code: 'PASTEL20', percent: 20, maxUses: 100 },
  { day: 27.4, kind: 'licence-keys', collection: 'dotfiles', maxActivations: 3 },
  { day: 27.5, kind: 'buy', person: 'sam', collection: 'dotfiles' },
  { day: 27.6, kind: 'buy', person: 'sam', collection: 'palettes', code: 'PASTEL20' },
];

/** Days the story spans; the seed starts this many days before now. */
export const STORY_DAYS = 28;
