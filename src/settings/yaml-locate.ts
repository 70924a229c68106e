import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';

/** A place in a YAML text, 1-based as editors count. */
export interface YamlPosition {
  readonly line: number;
  readonly col: number;
}

/**
 * Offset of the node at `path` in a parsed document, or of its nearest existing ancestor (a missing key points at
 * the mapping it belongs in). `atKey`: the key of the last step rather than its value, for what is wrong with the
 * key itself (an unknown key is reported where it is written, not where its value starts: its value may be a
 * whole mapping on the lines below).
 */
export function yamlOffset(doc: Document, path: readonly PropertyKey[], atKey = false): number | undefined {
  let node: unknown = doc.contents;
  let best = rangeStart(node);
  for (const [i, key] of path.entries()) {
    let next: unknown;
    let keyStart: number | undefined;
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key || String(isScalar(p.key) ? p.key.value : p.key) === String(key));
      if (pair === undefined) return best;
      keyStart = rangeStart(pair.key);
      if (atKey && i === path.length - 1 && keyStart !== undefined) return keyStart;
      next = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      next = node.items[key];
      if (next === undefined) return best;
    } else return best;
    best = rangeStart(next) ?? keyStart ?? best;
    node = next;
  }
  return best;
}

/**
 * Where `path` is in the YAML file `file` (see yamlOffset), or undefined when the file cannot be read or parsed:
 * for messages about a config that loaded, whose document is gone (a strategy's params are checked by the
 * strategy's own schema, after the file's). The file is read again only when there is something to report.
 */
export function yamlPositionInFile(file: string, path: readonly PropertyKey[], atKey = false): YamlPosition | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, merge: true });
  if (doc.errors.length > 0) return undefined;
  const offset = yamlOffset(doc, path, atKey);
  return offset === undefined ? undefined : lineCounter.linePos(offset);
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: readonly number[] | null } | null | undefined)?.range;
  return range?.[0] ?? undefined;
}
