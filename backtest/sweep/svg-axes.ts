/**
 * Axes for the sweep page's SVG plots: "nice" tick values (1, 2 or 5 times a power of ten apart), labels with as many
 * decimals as the step needs, and the axis lines, ticks and titles of a plot area. The plots had only their min and
 * max printed, run together at one corner.
 */

/** Up to about `count` + 1 round values covering [lo, hi] (lo itself when the range is empty). */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (hi === lo) return [lo];
  const step = niceStep((hi - lo) / count);
  const first = Math.ceil(lo / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = first; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/** A tick's label: the decimals the spacing of the ticks needs, no more (`0.0025`, `20`, `-24.5`). */
export function tickLabel(v: number, ticks: readonly number[]): string {
  const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : Math.abs(v) || 1;
  const decimals = Math.max(0, Math.min(10, -Math.floor(Math.log10(step) + 1e-9)));
  return v.toFixed(decimals);
}

export interface PlotArea {
  readonly width: number;
  readonly height: number;
  /** Room for the y labels on the left and the x labels and title below. */
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface Tick {
  /** Fraction along the axis, 0..1. */
  readonly at: number;
  readonly label: string;
}

const escText = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The x and y axes of a plot area: lines, tick marks, tick labels and a title under each. */
export function axesSvg(
  a: PlotArea,
  x: { readonly ticks: readonly Tick[]; readonly title: string },
  y: { readonly ticks: readonly Tick[]; readonly title: string },
): string {
  const x0 = a.left;
  const x1 = a.width - a.right;
  const y0 = a.height - a.bottom;
  const y1 = a.top;
  const px = (f: number): string => (x0 + f * (x1 - x0)).toFixed(1);
  const py = (f: number): string => (y0 - f * (y0 - y1)).toFixed(1);
  const parts = [`<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y0}"/>`, `<line x1="${x0}" y1="${y1}" x2="${x0}" y2="${y0}"/>`];
  for (const t of x.ticks) {
    parts.push(
      `<line x1="${px(t.at)}" y1="${y0}" x2="${px(t.at)}" y2="${y0 + 4}"/><text x="${px(t.at)}" y="${y0 + 16}" text-anchor="middle">${escText(t.label)}</text>`,
    );
  }
  for (const t of y.ticks) {
    parts.push(
      `<line class="grid" x1="${x0}" y1="${py(t.at)}" x2="${x1}" y2="${py(t.at)}"/><text x="${x0 - 6}" y="${py(t.at)}" text-anchor="end" dominant-baseline="middle">${escText(t.label)}</text>`,
    );
  }
  parts.push(`<text class="title" x="${((x0 + x1) / 2).toFixed(1)}" y="${a.height - 6}" text-anchor="middle">${escText(x.title)}</text>`);
  parts.push(
    `<text class="title" x="12" y="${((y0 + y1) / 2).toFixed(1)}" text-anchor="middle" transform="rotate(-90 12 ${((y0 + y1) / 2).toFixed(1)})">${escText(y.title)}</text>`,
  );
  return parts.join('');
}

/** A domain widened to whole ticks around [lo, hi], with those ticks (an empty range gets one step either side). */
export function niceDomain(lo: number, hi: number, count = 5): { readonly lo: number; readonly hi: number; readonly ticks: readonly number[] } {
  if (hi === lo) {
    const pad = Math.abs(lo) > 0 ? niceStep(Math.abs(lo) / 10) : 1;
    return { lo: lo - pad, hi: hi + pad, ticks: [lo - pad, lo, lo + pad].map((v) => Number(v.toPrecision(12))) };
  }
  const step = niceStep((hi - lo) / count);
  const from = Math.floor(lo / step + 1e-9) * step;
  const to = Math.ceil(hi / step - 1e-9) * step;
  return { lo: from, hi: to, ticks: niceTicks(from, to, Math.round((to - from) / step)) };
}
