import http from 'node:http';

/**
 * jsdom has no EventSource (test setups install this one as the global `EventSource`). This one connects with node:http to the fake backend and parses the
 * real `text/event-stream` frames it sends (event, data, comments), dispatching each as a
 * MessageEvent, as a browser does. When the answer ends or fails it dispatches a plain `error`
 * event (a browser would then reconnect; the SDK closes it on error, so this one does not).
 */
export class NodeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;

  readonly url: string;
  readonly withCredentials: boolean;
  readyState = NodeEventSource.CONNECTING;
  private readonly request: http.ClientRequest;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = String(url);
    this.withCredentials = init?.withCredentials ?? false;
    this.request = http.get(this.url, { headers: { Accept: 'text/event-stream' } }, (answer) => {
      if (answer.statusCode !== 200) {
        answer.resume();
        this.fail();
        return;
      }
      this.readyState = NodeEventSource.OPEN;
      this.dispatchEvent(new Event('open'));
      let buffer = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => {
        buffer += chunk.replace(/\r\n?/g, '\n');
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          this.dispatchFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      });
      answer.on('end', () => this.fail());
    });
    this.request.on('error', () => this.fail());
  }

  close(): void {
    this.readyState = NodeEventSource.CLOSED;
    this.request.destroy();
  }

  private fail(): void {
    if (this.readyState === NodeEventSource.CLOSED) return;
    this.readyState = NodeEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }

  private dispatchFrame(frame: string): void {
    if (this.readyState === NodeEventSource.CLOSED) return;
    let type = 'message';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    this.dispatchEvent(new MessageEvent(type, { data: data.join('\n') }));
  }
}

/** Installs NodeEventSource as the global `EventSource` (call it from a jsdom setup file). */
export function installNodeEventSource(): void {
  Object.defineProperty(globalThis, 'EventSource', {
    configurable: true,
    writable: true,
    value: NodeEventSource,
  });
}
