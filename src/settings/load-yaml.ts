import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { z } from 'zod';
import { Decimal } from '../model/decimal.js';
import { ConfigError } from '../model/errors.js';
import { formatConfigPath, interpolateEnv, type InterpolationProblem } from './env-interpolate.js';
import { formatZodIssues } from './format-issues.js';
import { yamlOffset } from './yaml-locate.js';

/**
 * Reads a YAML file, interpolates ${ENV} / ${ENV:-default} in string values (a missing variable without a
 * default is an error naming it), validates with the zod schema and returns the typed value. Any problem
 * throws ConfigError whose message has one line per issue: `file:line:col: path: expected X, got Y`
 * (line and column of the offending value, of an unknown key itself, or of the mapping a missing key belongs
 * in). YAML syntax errors give `file:line:col: YAML syntax error: ...`.
 */
export function loadYamlConfig<S extends z.ZodType>(file: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? cause);
    throw new ConfigError(`${file}: cannot read config file (${why})`, { cause });
  }
  return parseYamlConfig(text, schema, file, env);
}

/** As `loadYamlConfig`, from text; `source` names it in messages (a file name, `<stdin>`, `<inline>`). */
export function parseYamlConfig<S extends z.ZodType>(text: string, schema: S, source: string, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors
        .map((e) => {
          const at = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
          return `${source}:${at.line}:${at.col}: YAML syntax error: ${e.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}`;
        })
        .join('\n'),
    );
  }
  keepExactNumbers(doc, text);
  const where = (path: readonly PropertyKey[], atKey = false): string => {
    const offset = yamlOffset(doc, path, atKey);
    if (offset === undefined) return source;
    const { line, col } = lineCounter.linePos(offset);
    return `${source}:${line}:${col}`;
  };

  // Interpolation problems and schema problems are reported together, so one run shows every fix needed.
  const problems: InterpolationProblem[] = [];
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 1000 });
  } catch (cause) {
    // the yaml package refuses aliases that expand past maxAliasCount (a "billion laughs" document) with a bare error
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigError(`${source}: YAML: ${/alias/i.test(why) ? 'too many aliases (an alias that expands into a huge document is refused)' : why}`, {
      cause,
    });
  }
  const data = interpolateEnv(js, env, problems);
  const lines = problems.map((p) => `${where(p.path)}: ${formatConfigPath(p.path)}: ${p.message}`);
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) {
    for (const i of formatZodIssues(result.error.issues, schema)) {
      const text = i.path.length === 0 && (data === null || data === undefined) ? `the file is empty (${i.text})` : i.text;
      lines.push(`${where(i.path, i.atKey)}: ${formatConfigPath(i.path)}: ${text}`);
    }
  }
  if (lines.length > 0) throw new ConfigError(lines.join('\n'), result.success ? {} : { cause: result.error });
  return result.data as z.output<S>;
}

/**
 * A plain YAML number that a JS number cannot hold exactly (`0.123456789012345678`, 2^60) is handed over as
 * its source text, so money read by `zDecimal` is exact; every other number stays a number.
 */
function keepExactNumbers(doc: Document, text: string): void {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'number' || node.range === undefined || node.range === null) return;
      const src = text.slice(node.range[0], node.range[1]).trim();
      if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(src)) return;
      if (!new Decimal(src).eq(new Decimal(node.value))) node.value = src.replace(/^\+/, '');
    },
  });
}
