import { readFile, writeFile } from 'node:fs/promises';

export interface Pcm {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  data: Buffer;
}

/** Reads a PCM WAV by walking its chunks (espeak-ng writes a plain RIFF/WAVE with `fmt ` and `data`). */
export function parseWav(buf: Buffer): Pcm {
  if (
    buf.length < 12 ||
    buf.toString('ascii', 0, 4) !== 'RIFF' ||
    buf.toString('ascii', 8, 12) !== 'WAVE'
  )
    throw new Error('不是有效的 WAV 文件');
  let offset = 12;
  let fmt: Omit<Pcm, 'data'> | null = null;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const declared = buf.readUInt32LE(offset + 4);
    const start = offset + 8;
    // espeak-ng streams its output and may leave 0x7fffffff-style sizes: clamp to the file.
    const size = Math.min(declared, buf.length - start);
    if (id === 'fmt ') {
      fmt = {
        channels: buf.readUInt16LE(start + 2),
        sampleRate: buf.readUInt32LE(start + 4),
        bitsPerSample: buf.readUInt16LE(start + 14),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV 文件缺少 fmt 块');
      return { ...fmt, data: buf.subarray(start, start + size) };
    }
    offset = start + size + (size % 2);
  }
  throw new Error('WAV 文件缺少 data 块');
}

export function pcmDurationMs(pcm: Pcm): number {
  const bytesPerSecond = pcm.sampleRate * pcm.channels * (pcm.bitsPerSample / 8);
  return Math.round((pcm.data.length / bytesPerSecond) * 1000);
}

export function encodeWav(pcm: Pcm): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = pcm.channels * (pcm.bitsPerSample / 8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(pcm.channels, 22);
  header.writeUInt32LE(pcm.sampleRate, 24);
  header.writeUInt32LE(pcm.sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(pcm.bitsPerSample, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.data.length, 40);
  return Buffer.concat([header, pcm.data]);
}

export async function wavDurationMs(file: string): Promise<number> {
  return pcmDurationMs(parseWav(await readFile(file)));
}

/** The samples of `pcm` between two times (whole sample frames). */
export function slicePcm(pcm: Pcm, startMs: number, endMs: number): Pcm {
  const blockAlign = pcm.channels * (pcm.bitsPerSample / 8);
  const at = (ms: number) =>
    Math.min(pcm.data.length, Math.round((ms * pcm.sampleRate) / 1000) * blockAlign);
  return { ...pcm, data: pcm.data.subarray(at(startMs), at(endMs)) };
}

/** Silence of the same format, sized to whole sample frames. */
export function silence(like: Omit<Pcm, 'data'>, ms: number): Buffer {
  const blockAlign = like.channels * (like.bitsPerSample / 8);
  const frames = Math.round((like.sampleRate * ms) / 1000);
  return Buffer.alloc(frames * blockAlign);
}

export async function writeWav(file: string, pcm: Pcm): Promise<void> {
  await writeFile(file, encodeWav(pcm));
}

export interface JoinedSpeech {
  pcm: Pcm;
  durationMs: number;
  /** Where each part sits in the joined audio. */
  segments: Array<{ text: string; startMs: number; endMs: number }>;
}

/**
 * Joins per-sentence audio with a pause between sentences, recording where each sentence
 * starts and ends (the caption times). Every part must share the first one's format.
 */
export function joinSpoken(pcms: Pcm[], texts: string[], pauseMs: number): JoinedSpeech {
  const first = pcms[0];
  if (!first) throw new Error('语音合成结果为空');
  const buffers: Buffer[] = [];
  const segments: JoinedSpeech['segments'] = [];
  let at = 0;
  pcms.forEach((pcm, i) => {
    if (
      pcm.sampleRate !== first.sampleRate ||
      pcm.channels !== first.channels ||
      pcm.bitsPerSample !== first.bitsPerSample
    )
      throw new Error('语音片段格式不一致');
    const gap = i === 0 ? Buffer.alloc(0) : silence(first, pauseMs);
    buffers.push(gap, pcm.data);
    at += pcmDurationMs({ ...first, data: gap });
    const dur = pcmDurationMs(pcm);
    segments.push({ text: texts[i] ?? '', startMs: at, endMs: at + dur });
    at += dur;
  });
  const pcm: Pcm = { ...first, data: Buffer.concat(buffers) };
  return { pcm, durationMs: pcmDurationMs(pcm), segments };
}
