import type { ReactNode } from 'react';
import { PageContainer } from '@/components/ui/page';

/** The frame of the legal pages: a readable column with a title, date and numbered sections. */
export function LegalPage({ title, updated, intro, sections }: { title: string; updated: string; intro: ReactNode; sections: { heading: string; body: ReactNode }[] }) {
  return (
    <PageContainer className="max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">Last updated {updated}</p>
      <div className="mt-6 text-slate-700 dark:text-slate-300">{intro}</div>
      <div className="mt-10 space-y-8">
        {sections.map((s, i) => (
          <section key={s.heading} aria-labelledby={`legal-${i}`}>
            <h2 id={`legal-${i}`} className="text-lg font-semibold text-slate-900 dark:text-white">
              {i + 1}. {s.heading}
            </h2>
            <div className="mt-3 space-y-3 leading-relaxed text-slate-700 [&_li]:ml-5 [&_li]:list-disc [&_ul]:space-y-1.5 dark:text-slate-300">{s.body}</div>
          </section>
        ))}
      </div>
    </PageContainer>
  );
}
