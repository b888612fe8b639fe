// ./otel in a partner's ESM project with @opentelemetry/api installed (scripts/check-package.mjs).
import * as api from '@opentelemetry/api';
import * as otel from '@crp/partner-sdk/otel';
import { otelCheck } from './checks.cjs';

otelCheck('esm', api, otel);
