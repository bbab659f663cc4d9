import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny CAS 3.0 server on loopback that speaks the protocol's real XML: it validates the
 * service tickets it was told about (each once, for its service) at /p3/serviceValidate.
 */
export interface CasServer {
  url: string;
  /** Registers a ticket that validates once for `service`, with these attributes. */
  issue(ticket: string, service: string, user: string, attributes?: Record<string, string>): void;
  /** The service URLs it was asked about, for assertions. */
  requests: string[];
  close(): Promise<void>;
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startCasServer(): Promise<CasServer> {
  const tickets = new Map<
    string,
    { service: string; user: string; attributes: Record<string, string> }
  >();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://cas.test');
    if (url.pathname !== '/cas/p3/serviceValidate') {
      response.writeHead(404).end();
      return;
    }
    const ticket = url.searchParams.get('ticket') ?? '';
    const service = url.searchParams.get('service') ?? '';
    requests.push(service);
    const entry = tickets.get(ticket);
    tickets.delete(ticket);
    response.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
    if (!entry || entry.service !== service) {
      response.end(
        `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">\n` +
          `  <cas:authenticationFailure code="INVALID_TICKET">\n` +
          `    Ticket ${escape(ticket)} not recognized\n` +
          `  </cas:authenticationFailure>\n` +
          `</cas:serviceResponse>\n`,
      );
      return;
    }
    const attributes = Object.entries(entry.attributes)
      .map(([key, value]) => `      <cas:${key}>${escape(value)}</cas:${key}>`)
      .join('\n');
    response.end(
      `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">\n` +
        `  <cas:authenticationSuccess>\n` +
        `    <cas:user>${escape(entry.user)}</cas:user>\n` +
        `    <cas:attributes>\n` +
        `      <cas:authenticationDate>2026-01-01T00:00:00Z</cas:authenticationDate>\n` +
        `${attributes}\n` +
        `    </cas:attributes>\n` +
        `  </cas:authenticationSuccess>\n` +
        `</cas:serviceResponse>\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cas`,
    issue(ticket, service, user, attributes = {}) {
      tickets.set(ticket, { service, user, attributes });
    },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
