import { ConfigError, Decimal, type Market, type OwnOrder } from '../../src/strategy/index.js';

/** One price of the grid. `index` 0 is the lowest price. */
export interface GridLevel {
  readonly index: number;
  readonly price: Decimal;
}

const TAG_PREFIX = 'grid-';

/** The tag that names a level on the strategy's orders (journalled, so it survives restarts). */
export function gridTag(index: number): string {
  return `${TAG_PREFIX}${index}`;
}

/** `grid-7` → 7; anything else → undefined. */
export function levelOfTag(tag: string | undefined): number | undefined {
  if (tag === undefined || !tag.startsWith(TAG_PREFIX)) return undefined;
  const text = tag.slice(TAG_PREFIX.length);
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * `count` evenly spaced prices from `lower` to `upper` inclusive, each put on the market's price step
 * (nearest), so the engine's quantizer leaves them alone and an order's price identifies its level.
 * Throws a ConfigError when two levels would land on the same step: such a grid cannot hold one order per level.
 */
export function gridLevels(market: Market, lower: Decimal, upper: Decimal, count: number): GridLevel[] {
  if (!(count >= 2) || !Number.isInteger(count)) throw new ConfigError(`grid: levels must be an integer >= 2, got ${count}`);
  if (!upper.gt(lower)) throw new ConfigError(`grid: upper (${upper.toFixed()}) must be above lower (${lower.toFixed()})`);
  const spacing = upper.minus(lower).div(count - 1);
  const levels: GridLevel[] = [];
  for (let i = 0; i < count; i++) {
    const price = lower.plus(spacing.times(i)).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_HALF_UP);
    const previous = levels[i - 1];
    if (previous && !price.gt(previous.price)) {
      throw new ConfigError(`grid: levels ${i - 1} and ${i} fall on the same price step (${price.toFixed()}); use fewer levels or a wider range`);
    }
    levels.push({ index: i, price });
  }
  return levels;
}

/**
 * Which level an own order belongs to: by its `grid-<n>` tag, or (an order adopted without its tag, e.g. the
 * journal was lost) by an exact price match. undefined = not one of this grid's levels.
 */
export function levelOfOrder(levels: readonly GridLevel[], order: Pick<OwnOrder, 'tag' | 'price'>): number | undefined {
  const byTag = levelOfTag(order.tag);
  if (byTag !== undefined) return byTag < levels.length ? byTag : undefined;
  if (order.tag !== undefined && order.tag !== '') return undefined;
  return levels.find((l) => l.price.eq(order.price))?.index;
}

/** The level whose price is nearest to `price` (lower index on a tie). */
export function nearestLevel(levels: readonly GridLevel[], price: Decimal): number {
  let best = 0;
  let bestDistance: Decimal | undefined;
  for (const level of levels) {
    const distance = level.price.minus(price).abs();
    if (bestDistance === undefined || distance.lt(bestDistance)) {
      best = level.index;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The grid's empty level (the "gap") when the strategy starts with orders already resting (a restart):
 * the empty level between the highest buy and the lowest sell that is nearest to the market. With no own
 * orders, or no empty level in between, it is the level nearest to the market (whatever rests there is kept).
 */
export function inferGap(levels: readonly GridLevel[], live: readonly OwnOrder[], mid: Decimal): number {
  const occupied = new Map<number, OwnOrder>();
  for (const order of live) {
    const level = levelOfOrder(levels, order);
    if (level !== undefined) occupied.set(level, order);
  }
  if (occupied.size === 0) return nearestLevel(levels, mid);
  let maxBuy = -1;
  let minSell = levels.length;
  for (const [level, order] of occupied) {
    if (order.side === 'buy') maxBuy = Math.max(maxBuy, level);
    else minSell = Math.min(minSell, level);
  }
  const empty = levels.filter((l) => l.index > maxBuy && l.index < minSell && !occupied.has(l.index));
  return empty.length > 0 ? nearestLevel(empty, mid) : nearestLevel(levels, mid);
}
