/** `@crp/partner-sdk/testing`: the sandbox emulator. */
export { createSandbox, type Sandbox } from './create-sandbox.js';
export type { Emulator, HandleOptions, SandboxClock } from './emulator.js';
export type { SandboxOptions, SampleReviewStore } from './options.js';
export type { IssueKeyOptions } from './keys.js';
export type { RateLimit } from './rate-limiter.js';
export { DIALECT_NAMES, type DialectName } from './dialects.js';
export type { Duration } from './clock.js';
export type { Faults, FaultSpec, FaultShape, FaultKind, RandomFaultOptions } from './faults.js';
export type { LoggedRequest, RequestFilter } from './request-log.js';
export type { Inspector } from './inspect.js';
export type { SandboxChange } from './change-log.js';
export type { ListeningSandbox } from './node-server.js';
export type { PopulateOptions, PopulateResult } from './populate.js';
export { RATES as OUTCOME_RATES } from './simulation.js';
export { DEFAULT_MSW_BASE_URL } from './msw.js';
