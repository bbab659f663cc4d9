import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback server speaking the OpenAI Chat Completions protocol as the real one does:
 * `POST /v1/chat/completions` with `stream: true` answers `text/event-stream` chunks
 * `data: {"choices":[{"delta":{"content":"…"}}]}` then `data: [DONE]`; without `stream` it
 * answers one `chat.completion` object with the whole message; failures answer the
 * status with `{ "error": { "message", "type", "code" } }`. Each request takes the next scripted
 * behaviour; when the script is empty it streams `defaultTokens`.
 */
export type Behaviour =
  | { type: 'stream'; tokens: string[]; delayMs?: number }
  /** A whole answer: a `chat.completion` object (for requests without `stream: true`). */
  | { type: 'message'; content: string }
  | { type: 'error'; status: number; message: string; code?: string; errorType?: string }
  | { type: 'hang' }
  | { type: 'hangAfter'; tokens: string[] }
  | { type: 'empty' }
  | { type: 'malformed' };

export interface FakeOpenAi {
  baseUrl: string;
  script: Behaviour[];
  requests: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
  defaultTokens: string[];
  /** Called when a token is written (the benchmark stamps send times here). */
  onToken?: (token: string) => void;
  close(): Promise<void>;
}

const chunk = (content: string, id = 'chatcmpl-test') =>
  `data: ${JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const sockets = new Set<Socket>();
  const fake: FakeOpenAi = {
    baseUrl: '',
    script: [],
    requests: [],
    defaultTokens: ['这是', '模型', '写的', '推文。'],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (data: Buffer) => (raw += data.toString()));
    req.on('end', () => {
      void (async () => {
        fake.requests.push({
          headers: req.headers,
          body: JSON.parse(raw || '{}') as Record<string, unknown>,
        });
        if (req.url !== '/v1/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: { message: 'not found', type: 'invalid_request_error', code: null },
            }),
          );
          return;
        }
        let behaviour: Behaviour = fake.script.shift() ?? {
          type: 'stream',
          tokens: fake.defaultTokens,
        };
        const streaming = fake.requests.at(-1)?.body.stream === true;
        if (behaviour.type === 'stream' && !streaming) {
          behaviour = { type: 'message', content: behaviour.tokens.join('') };
        }
        switch (behaviour.type) {
          case 'message':
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                id: 'chatcmpl-test',
                object: 'chat.completion',
                created: Math.floor(Date.now() / 1000),
                model: 'fake-model',
                choices: [
                  {
                    index: 0,
                    message: { role: 'assistant', content: behaviour.content },
                    finish_reason: 'stop',
                  },
                ],
              }),
            );
            return;
          case 'error':
            res.writeHead(behaviour.status, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                error: {
                  message: behaviour.message,
                  type: behaviour.errorType ?? 'api_error',
                  code: behaviour.code ?? null,
                },
              }),
            );
            return;
          case 'hang':
            return; // never answers
          case 'empty':
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.end('data: [DONE]\n\n');
            return;
          case 'malformed':
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.end('data: {"choices": [ this is not json\n\n');
            return;
          case 'hangAfter':
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            for (const token of behaviour.tokens) res.write(chunk(token));
            return; // then silence
          case 'stream': {
            res.writeHead(200, {
              'content-type': 'text/event-stream',
              'cache-control': 'no-cache',
            });
            for (const token of behaviour.tokens) {
              if (behaviour.delayMs) await new Promise((r) => setTimeout(r, behaviour.delayMs));
              fake.onToken?.(token);
              res.write(chunk(token));
            }
            res.write(
              `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
            );
            res.end('data: [DONE]\n\n');
            return;
          }
        }
      })();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
