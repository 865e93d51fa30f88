/**
 * The demo story's reviews (product §29): buyers rate what they bought, and one seller replies. Each
 * review comes after its buyer's purchase in TIMELINE (catalog.ts); days count from the story's start.
 */
export interface DemoReview {
  day: number;
  person: string;
  collection: string;
  rating: number;
  text: string;
  /** The seller's reply, on `day` + 0.3. */
  reply?: string;
}

export const DEMO_REVIEWS: DemoReview[] = [
  {
    day: 4.9,
    person: 'sam',
    collection: 'wallpapers',
    rating: 5,
    text: 'Beautiful, calm gradients. The 4K ones look great on my monitor.',
  },
  {
    day: 5.7,
    person: 'sam',
    collection: 'contracts',
    rating: 5,
    text: 'Saved me a lawyer visit for small gigs. Clear and easy to adapt.',
  },
  {
    day: 6.2,
    person: 'noor',
    collection: 'wallpapers',
    rating: 4,
    text: 'Lovely colours. I would love a few darker variants for night mode.',
    reply: 'Thank you, Noor! Darker variants are on the way in the next update.',
  },
  {
    day: 7.1,
    person: 'kenji',
    collection: 'capitals',
    rating: 5,
    text: 'Clean CSV, consistent country codes. Exactly what I needed for a demo.',
  },
  {
    day: 8.0,
    person: 'kenji',
    collection: 'ts-utils',
    rating: 4,
    text: 'Handy snippets, well typed. A few more examples would help.',
  },
  { day: 9.2, person: 'elena', collection: 'wallpapers', rating: 5, text: '' },
  {
    day: 10.1,
    person: 'noor',
    collection: 'contracts',
    rating: 3,
    text: 'Good starting point, but I had to rewrite the payment terms.',
  },
  { day: 12.4, person: 'elena', collection: 'icons', rating: 4, text: 'Crisp line icons, consistent stroke width.' },
  { day: 13.0, person: 'sam', collection: 'cheat-sheets', rating: 4, text: 'Printed the Git one and pinned it above my desk.' },
  { day: 21.4, person: 'leo', collection: 'wallpapers', rating: 4, text: 'Nice set for desktop backgrounds.' },
  {
    day: 19.2,
    person: 'kenji',
    collection: 'coffee',
    rating: 4,
    text: 'Realistic data for SQL practice; the summary sheet is a nice touch.',
  },
];
