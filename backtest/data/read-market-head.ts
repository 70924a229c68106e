/**
 * The market record at the head of a recording (its rules and fee rates), without reading the rest of the file.
 */
import type { Market } from '../../src/model/market.js';
import { readRecordingLines } from '../../src/recording/recording-format.js';
import { parseMarket } from '../../src/venue/parse-market.js';

/** The first file's market, or undefined when it has none at its head (the replay then says what is wrong). */
export async function readMarketHead(file: string): Promise<Market | undefined> {
  for await (const line of readRecordingLines(file)) {
    return line.type === 'market' ? parseMarket(line.market, file) : undefined;
  }
  return undefined;
}
