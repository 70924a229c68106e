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

/**
 * The rules the generated recordings use (backtest/data/generate-recording.ts callers: tests and benches): BTC_USDT,
 * 6 amount decimals, 2 price decimals, minimum 0.0001 and 1 USDT, fees 0.1 % unless given.
 */
export function generatedBtcUsdtMarket(fees: { readonly makerFeePercent?: string; readonly takerFeePercent?: string } = {}): WireMarket {
  return wireMarketFromOptions({
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    stockPrec: 6,
    moneyPrec: 2,
    minAmount: '0.0001',
    minTotal: '1',
    makerFeePercent: fees.makerFeePercent ?? '0.1',
    takerFeePercent: fees.takerFeePercent ?? '0.1',
  });
}
