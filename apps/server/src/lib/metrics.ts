/**
 * The shape of the app's metrics registry (`app.metrics`, plugins/metrics.ts), here so that code
 * below the plugins (a payment rail's gauges) can add to it without importing the plugin.
 */
import type { Registry } from 'prom-client';

/** One sample of a scrape-time gauge. */
export interface GaugeSample {
  labels?: Record<string, string | number>;
  value: number;
}

/** A gauge whose samples are computed when `/metrics` is scraped. */
export interface GaugeDefinition {
  /** Metric name; must start with `coffer_`. */
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** Returns this scrape's samples; a throw leaves the gauge empty for this scrape (logged). */
  collect(): Promise<GaugeSample[]> | GaugeSample[];
}

/** The app's metrics registry (`app.metrics`). */
export interface MetricsRegistry {
  /** The prom-client registry behind `/metrics` (for counters and histograms updated as things happen). */
  registry: Registry;
  /**
   * Adds a gauge computed at scrape time.
   * @throws Error when the name does not start with `coffer_` or is already registered
   */
  addGauge(definition: GaugeDefinition): void;
}
