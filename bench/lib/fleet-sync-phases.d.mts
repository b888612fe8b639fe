import type { PartnerClient } from '../../src/index.js';
import type { SyncOptions, SyncProgress } from '../../src/postgres/index.js';

export interface ProcessMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** `process.resourceUsage().maxRSS`, in bytes. */
  peakRss: number;
  /** The most heap used, sampled every 100 ms. */
  peakHeap: number;
}

export function processMemory(gc?: boolean): ProcessMemory;

/** What a change told to `onChange` carries that the bench reads (`delivered()`). */
export interface ChangeEvent {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

export interface FleetSyncPhases {
  load(options: {
    wallS: number;
    snapshot: string | undefined;
    /** The share of `needed` calls made when the snapshot is written (default 0.95). */
    snapshotAt?: number;
    needed: number;
    onProgress(progress: SyncProgress, memory: ProcessMemory): void;
  }): Promise<{ result: SyncProgress; complete: boolean }>;
  steady(options: {
    end: number;
    hours: number;
    wallS: number;
    onStart(): void;
    onProgress(memory: ProcessMemory, progress: SyncProgress): void;
    onChange(event: ChangeEvent): void;
  }): Promise<{ startupMs: number | undefined }>;
  restart(): Promise<{ ms: number | undefined; reconciliations: number }>;
}

export function fleetSyncPhases(options: {
  syncToPostgres: (client: PartnerClient, options: SyncOptions) => Promise<SyncProgress>;
  client: PartnerClient;
  clock: { now(): number };
  connectionString: string;
  budgetShare: number;
  maxLag: number;
}): FleetSyncPhases;
