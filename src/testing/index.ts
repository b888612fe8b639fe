/** `@crp/partner-sdk/testing`: the sandbox emulator. */
export { createSandbox, type Sandbox } from './create-sandbox.js';
export type { Emulator, HandleOptions, SandboxClock } from './emulator.js';
export type { SandboxOptions, SampleReviewStore } from './options.js';
export type { IssueKeyOptions } from './access/keys.js';
export type { RateLimit } from './access/rate-limiter.js';
export { DIALECT_NAMES, type DialectName } from './access/dialects.js';
export type { Duration } from './simulation/clock.js';
export type { Faults, FaultSpec, FaultShape, FaultKind, RandomFaultOptions } from './faults/faults.js';
export type { LoggedRequest, RequestFilter } from './http/request-log.js';
export type { Inspector } from './inspect.js';
export type { SandboxChange } from './model/change-log.js';
export {
  SandboxControl,
  SandboxControlError,
  type SandboxControlOptions,
  type ChangesPage,
  type RequestsPage,
  type RemoteFaultSpec,
  type RemoteRandomFaultOptions,
} from './client/sandbox-control.js';
export type { ListeningSandbox } from './transports/node-server.js';
export type { PopulateOptions, PopulateResult } from './domain/populate.js';
export { RATES as OUTCOME_RATES } from './simulation/simulation.js';
export { DEFAULT_MSW_BASE_URL } from './transports/msw.js';
