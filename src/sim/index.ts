// The simulated exchange: in-process core (S1) and its v4 HTTP front (start with `startSim`).
export { startSim, type StartSimOptions, type SimHandle, type SimAccountInfo } from './start-sim.js';
export { loadSimConfigFile } from './load-sim-config-file.js';
export { createSimServer, type SimServer, type SimServerOptions, type AccessEntry } from './http/server.js';
export { SimStats, type Arrival } from './http/sim-stats.js';
export { FaultInjector, type FaultConfig, type EndpointFaults, type FaultPlan } from './http/faults.js';
export { FaultConfigSchema } from './http/fault-config-schema.js';
export { SimExchange } from './exchange.js';
export {
  SimConfigSchema, DEFAULT_SIM_CONFIG, DEFAULT_SIM_CONFIG_INPUT, parseSimConfig, loadSimConfigText,
  type SimConfig, type SimConfigInput, type SimMarketConfig, type SimAccountConfig, type SimMarketFlowConfig,
} from './sim-config.js';
export type { MarketFlow } from './market-flow.js';
export { SyntheticFlow, createSyntheticFlow } from './synthetic-flow.js';
export type * from './sim-types.js';
