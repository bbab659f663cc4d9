import path from 'node:path';
import type { AppConfig } from '../config';
import { LocalStore } from './local-store';
import type { MediaStores } from './media-store';

export type { MediaStore, MediaStores, StoredEntry, StoredInfo } from './media-store';
export { checkKey, keyBelow, keyOf } from './media-store';
export type { S3StoreConfig } from './s3-store';

/**
 * The media stores the configuration asks for: the local folders of DATA_DIR by default, or
 * one S3-compatible bucket (config `mediaStore`, MEDIA_STORE=s3) with an area prefix each.
 * The S3 SDK is loaded only then: it is a good part of the server's start-up otherwise.
 */
export async function storesFrom(
  config: Pick<
    AppConfig,
    'mediaStore' | 'mediaDir' | 'uploadsDir' | 'releasesDir' | 'storeCacheDir'
  >,
): Promise<MediaStores> {
  const s3 = config.mediaStore;
  if (!s3) {
    return {
      media: new LocalStore(config.mediaDir),
      uploads: new LocalStore(config.uploadsDir),
      releases: new LocalStore(config.releasesDir),
    };
  }
  const { S3Store, s3Client } = await import('./s3-store');
  const client = s3Client(s3);
  const copies = storeCopiesDir(config);
  return {
    media: new S3Store(client, s3, 'media', path.join(copies, 'media')),
    uploads: new S3Store(client, s3, 'uploads', path.join(copies, 'uploads')),
    releases: new S3Store(client, s3, 'releases', path.join(copies, 'releases')),
  };
}

/** Where an object store's copies go (AppConfig.storeCacheDir), one folder per area. */
export function storeCopiesDir(
  config: Pick<AppConfig, 'mediaStore' | 'mediaDir' | 'storeCacheDir'>,
): string {
  return config.storeCacheDir ?? path.join(path.dirname(config.mediaDir), 'copies');
}
