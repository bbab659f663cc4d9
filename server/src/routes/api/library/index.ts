import type { FastifyInstance } from 'fastify';

export default async function libraryRoutes(_app: FastifyInstance) {}
