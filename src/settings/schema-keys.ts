import type { z } from 'zod';

/**
 * The keys a zod schema allows in the object at `path` (what an unknown key there could have meant), read from
 * the schema's definition: defaults, optionals and pipes are looked through, arrays and records step into their
 * elements, unions give the keys of every object option (of the options whose discriminator matches `input`, for a
 * discriminated union). Empty when the path leads to no object schema.
 */
export function objectKeysAt(schema: z.ZodType, path: readonly PropertyKey[], input?: unknown): string[] {
  let nodes: Def[] = [defOf(schema)];
  for (const key of path) nodes = nodes.flatMap((n) => expand(n)).flatMap((n) => step(n, key));
  const objects = nodes.flatMap((n) => expand(n)).filter((n) => n.type === 'object');
  const chosen = objects.filter((o) => matchesDiscriminator(o, input));
  return [...new Set((chosen.length > 0 ? chosen : objects).flatMap((o) => Object.keys(o.shape ?? {})))];
}

/** The parts of a zod 4 definition this walk reads (zod's `_zod.def`). */
interface Def {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly getter?: () => z.ZodType;
  readonly values?: readonly unknown[];
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'nonoptional', 'readonly', 'catch', 'success']);

/** Looks through wrappers to the schemas that decide the shape (both sides of an intersection, every union option). */
function expand(d: Def, depth = 0): Def[] {
  if (depth > 32) return [];
  if (WRAPPERS.has(d.type) && d.innerType) return expand(defOf(d.innerType), depth + 1);
  if (d.type === 'pipe' && d.in) return expand(defOf(d.in), depth + 1);
  if (d.type === 'lazy' && d.getter) return expand(defOf(d.getter()), depth + 1);
  if (d.type === 'intersection' && d.left && d.right) return [...expand(defOf(d.left), depth + 1), ...expand(defOf(d.right), depth + 1)];
  if (d.type === 'union' && d.options)
    return d.options.flatMap((o) => expand(defOf(o), depth + 1)).map((o) => (d.discriminator === undefined ? o : { ...o, discriminator: d.discriminator }));
  return [d];
}

function step(d: Def, key: PropertyKey): Def[] {
  switch (d.type) {
    case 'object': {
      const s = d.shape?.[String(key)] ?? d.catchall;
      return s ? [defOf(s)] : [];
    }
    case 'array':
      return d.element ? [defOf(d.element)] : [];
    case 'record':
      return d.valueType ? [defOf(d.valueType)] : [];
    case 'tuple': {
      const s = typeof key === 'number' ? d.items?.[key] : undefined;
      return s ? [defOf(s)] : [];
    }
    default:
      return [];
  }
}

function matchesDiscriminator(o: Def, input: unknown): boolean {
  if (o.discriminator === undefined || input === null || typeof input !== 'object') return true;
  const literal = o.shape?.[o.discriminator];
  if (literal === undefined) return true;
  const values = expand(defOf(literal)).flatMap((l) => l.values ?? []);
  return values.includes((input as Record<string, unknown>)[o.discriminator]);
}
