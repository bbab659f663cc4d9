import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';

/** Parses the session cookie; cookies are not signed because the value is a random id checked in the database. */
export default fp(async (app) => {
  await app.register(cookie);
});
