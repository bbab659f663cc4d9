import http from 'node:http';

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
  /** performance.now() when the event was parsed. */
  at: number;
}

/**
 * Reads an event stream over a real socket until it ends (or `until` says so), as a browser's
 * EventSource would. Comments (heartbeats) are ignored.
 */
export function readStream(
  url: string,
  cookie: string,
  options: { onEvent?: (event: SseEvent) => void; timeoutMs?: number } = {},
): Promise<{ status: number; contentType: string; events: SseEvent[] }> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const request = http.get(
      url,
      { headers: { cookie: `kol_session=${cookie}`, accept: 'text/event-stream' } },
      (response) => {
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trim());
            }
            if (data.length === 0) continue;
            const parsed: SseEvent = {
              event,
              data: JSON.parse(data.join('\n')) as Record<string, unknown>,
              at: performance.now(),
            };
            events.push(parsed);
            options.onEvent?.(parsed);
          }
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            events,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.setTimeout(options.timeoutMs ?? 20_000, () =>
      request.destroy(new Error('stream timed out')),
    );
  });
}
