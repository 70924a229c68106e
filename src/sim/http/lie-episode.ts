import type { LieKind } from './lie-config.js';

/** A stretch of time during which the lying venue (venue-lies.ts) lies about every item of its kind in its scope. */
export interface LieEpisode {
  readonly kind: LieKind;
  /** Undefined = every market. */
  readonly market?: string;
  /** The sim account id it lies to (order and deal kinds); undefined = every account. */
  readonly account?: string;
  readonly startMs: number;
  /** Planned end; moved earlier when the episode is ended or the lies turned off. */
  endMs: number;
  readonly variants?: readonly string[];
  /** An absurd book's variant, drawn once at the start so the episode shows one consistent lie. */
  readonly variant?: string;
  readonly crossBy?: number;
  /** `config`: drawn from the lies config; `control`: started in-process. */
  readonly source: 'config' | 'control';
}

export interface EpisodeOptions {
  readonly forMs: number;
  readonly market?: string;
  readonly account?: string;
  /** Restricts the kind's variants (e.g. `['negative-amount']`); one given = no draw, fully deterministic. */
  readonly variants?: readonly string[];
  readonly crossBy?: number;
}

/** How long a decision lasts: until a time (Unix ms) or until its episode ends. */
export type Until = number | LieEpisode;
export const until = (u: Until): number => (typeof u === 'number' ? u : u.endMs);
