import { XMLParser } from 'fast-xml-parser';

/** What a CAS 3.0 server says about a service ticket. */
export type CasValidation =
  | { ok: true; user: string; attributes: Record<string, string> }
  | { ok: false; code: string; message: string };

/** The CAS server could not be asked: down, timed out, or answered something that is not CAS. */
export class CasUnavailableError extends Error {}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Keep values as the strings the server sent (a username "007" stays "007").
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
});

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && '#text' in value)
    return text((value as { '#text': unknown })['#text']);
  return '';
}

/** Parses the XML of /p3/serviceValidate (CAS protocol 3.0, section 2.5). */
export function parseServiceResponse(xml: string): CasValidation {
  const doc: unknown = parser.parse(xml);
  const response = (doc as Record<string, unknown> | undefined)?.['cas:serviceResponse'];
  if (!response || typeof response !== 'object')
    throw new CasUnavailableError('not a CAS service response');
  const body = response as Record<string, unknown>;

  const success = body['cas:authenticationSuccess'];
  if (success && typeof success === 'object') {
    const fields = success as Record<string, unknown>;
    const user = text(fields['cas:user']);
    if (!user) throw new CasUnavailableError('CAS success without cas:user');
    const attributes: Record<string, string> = {};
    const raw = fields['cas:attributes'];
    if (raw && typeof raw === 'object') {
      for (const [key, value] of Object.entries(raw)) {
        // A repeated attribute arrives as an array; its first value is enough here.
        attributes[key.replace(/^cas:/, '')] = text(Array.isArray(value) ? value[0] : value);
      }
    }
    return { ok: true, user, attributes };
  }

  const failure = body['cas:authenticationFailure'];
  if (failure !== undefined) {
    const code =
      typeof failure === 'object' && failure
        ? text((failure as Record<string, unknown>)['@code'])
        : '';
    return { ok: false, code: code || 'UNKNOWN', message: text(failure) };
  }
  throw new CasUnavailableError('CAS response with neither success nor failure');
}

/** Asks the CAS server whether `ticket` was issued for `service`. */
export async function validateServiceTicket(options: {
  serverUrl: string;
  service: string;
  ticket: string;
  timeoutMs: number;
}): Promise<CasValidation> {
  const url =
    `${options.serverUrl}/p3/serviceValidate?service=${encodeURIComponent(options.service)}` +
    `&ticket=${encodeURIComponent(options.ticket)}`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    throw new CasUnavailableError(`CAS server unreachable: ${String(error)}`);
  }
  if (!response.ok) throw new CasUnavailableError(`CAS server answered HTTP ${response.status}`);
  return parseServiceResponse(await response.text());
}
