import { useQuery, type QueryClient } from '@tanstack/react-query';
// From the package, not a relative path: the ui entry is bundled into each app, the client is
// the shared singleton (with its session handling), and so is the query client.
import { getVideoServices, type VideoServices } from '@kol/shared-sdk';
import { queryClient } from '@kol/shared-sdk/state';

/** The query key of the installation's services. */
export const SERVICES_KEY = ['video-services'] as const;

/**
 * The outside services this installation has (`/api/video/services`: the text model, the image
 * service, the speech service), for the pages that must say what an action will do before it is
 * done: the local engine rewrites, pictures are drawn locally, the voice is the offline one,
 * there is no translator. A query of the one client, asked once per page load whichever remote
 * asks first (the answer is the server's configuration: never stale); a failed ask is asked
 * again by the next page that wants it.
 */
const servicesQuery = {
  queryKey: SERVICES_KEY,
  queryFn: ({ signal }: { signal: AbortSignal }) => getVideoServices(undefined, { signal }),
  staleTime: Infinity,
  gcTime: Infinity,
};

/**
 * The services, asked (or the answer already in) outside a component; `client` is the one
 * shared client unless told (a test's own).
 */
export function configuredServices(client: QueryClient = queryClient): Promise<VideoServices> {
  return client.fetchQuery(servicesQuery);
}

/** Forgets the answer (a test that starts from a fresh installation on the shared client). */
export function forgetServices(client: QueryClient = queryClient): void {
  client.removeQueries({ queryKey: SERVICES_KEY });
}

/** The configured services once the server said; null while unknown (or when the ask failed). */
export function useServices(): VideoServices | null {
  return useQuery(servicesQuery).data ?? null;
}

/** Whether a text model is configured: true / false once known, null before. */
export function useTextModel(): boolean | null {
  const services = useServices();
  return services === null ? null : services.text !== null;
}
