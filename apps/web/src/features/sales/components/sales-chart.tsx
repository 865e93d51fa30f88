/**
 * The sales dashboard's chart (product §29): points earned per UTC day as a line and sales per day as
 * bars, on uPlot. This module is the only importer of uPlot and is loaded lazily by the dashboard, so
 * neither the storefront's entry nor other pages carry it (docs/decisions/0016-web-entry-budget.md).
 * The chart is decorative for screen readers: the dashboard renders the same numbers as a table.
 */
import type { SalesDay } from '@coffer/contract';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatAmount } from '@/lib/points';

const DAY_S = 86_400;
const AXIS = '#94a3b8';
const GRID = 'rgba(148, 163, 184, 0.18)';
const EARNED = '#6366f1';
const SALES = 'rgba(16, 185, 129, 0.55)';

/** uPlot's columns: x (UTC midnight, seconds), earned (points), sales (count). */
function columns(series: SalesDay[]): uPlot.AlignedData {
  return [
    series.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
    series.map((d) => Number(d.earned)),
    series.map((d) => d.sales),
  ];
}

export function SalesChart({ series, height = 260 }: { series: SalesDay[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const bars = uPlot.paths.bars?.({ size: [0.6, 24] });
    const opts: uPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      cursor: { drag: { x: false, y: false } },
      legend: { live: false },
      scales: {
        x: { time: true, range: (_u, min, max) => [min - DAY_S / 2, max + DAY_S / 2] },
        n: { range: (_u, _min, max) => [0, Math.ceil(Math.max(1, max) * 1.2)] },
      },
      series: [
        { label: 'Day (UTC)', value: '{YYYY}-{MM}-{DD}' },
        {
          label: 'Earned (points)',
          scale: 'pts',
          stroke: EARNED,
          width: 2,
          fill: 'rgba(99, 102, 241, 0.08)',
          points: { show: series.length <= 7 || (series.length <= 31 && el.clientWidth >= 640) },
          value: (_u, v) => formatAmount(v, { fallback: '-' }),
        },
        { label: 'Sales', scale: 'n', stroke: SALES, fill: SALES, width: 0, paths: bars, points: { show: false } },
      ],
      axes: [
        { stroke: AXIS, grid: { stroke: GRID }, ticks: { stroke: GRID } },
        { scale: 'pts', stroke: AXIS, grid: { stroke: GRID }, ticks: { stroke: GRID }, size: 56 },
        {
          scale: 'n',
          side: 1,
          stroke: AXIS,
          grid: { show: false },
          ticks: { stroke: GRID },
          size: 36,
          incrs: [1, 2, 5, 10, 20, 50, 100],
        },
      ],
    };
    plot.current = new uPlot(opts, columns(series), el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(280, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [series, height]);

  return (
    <div ref={box} aria-hidden="true" className="w-full text-xs text-slate-600 dark:text-slate-300" data-testid="sales-chart" />
  );
}

export default SalesChart;
