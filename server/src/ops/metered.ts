import type { MediaStore, MediaStores } from '../storage/media-store';
import { timed, type Metrics } from './metrics';

/** The operations of a media store that reach its folder or bucket. */
const STORE_OPERATIONS = new Set<string>([
  'open',
  'cached',
  'stat',
  'read',
  'putFile',
  'putBytes',
  'download',
  'list',
  'remove',
]);

/**
 * The store with every operation counted and timed (kol_media_store_operations_total). A
 * proxy rather than a wrapper object, so the store is still what it was (`instanceof
 * LocalStore` tells a folder from a bucket: storage/task-mirror.ts).
 */
export function meteredStore(store: MediaStore, area: string, metrics: Metrics): MediaStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !STORE_OPERATIONS.has(property)) return value;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        timed(
          () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args),
          (outcome, seconds) => {
            metrics.storeOperations.inc({ area, operation: property, outcome });
            metrics.storeDuration.observe({ area, operation: property }, seconds);
          },
        );
    },
  });
}

export function meteredStores(stores: MediaStores, metrics: Metrics): MediaStores {
  return {
    media: meteredStore(stores.media, 'media', metrics),
    uploads: meteredStore(stores.uploads, 'uploads', metrics),
    releases: meteredStore(stores.releases, 'releases', metrics),
  };
}
