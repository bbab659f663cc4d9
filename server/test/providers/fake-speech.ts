import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback server speaking the OpenAI speech protocol as the real one does:
 * `POST /v1/audio/speech` with `{ model, input, voice, speed, response_format }` answers the
 * audio bytes (here a WAV written like OpenAI's streamed one: 24 kHz mono 16-bit, RIFF and data
 * sizes 0xFFFFFFFF); failures answer the status with `{ "error": { "message", "type", "code" } }`.
 * Each request takes the next scripted behaviour; an empty script speaks.
 */
export type SpeechBehaviour =
  | { type: 'speak' }
  | { type: 'error'; status: number; message: string }
  | { type: 'notWav' }
  | { type: 'hang' };

export interface FakeSpeech {
  baseUrl: string;
  script: SpeechBehaviour[];
  /** Every request from now on fails like this (a provider that is down). */
  always: SpeechBehaviour | null;
  requests: Array<{ headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export const FAKE_SAMPLE_RATE = 24_000;
/** Spoken length per character of input at speed 1, so timings can be checked exactly. */
export const FAKE_MS_PER_CHAR = 120;

/** A tone as long as the text deserves: what a speech model answers, minus the words. */
export function fakeSpeechWav(input: string, speed: number): Buffer {
  const chars = [...input.replace(/\s+/g, '')].length;
  const ms = Math.round((chars * FAKE_MS_PER_CHAR) / speed);
  const samples = Math.round((FAKE_SAMPLE_RATE * ms) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(
      Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / FAKE_SAMPLE_RATE)),
      i * 2,
    );
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(0xffffffff, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(FAKE_SAMPLE_RATE, 24);
  header.writeUInt32LE(FAKE_SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(0xffffffff, 40);
  return Buffer.concat([header, data]);
}

export async function startFakeSpeech(): Promise<FakeSpeech> {
  const sockets = new Set<Socket>();
  const fake: FakeSpeech = {
    baseUrl: '',
    script: [],
    always: null,
    requests: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const fail = (res: http.ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }));
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (data: Buffer) => (raw += data.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      fake.requests.push({ headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== '/v1/audio/speech') {
        fail(res, 404, 'not found');
        return;
      }
      const behaviour = fake.always ?? fake.script.shift() ?? { type: 'speak' };
      switch (behaviour.type) {
        case 'error':
          fail(res, behaviour.status, behaviour.message);
          return;
        case 'notWav':
          res.writeHead(200, { 'content-type': 'audio/mpeg' });
          res.end(Buffer.from('ID3 this is not a wav file'));
          return;
        case 'hang':
          return;
        case 'speak': {
          if (typeof body.input !== 'string' || !body.input || typeof body.voice !== 'string') {
            fail(res, 400, "'input' and 'voice' are required");
            return;
          }
          if (body.response_format !== 'wav') {
            fail(res, 400, 'this fake only answers wav');
            return;
          }
          const speed = typeof body.speed === 'number' ? body.speed : 1;
          res.writeHead(200, { 'content-type': 'audio/wav' });
          res.end(fakeSpeechWav(body.input, speed));
        }
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
