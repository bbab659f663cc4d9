// Offline speech worker. espeak-ng is GPL-3, so it runs only in this child process and never
// inside the server: the server talks to it through stdin/stdout JSON and WAV files on disk.
// Input (stdin, one JSON document): { jobs: [{ text, voice, wpm, pitch?, outPath }] }
// Output (stdout, last line): { ok: true } or { ok: false, error }
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import ESpeakNg from 'espeak-ng';

// The 18 MB WebAssembly binary (voice data included) is compiled once per process and
// instantiated per job: compiling it for every sentence was most of the synthesis time.
let compiled;
function wasmModule() {
  if (!compiled) {
    const wasmPath = createRequire(import.meta.url)
      .resolve('espeak-ng')
      .replace(/\.js$/, '.wasm');
    compiled = readFile(wasmPath).then((bytes) => WebAssembly.compile(bytes));
  }
  return compiled;
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function synthesize(job) {
  const args = ['-v', job.voice, '-s', String(job.wpm), '-w', 'out.wav', '-f', 'in.txt'];
  if (job.pitch !== undefined) args.push('-p', String(job.pitch));
  // The text goes through a file in the module's FS rather than argv, so text starting with
  // "-" is never read as an option. A fresh instance per job: main() runs once per instance.
  const instance = await ESpeakNg({
    arguments: args,
    preRun: [(mod) => mod.FS.writeFile('in.txt', job.text)],
    instantiateWasm: (imports, receive) => {
      wasmModule()
        .then((mod) => WebAssembly.instantiate(mod, imports).then((inst) => receive(inst, mod)))
        .catch((err) => {
          process.stdout.write(`${JSON.stringify({ ok: false, error: String(err) })}\n`);
          process.exit(1);
        });
      return {};
    },
    print: () => {},
    printErr: (line) => process.stderr.write(`${line}\n`),
  });
  const wav = instance.FS.readFile('out.wav');
  await writeFile(job.outPath, wav);
}

try {
  const request = JSON.parse(await readStdin());
  for (const job of request.jobs) await synthesize(job);
  process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: String(err?.message ?? err) })}\n`);
  process.exitCode = 1;
}
