import { fileURLToPath } from 'node:url';
import { wireMarketFromOptions } from '../../backtest/importers/binance-depth-importer.js';
import type { WireMarket } from '../../src/venue/wire.js';

/** The Binance capture, read in place from ../shared/data (never copied into the repo). */
const dataDir = fileURLToPath(new URL('../../../shared/data/hftbacktest-binance-spot-btcusdt/', import.meta.url));
export const BINANCE_FILES = [`${dataDir}btcusdt_20240808.gz`, `${dataDir}btcusdt_20240809.gz`];

/** Binance BTCUSDT's rules in the venue's form: tick 0.01, lot 0.00001, fees 0.1 %. */
export function btcUsdtWireMarket(): WireMarket {
  return wireMarketFromOptions({
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    stockPrec: 5,
    moneyPrec: 2,
    minAmount: '0.00001',
    minTotal: '5',
    makerFeePercent: '0.1',
    takerFeePercent: '0.1',
  });
}
