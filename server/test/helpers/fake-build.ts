import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface FakeBuildOptions {
  name?: string;
  /** Changes the content (and so the version). */
  marker?: string;
  routes?: unknown;
  /** Leave out a file to make a broken build. */
  omit?: Array<'mf-manifest.json' | 'kol-routes.json'>;
  manifest?: string;
  /** The manifest's `shared` list (empty by default: then no host manifest is needed). */
  shared?: unknown[];
  /** Extra files, by relative path (folders are created). */
  extraFiles?: Record<string, string>;
}

/** A shared-singleton entry as the webpack preset writes it into mf-manifest.json. */
export const sharedSingleton = (
  name: string,
  version: string,
  requiredVersion = `^${version}`,
) => ({
  id: `fake:${name}`,
  name,
  version,
  requiredVersion,
  singleton: true,
  assets: { js: { async: [], sync: [] }, css: { async: [], sync: [] } },
});

/** A tiny remote build as the webpack preset emits it: manifest, entry, claims, a hashed chunk. */
export function makeFakeBuild(dir: string, options: FakeBuildOptions = {}): string {
  const name = options.name ?? 'mfe_fake';
  const marker = options.marker ?? 'one';
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {
    'mf-manifest.json':
      options.manifest ??
      JSON.stringify({
        id: name,
        name,
        metaData: {
          name,
          buildInfo: { buildVersion: '0.1.0', buildName: `@kol/${name}` },
          remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
        },
        shared: options.shared ?? [],
        exposes: [],
      }),
    'remoteEntry.js': `var ${name} = ${JSON.stringify(marker)};`,
    'kol-routes.json': JSON.stringify(
      options.routes ?? [
        { path: '/fake', layout: 'inside' },
        { path: '/fake/:id', layout: 'outside', mobile: true, templateId: 2 },
      ],
    ),
    'mf-stats.json': '{}',
    '387.1a99fcde.js': `console.log(${JSON.stringify(marker)});`,
    // Start-script bookkeeping: never part of a release.
    '.build-stamp': 'stamp',
    ...options.extraFiles,
  };
  for (const [file, content] of Object.entries(files)) {
    if (options.omit?.includes(file as 'mf-manifest.json')) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** A fake host build's hashed entry chunk name part, by content as webpack names it. */
export const fakeHostChunkHash = (title: string) =>
  Buffer.from(title).toString('hex').padEnd(8, '0').slice(0, 8);

/** The index.html of a fake host build titled `title`, loading its hashed chunk. */
export const fakeHostPage = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head>` +
  `<body><script src="/main.${fakeHostChunkHash(title)}.js"></script></body></html>`;

/**
 * A host build as the webpack preset and the start script leave it: its page, its manifest
 * (name host_shell, with these shared singletons), a hashed chunk, and the `.build-stamp` a
 * release leaves out.
 */
export function makeFakeHostBuild(dir: string, title: string, shared: unknown[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), fakeHostPage(title));
  writeFileSync(
    path.join(dir, 'mf-manifest.json'),
    JSON.stringify({
      id: 'host_shell',
      name: 'host_shell',
      metaData: { buildInfo: { buildVersion: '0.1.0' } },
      shared,
    }),
  );
  writeFileSync(
    path.join(dir, `main.${fakeHostChunkHash(title)}.js`),
    `console.log(${JSON.stringify(title)})`,
  );
  writeFileSync(path.join(dir, '.build-stamp'), 'stamp');
  return dir;
}
