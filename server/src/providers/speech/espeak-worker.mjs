// Offline speech worker. espeak-ng is GPL-3, so it runs only in this child process and never
// inside the server: the server talks to it through stdin/stdout JSON and WAV files on disk.
// The server keeps it for many batches (server/src/providers/speech/espeak.ts).
// Input (stdin, one JSON document a line, a batch each): { jobs: [{ text, voice, wpm, pitch?, outPath }] }
// Output (stdout, one line a batch, in order): { ok: true } or { ok: false, error }
// It ends when its stdin does.
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import ESpeakNg from 'espeak-ng';

/**
 * The espeak-ng command line, started once per process and run again for every job from a copy
 * of its memory as it was before the first run.
 *
 * The package exports the program's `main` only, which runs once per instance (getopt and
 * espeak's own state stay behind). A fresh instance per job (instantiating the 18 MB module and
 * copying its embedded voice data into the file system) cost 0.2–0.4 s a sentence, most of the
 * synthesis time. Restoring the linear memory is a copy of 32 MB. The arguments are laid on the
 * stack exactly as Emscripten's own callMain lays them (argv first, then each string, argv[0]
 * its `./this.program`): espeak reads stack memory it did not write, so another layout gives
 * other audio; laid out alike, every job's WAV is byte for byte what a fresh instance writes.
 */
async function startEspeak() {
  const wasmPath = createRequire(import.meta.url)
    .resolve('espeak-ng')
    .replace(/\.js$/, '.wasm');
  const compiled = await WebAssembly.compile(await readFile(wasmPath));
  let exports;
  const module = await ESpeakNg({
    noInitialRun: true,
    instantiateWasm: (imports, receive) => {
      WebAssembly.instantiate(compiled, imports)
        .then((instance) => {
          exports = instance.exports;
          receive(instance, compiled);
        })
        .catch((err) => {
          process.stdout.write(`${JSON.stringify({ ok: false, error: String(err) })}\n`);
          process.exit(1);
        });
      return {};
    },
    print: () => {},
    printErr: (line) => process.stderr.write(`${line}\n`),
  });
  const pristine = new Uint8Array(exports.memory.buffer).slice();
  const encoder = new TextEncoder();

  /** Runs `espeak-ng args…` on a memory as the first run found it; returns main's status. */
  function runMain(args) {
    new Uint8Array(exports.memory.buffer).set(pristine);
    const stack = exports.stackSave();
    try {
      const argv = ['./this.program', ...args];
      const argvPtr = exports.stackAlloc((argv.length + 1) * 4);
      const pointers = argv.map((arg) => {
        const bytes = encoder.encode(`${arg}\0`);
        const ptr = exports.stackAlloc(bytes.length);
        new Uint8Array(exports.memory.buffer).set(bytes, ptr);
        return ptr;
      });
      const words = new Uint32Array(exports.memory.buffer);
      pointers.forEach((ptr, i) => (words[(argvPtr >> 2) + i] = ptr));
      words[(argvPtr >> 2) + pointers.length] = 0;
      try {
        return exports.__main_argc_argv(argv.length, argvPtr);
      } catch (err) {
        // exit() inside main: Emscripten throws its ExitStatus (and sets our exit code).
        if (err && err.name === 'ExitStatus') {
          process.exitCode = undefined;
          return err.status;
        }
        throw err;
      }
    } finally {
      exports.stackRestore(stack);
    }
  }

  return async function synthesize(job) {
    const args = ['-v', job.voice, '-s', String(job.wpm), '-w', 'out.wav', '-f', 'in.txt'];
    if (job.pitch !== undefined) args.push('-p', String(job.pitch));
    // The text goes through a file in the module's FS rather than argv, so text starting with
    // "-" is never read as an option.
    module.FS.writeFile('in.txt', job.text);
    const status = runMain(args);
    let wav;
    try {
      wav = module.FS.readFile('out.wav');
      module.FS.unlink('out.wav');
    } catch {
      throw new Error(`espeak-ng 没有输出音频（退出码 ${status}）`);
    }
    if (status !== 0) throw new Error(`espeak-ng 退出码 ${status}`);
    await writeFile(job.outPath, wav);
  };
}

let espeak;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  try {
    const request = JSON.parse(line);
    espeak ??= startEspeak();
    const synthesize = await espeak;
    for (const job of request.jobs) await synthesize(job);
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ ok: false, error: String(err?.message ?? err) })}\n`);
  }
}
