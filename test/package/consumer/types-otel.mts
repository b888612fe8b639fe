// Type-checked by scripts/check-package.mjs once @opentelemetry/api is installed (nodenext), as ESM
// and, copied as types-otel.cts, as CommonJS.
import type { TracerProvider } from '@opentelemetry/api';
import type { Telemetry } from '@crp/partner-sdk';
import { openTelemetry, type OpenTelemetryOptions } from '@crp/partner-sdk/otel';

export function telemetryFor(tracerProvider: TracerProvider): Telemetry {
  const options: OpenTelemetryOptions = { tracerProvider };
  return openTelemetry(options);
}
// @ts-expect-error: the options are providers, not a service name
openTelemetry({ serviceName: 'x' });
