export function respond(
  send: (message: Record<string, unknown>) => unknown,
  key: 'id' | 'answer',
  id: unknown,
  work: () => unknown,
): void;

export function askParent<T = unknown>(message: Record<string, unknown>): Promise<T>;

export function serveParent(handlers: Record<string, (message: Record<string, unknown>) => unknown>): void;
